"""The asyncio shell around the games: WebSocket connections, lobby, rooms, clocks, bus, storage."""

from paiju import protocol  # noqa: F401 - first: paiju.build picks the compiled or the pure modules
