"""The asyncio client library for paiju servers: what the tests, and any program that plays on
a server, use to talk to it. It speaks only the wire (:mod:`protocol`, SPEC.md) over
``websockets``, so it works against any paiju server, local or remote.

:class:`Client` is one session (:mod:`paiju.client.session`): connect, HELLO (or resume with a
token), create or join rooms, act on prompts, and read every frame in order.
"""

from paiju.client.session import Client, Closed, ServerError

__all__ = ["Client", "Closed", "ServerError"]
