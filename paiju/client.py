"""The client library's former home: it is the :mod:`client` package now. This name stays for
the programs and tests that import ``paiju.client``."""

from client import Client, Closed, ServerError

__all__ = ["Client", "Closed", "ServerError"]
