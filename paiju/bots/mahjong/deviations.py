"""What each kind of decision of a mahjong robot is worth: one-step deviations, valued by playing on.

The arena says how a robot scores; this says where. At every decision of one kind the
robot makes, the game is copied twice: in one copy the robot's action is applied, in the
other an alternative, and both copies are played to the end by the same robots (the
robot itself included, deciding as always). The difference of the robot's scores is what
that one decision was worth against the alternative, given the rest of the deal: the
wall is the same in both copies, so the difference carries no luck of the draw, only the
consequences of the choice. Averaged over many decisions it is the one-step test of
policy improvement: where the mean of ``Q(alternative) - Q(chosen)`` is above 0 with its
interval, taking the alternative there would make the robot score more.

The kinds, and their alternatives:

- ``hold``: the robot wins on a discard; the alternative passes (and waits for more, as
  ``HuDist(hold=...)`` would);
- ``claim``: the robot claims a chow or pong; the alternative passes;
- ``pass``: the robot lets a chow or pong go (no win on offer); the alternative makes it
  (a pong first);
- ``calm`` and ``threatened``: the robot's discard (or declaration) differs from the one
  the ``ukeire`` baseline would make in its seat; the alternative is that one -- ``calm``
  while no opponent has declared ready, ``threatened`` once one has (where the robot's
  defence decides).

Only the game's copies know the hidden tiles: the robots decide from their views as in a
room. ``docs/robots.md`` has the figures of this command::

    python -m paiju.bots.mahjong.deviations --hands 800 --seed 6 --ruleset classic
"""

from __future__ import annotations

import argparse
import copy
import itertools
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from paiju import games
from paiju.bots import registry
from paiju.bots.arena import _ci, play_out, rotations
from paiju.bots.base import Robot
from paiju.bots.mahjong.defence import declared_against
from paiju.bots.mahjong.perceptor import perceive
from paiju.bots.mahjong.robots import rules_of
from paiju.bots.mahjong.strategies import remove
from paiju.bots.mahjong.ukeire import UkeireRobot
from paiju.games import GameAction
from paiju.protocol import DecisionRequest
from paiju.protocol.mahjong import ActCode

KINDS = ("hold", "claim", "pass", "calm", "threatened")


@dataclass(frozen=True)
class Deviation:
    """One decision of the robot and one alternative, each valued by the robot's score at the end."""

    kind: str
    deal: int
    rotation: int
    distance: int  # the robot's hu distance: of its hand when a tile is on offer, else after its discard
    wall: int  # tiles left in the wall
    declared: int  # opponents that had declared ready
    chosen: GameAction
    alternative: GameAction
    q_chosen: int
    q_alternative: int

    @property
    def gain(self) -> int:
        """What the alternative would have scored more than the robot's choice."""
        return self.q_alternative - self.q_chosen


def alternative(request: DecisionRequest, action: GameAction, baseline: Robot) -> tuple[str, GameAction] | None:
    """The kind of the robot's decision ``action`` and the alternative to value (None: none)."""
    memory = perceive(request)
    legal = request.options
    if memory.offer:
        if action.code == ActCode.HU:
            return "hold", GameAction(int(ActCode.PASS))
        if action.code in (ActCode.CHOW, ActCode.PONG):
            return "claim", GameAction(int(ActCode.PASS))
        if action.code == ActCode.PASS and not any(o.code == ActCode.HU for o in legal):
            claims = sorted(
                (o for o in legal if o.code in (ActCode.CHOW, ActCode.PONG)), key=lambda o: o.code != ActCode.PONG
            )
            if claims:
                return "pass", GameAction(claims[0].code, bytes(claims[0].cards))
        return None
    if action.code not in (ActCode.DISCARD, ActCode.READY) or memory.ready[memory.seat]:
        return None
    other = baseline.decide(request)
    if other.code not in (ActCode.DISCARD, ActCode.READY) or other.cards == action.cards:
        return None
    if other.code == ActCode.READY and action.code == ActCode.DISCARD:  # compare the discards, not the declaration
        other = GameAction(int(ActCode.DISCARD), other.cards)
    return ("threatened" if declared_against(memory) else "calm"), other


def deviations(
    robot: str,
    against: str,
    deals: int,
    seed: int,
    ruleset: str | None,
    kinds: Sequence[str] = KINDS,
    done: Callable[[int], None] | None = None,
) -> Iterator[Deviation]:
    """Every decision of ``kinds`` that ``robot`` makes against three ``against``, in ``deals``
    deals of ``seed``, each played once per rotation, with its alternative valued (``done``
    is called with each deal played)."""
    baseline = UkeireRobot()
    for deal in range(deals):
        for r, seating in enumerate(rotations([robot, against, against, against])):
            yield from _hand(seating, seating.index(robot), seed, ruleset, deal, r, kinds, baseline)
        if done is not None:
            done(deal)


