"""What a room hands to the records when a hand or its match ends (the server's side of
:mod:`records.recorder`): the match's description, the hand's action log and outcome, and who
holds each seat -- an account (``player.extra["account"]``), a guest, or the room's robot under
its account name ``NAME@VERSION``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games import Outcome
from protocol import SeatKind
from records.matches import HandRecord, MatchInfo, SeatHolder
from records.models import GUEST, ROBOT, USER

from .identity import account_of
from .storage import rules_options

if TYPE_CHECKING:
    from .room import Room

RobotLabel = Callable[[str, str], str]  # (game, robot name) -> "NAME@VERSION"


def default_label(game: str, robot: str) -> str:
    return f"{robot}@1"


def match_info(room: Room) -> MatchInfo:
    return MatchInfo(
        room.id, room.game_name, room.ruleset, rules_options(room.game_name, room.rules), room.seed, room.hands,
        room.created,
    )  # fmt: skip


def holders(room: Room, label: RobotLabel) -> list[SeatHolder]:
    try:
        robot = label(room.game_name, room.robot)
    except KeyError:  # a robot this process's registry does not know (served by another worker)
        robot = default_label(room.game_name, room.robot)
    out = []
    for st in room.seats:
        if st.kind in (SeatKind.HUMAN, SeatKind.AWAY) and st.player is not None:
            account = account_of(st.player)
            out.append(SeatHolder(USER, account) if account else SeatHolder(GUEST, st.player.name))
        else:
            out.append(SeatHolder(ROBOT, robot))
    return out


def hand_ended(room: Room, outcome: Outcome) -> None:
    """Hand ``room.hand`` is over (before the room moves to the next one)."""
    rec = room.server.recorder
    if rec is not None:
        hand = HandRecord(room.hand, list(room.game.log), outcome.scores, outcome.hands, outcome.detail)
        rec.hand_ended(match_info(room), hand, holders(room, room.server.robot_label))


def match_ended(room: Room, *, complete: bool) -> None:
    """The match is over (``complete``), or the room closed before its last hand."""
    rec = room.server.recorder
    if rec is not None:
        rec.match_ended(match_info(room), holders(room, room.server.robot_label), room.totals, complete=complete)
