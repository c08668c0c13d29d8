"""The sans-I/O cores of the server: the room's table, the lobby and their parts. They do no I/O,
count no metrics and read no clock; the asyncio shell (:mod:`paiju.server`) runs them."""
