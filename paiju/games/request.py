"""The one builder of a robot's request: what a room publishes on the bus for a seat that a
robot plays, and what the arena hands its robots, so that both ask the same question."""

from __future__ import annotations

from typing import Any

from paiju.games.base import ActionSet, Game
from paiju.protocol import DecisionRequest


def decision_request(
    game: Game[Any],
    seat: int,
    *,
    room: str,
    prompt_id: int,
    deadline_ms: int,
    robot: str,
    reply_to: str = "",
    legal: ActionSet | None = None,
) -> DecisionRequest:
    """The request for ``seat``'s decision: exactly the view a human at the seat's controller
    (bridge: the declarer for dummy) sees, and the legal set (``legal``, when the caller has it).

    >>> from paiju import games
    >>> g = games.create("tricks", 1)
    >>> r = decision_request(g, 0, room="r1", prompt_id=7, deadline_ms=0, robot="random")
    >>> (r.seat, r.prompt_id, r.mask == g.legal(0).mask, r.view == g.view(0))
    (0, 7, True, True)
    """
    actions = game.legal(seat) if legal is None else legal
    return DecisionRequest(
        room,
        game.name,
        game.rules.name,
        seat,
        prompt_id,
        deadline_ms,
        robot,
        actions.mask,
        list(actions.options),
        game.view(game.controller(seat)),
        reply_to,
    )
