"""The server's settings: where it listens, its secret, and the limits that protect it.

Every field has the embedded default; ``paiju serve`` maps its options onto them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from paiju.protocol import MAX_FRAME

# Clocks by game, in milliseconds, in the spirit of Tenhou and Mahjong Soul (about 5 s a
# mahjong move plus a bank of 10-20 s for the hand): each move has its own time; a seat that
# runs over spends its time bank for the hand, and only when the bank is spent does the clock
# play for it (and a robot take the seat). Bridge and Niujiu decisions (a lead, a cover)
# deserve longer. A room created with its own clock_ms has no bank.
DEFAULT_CLOCK_MS = {"mahjong": 5_000, "bridge": 30_000, "niujiu": 20_000, "tricks": 10_000}
DEFAULT_BANK_MS = {"mahjong": 20_000, "bridge": 60_000, "niujiu": 30_000, "tricks": 20_000}
FALLBACK_CLOCK_MS = 10_000
# The robot a bot seat gets when CREATE_ROOM names none: the first of these names that the
# game has registered, so a robot that is not installed (or not written yet) is skipped.
# Robot names are per game; the order within a game is by strength as measured in the arena
# (docs/robots.md, "Default robots"), a name that is not measured yet comes after those that are.
PREFERRED_ROBOTS = (
    "hybrid",  # bridge: +7.04 IMP a board against basic (1,000 boards), +18.58 against random
    "basic",  # bridge: the natural baseline, +11.65 IMP a board against random
    "automaton-mc",  # niujiu: mean score +0.107 against automaton's -0.053 (200 deals x 3 rotations)
    "automaton",  # niujiu: enough rate 0.601 against greedy's 0.425 (2000 deals x 3 rotations)
    "bdi-hudist",  # mahjong: against 3 ukeire, +0.066 (championship) and +0.112 (classic) points a hand
    "ukeire",  # mahjong: the strong non-learning baseline that bdi-hudist leads
    "bdi-rearrange",  # mahjong: 0.305 and 0.282 in the same matches
    "greedy",  # mahjong and niujiu: the baselines the robots above beat
    "perfect",  # tricks: never below the deal's value (an exact solver)
    "best",  # a robot of a game added later may call itself one of these
    "expert",
    "strong",
    "heuristic",
    "random",  # every game has it
)


def rank_robots(names: list[str] | tuple[str, ...]) -> list[str]:
    """``names`` strongest first: the preferred ones in PREFERRED_ROBOTS's order, then the
    others by name, the random baseline last; the first is a room's default robot.

    >>> rank_robots(["random", "greedy", "zeta", "bdi-hudist"])
    ['bdi-hudist', 'greedy', 'zeta', 'random']
    """
    order = {name: i for i, name in enumerate(PREFERRED_ROBOTS)}
    late = len(PREFERRED_ROBOTS) - 1  # unknown names: before random, after the measured ones
    return sorted(names, key=lambda n: (order.get(n, late - 0.5), n))


@dataclass
class Limits:
    send_queue: int = 256  # frames waiting for a slow reader before it is disconnected
    stall: float = 30.0  # seconds a connection may leave frames unread before it is closed
    # seconds between keepalive pings; a connection that has not answered one by the next is
    # closed (paiju/server/keepalive.py: one task for all connections)
    ping_interval: float = 20.0
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
    # Per client address (0: no limit), so that one client cannot take the server's rooms
    # or connections: its open connections, the open rooms it created, the rooms it
    # created in the last minute. Behind a reverse proxy every client has the proxy's address.
    address_connections: int = 200
    address_rooms: int = 50
    address_rooms_per_minute: int = 60
    waiting_expiry: float = 300.0  # seconds a room may wait for its players before it closes
    # seconds a full room waits, before its first deal, for a worker that serves its robots
    # (paiju/bus/roster.py: a `paiju bots` that registers late); then it closes (ERROR
    # ROBOTS_UNAVAILABLE). 0: no wait, the clock plays a robot seat no worker answers
    robot_wait: float = 30.0
    max_hands: int = 64
    min_clock_ms: int = 100
    max_clock_ms: int = 600_000
    replay_buffer: int = 4_096  # events kept per room for resume
    quickplay_wait: float = 5.0  # seconds quick play waits for humans before filling with robots
    hand_pause: float = 2.0  # seconds between the RESULT of a hand and the deal of the next
    rematch_wait: float = 30.0  # seconds the humans have to accept a rematch after a match (0: no offer)
    # seconds a robot's move waits, counted from its prompt, in a room that people play in or
    # watch, so that they can follow (`paiju serve --robot-pace`, 0.6 s); 0 here: at once
    robot_pace: float = 0.0
    # failed logins of one name from one address: 3 free, then each waits this long, doubled
    # with each further failure, up to login_delay_max seconds (paiju/core/throttle.py)
    login_delay: float = 1.0
    login_delay_max: float = 300.0
    token_ttl: float = 24 * 3600.0  # seconds a resume token stays valid
    # seconds frames that ask nothing of their reader (events, results, ACKs) may wait to leave
    # with the next ones in one write; a prompt, or anything else, flushes at once (0: never wait)
    linger: float = 0.0


@dataclass
class Config:
    host: str = "127.0.0.1"
    port: int = 8765
    secret: bytes = b""  # signs resume tokens; a random one per process when empty
    server_id: str = "local"  # reply_to on the bus
    limits: Limits = field(default_factory=Limits)
    clocks: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_CLOCK_MS))
    banks: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_BANK_MS))  # time bank per seat and hand
    pbn: str | None = None  # PBN deals for the bridge rooms created without their own (serve --pbn)
