"""The asyncio shell around the games: WebSocket connections, lobby, rooms, clocks, bus, storage."""