def _hand(
    seating: Sequence[str],
    me: int,
    seed: int,
    ruleset: str | None,
    deal: int,
    rotation: int,
    kinds: Sequence[str],
    baseline: Robot,
) -> list[Deviation]:
    """The deviations of seat ``me`` in one hand, played out by the robots of ``seating``."""
    robots = [registry.get("mahjong", name) for name in seating]
    game = games.create("mahjong", seed, ruleset, hand=deal)
    room = f"deviations-{seed}-{deal}-{rotation}"
    found: list[Deviation] = []

    def decided(request: DecisionRequest, action: GameAction) -> None:
        if game.controller(request.seat) != me:
            return
        kind, other = alternative(request, action, baseline) or ("", action)
        if kind not in kinds or not games.ActionSet(request.mask, tuple(request.options)).allows(other):
            return
        memory = perceive(request)
        hand = memory.hand if memory.offer else remove(memory.hand, action.cards[0])
        found.append(
            Deviation(
                kind,
                deal,
                rotation,
                rules_of(request.ruleset).distance(hand, memory.own_melds),
                memory.wall,
                sum(memory.ready[o] for o in range(4) if o != memory.seat),
                action,
                other,
                _value(game, request.seat, action, robots, room),
                _value(game, request.seat, other, robots, room),
            )
        )

    play_out(game, robots, room, itertools.count(1), decided=decided)
    return found


def _value(game: games.Game[Any], seat: int, action: GameAction, robots: Sequence[Robot], room: str) -> int:
    """The score of ``seat`` when ``action`` is played in a copy of ``game`` and the copy played out."""
    g = copy.deepcopy(game)
    g.apply(seat, action)
    play_out(g, robots, room, itertools.count(1 << 20))
    return int(g.outcome().scores[seat])


def summary(found: Sequence[Deviation], hands: int) -> list[str]:
    """The report: per kind, the mean gain of the alternative with its 95% interval, then by distance."""
    lines = []
    by_kind: dict[str, list[Deviation]] = defaultdict(list)
    for d in found:
        by_kind[d.kind].append(d)
    for kind in KINDS:
        rows = by_kind.get(kind, [])
        if not rows:
            continue
        lines.append(_line(kind, rows, hands))
        by_distance: dict[int, list[Deviation]] = defaultdict(list)
        for d in rows:
            by_distance[d.distance].append(d)
        lines += [_line(f"  distance {k}", v, hands) for k, v in sorted(by_distance.items()) if len(v) >= 20]
    return lines


def _line(label: str, rows: Sequence[Deviation], hands: int) -> str:
    gains = [float(d.gain) for d in rows]
    mean = statistics.fmean(gains)
    lo, hi = _ci(gains) or (mean, mean)
    return (
        f"{label:<14} {len(rows):6d} decisions ({len(rows) / hands:.3f} a hand): "
        f"alternative - chosen {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] points a decision"
    )


def main(argv: list[str] | None = None) -> None:
    assert __doc__ is not None
    ap = argparse.ArgumentParser(prog="python -m paiju.bots.mahjong.deviations", description=__doc__.split("\n\n")[0])
    ap.add_argument("--robot", default="bdi-hudist", help="the robot whose decisions are valued (default bdi-hudist)")
    ap.add_argument("--against", default="ukeire", help="the robot in the other three seats (default ukeire)")
    ap.add_argument("--hands", type=int, default=200, help="deals, each played once per rotation (default 200)")
    ap.add_argument("--seed", type=int, default=6, help="the seed of the deals (default 6)")
    ap.add_argument("--ruleset", default="championship", help="championship (default) or classic")
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"which decisions (default {','.join(KINDS)})")
    args = ap.parse_args(argv)
    kinds = args.kinds.split(",")
    if unknown := set(kinds) - set(KINDS):
        ap.error(f"unknown kinds {sorted(unknown)}; choose from {','.join(KINDS)}")
    for name in (args.robot, args.against):
        registry.get("mahjong", name)  # KeyError naming the known robots
    from tqdm import tqdm  # type: ignore[import-untyped]

    with tqdm(total=args.hands, unit="deal", leave=False) as bar:

        def done(_: int) -> None:
            bar.update()

        found = list(deviations(args.robot, args.against, args.hands, args.seed, args.ruleset, kinds, done))
    hands = 4 * args.hands
    print(
        f"{args.robot} against three {args.against}: {args.hands} deals x 4 rotations of seed {args.seed}, "
        f"{args.ruleset}; each decision's alternative played out on the same wall"
    )
    for line in summary(found, hands):
        print(line)


if __name__ == "__main__":
    main()
