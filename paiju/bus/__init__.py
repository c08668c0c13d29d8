"""The bus and the room logs on Redis (redis-py's asyncio API), shared by servers and workers.

``link`` is the connection (URL check, key names, reconnection with backoff), ``rooms`` the
server side of the bus (:class:`~paiju.bus.memory.RoomBus`), ``workers`` the worker side
(:class:`~paiju.bus.memory.WorkerBus`). It sits beside ``server`` and ``bots`` so that neither
imports the other and ``protocol`` keeps no dependency beyond msgpack.
"""
