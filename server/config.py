"""The server's settings: where it listens, its secret, and the limits that protect it.

Every field has the embedded default; ``paiju serve`` maps its options onto them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol import MAX_FRAME

# Action clocks by game, in milliseconds: the 2020 championship rules give mahjong 3 s;
# bridge and Niujiu decisions (a lead, an occupy) deserve longer.
DEFAULT_CLOCK_MS = {"mahjong": 3_000, "bridge": 30_000, "niujiu": 20_000}
FALLBACK_CLOCK_MS = 10_000
# The robot a bot seat gets when CREATE_ROOM names none: the best the game has.
PREFERRED_ROBOTS = ("best", "expert", "strong", "heuristic", "random")


@dataclass
class Limits:
    send_queue: int = 256  # frames waiting for a slow reader before it is disconnected
    stall: float = 30.0  # seconds a connection may leave frames unread before it is closed
    sndbuf: int = 64 * 1024  # kernel send buffer per connection (0: the kernel's autotuning, up to MBs)
    max_message: int = 2 * MAX_FRAME  # WebSocket messages above this close the connection (1009)
    rate: float = 40.0  # frames per second a connection may send, on average ...
    burst: int = 80  # ... with this many at once
    rate_strikes: int = 400  # frames refused for rate before the connection is closed
    grace: float = 60.0  # seconds a dropped player keeps the seat
    takeover_after: int = 2  # consecutive timeouts before a robot plays the seat
    robot_on_drop: bool = True  # a robot plays a dropped player's seat during the grace period
    max_rooms: int = 1_000
    max_connections: int = 10_000
    max_hands: int = 64
    min_clock_ms: int = 100
    max_clock_ms: int = 600_000
    replay_buffer: int = 4_096  # events kept per room for resume
    quickplay_wait: float = 5.0  # seconds quick play waits for humans before filling with robots
    hand_pause: float = 2.0  # seconds between the RESULT of a hand and the deal of the next
    token_ttl: float = 24 * 3600.0  # seconds a resume token stays valid


@dataclass
class Config:
    host: str = "127.0.0.1"
    port: int = 8765
    secret: bytes = b""  # signs resume tokens; a random one per process when empty
    server_id: str = "local"  # reply_to on the bus
    limits: Limits = field(default_factory=Limits)
    clocks: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_CLOCK_MS))
