"""The robot players and the worker that serves them from the bus."""
