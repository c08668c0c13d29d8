"""The benchmarks of `paiju bench`."""
