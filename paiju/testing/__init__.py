"""Helpers for tests and benchmarks: a server launched as a child process, a throwaway PostgreSQL."""
