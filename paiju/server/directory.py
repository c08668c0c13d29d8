"""What the lobby asks of the other nodes when several `paiju serve --redis` nodes make one
service: :class:`Directory`, implemented on Redis by :class:`paiju.server.cluster.Cluster`.

The lobby (paiju/server/lobby.py) holds only its own rooms; for anything else it asks here. A
request that belongs to another node raises :class:`protocol.Moved`, which the lobby
answers with REDIRECT (paiju/protocol/SPEC.md): the client goes to that node and asks again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from paiju.protocol import RoomInfo

if TYPE_CHECKING:
    from paiju.server.room import Room


class Directory(Protocol):
    async def lobby(self, game: str | None) -> list[RoomInfo]:
        """The public rooms in play on the other nodes (of ``game``, or all)."""
        ...

    def accepting(self) -> None:
        """Return when this node takes new rooms; Moved to one that does while it drains
        (LobbyError SHUTTING_DOWN when no node does)."""
        ...

    async def locate(self, room: str) -> Room | None:
        """Room ``room`` when it is (now) this node's: taken over here when its owner died;
        Moved when a live node owns it; None when no node does."""
        ...

    async def quickplay(self, game: str, ruleset: str) -> None:
        """Return when quick play should open a room here; Moved to another node's waiting
        quick-play room of ``game`` and ``ruleset`` (or, while this node drains, to a node
        that takes rooms)."""
        ...

    async def resume(self, player: str) -> None:
        """Before a resume: return when ``player``'s room, if any, is this node's (taken over
        here when its owner died); Moved when another live node holds it."""
        ...


class Host(Protocol):
    """What the directory asks of this node's rooms (paiju/server/host.py's RoomHost): it never reads
    or writes the lobby's players and rooms itself."""

    def room(self, rid: str) -> Room | None:
        """Room ``rid`` when this node holds it."""
        ...

    def room_ids(self) -> list[str]:
        """The rooms this node holds."""
        ...

    async def rebuild(self, rid: str, entries: list[bytes], *, waiting: bool = False) -> Room | None:
        """Room ``rid`` rebuilt here from its log (None: not rebuilt)."""
        ...

    def evict(self, rid: str, why: str) -> None:
        """Room ``rid`` stops here (another node has it now): its players' connections close
        with ``why``, and they resume on that node."""
        ...
