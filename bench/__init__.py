"""The benchmarks of `paiju bench TARGET`: a module a target, each with
``add_arguments(parser)`` and ``run(args)`` (paiju/bench.py lists them and imports one when
it is asked for), and :mod:`bench.launch`, which starts the servers of the benchmarks and
the tests as child processes. Timing targets live here, never in unit tests."""
