"""The asyncio shell around the games: WebSocket connections, lobby, rooms, clocks, bus, storage."""

import protocol  # noqa: F401 - first: protocol.build picks the compiled or the pure modules
