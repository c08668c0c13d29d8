"""Checking a finished match's record: its seed and salt hash to the commitment its players
got before the first deal, and every recorded hand is dealt again from that seed
(``games.create(game, seed, rules, hand=h)``), its recorded actions replayed on it, each
legal, to the hands and scores recorded. ``paiju verify MATCH`` prints it; the match page
shows it (``GET /api/matches/ID/verify``).

A record is the records API's JSON of a match (``GET /api/matches/ID``) or
:func:`paiju.records.matches.match`'s dict: the seed may be a decimal string.

>>> from paiju.games import fairness
>>> rec = {"id": 1, "game": "tricks", "ruleset": "standard", "options": {}, "status": "over",
...        "seed": "5", "salt": "00" * 16, "commitment": fairness.commitment(5, bytes(16)), "hands": []}
>>> check(rec).ok, check(rec | {"seed": "6"}).problems
(True, ['the seed and salt do not hash to the commitment: the seed is not the one promised'])
>>> check(rec | {"status": "playing", "seed": None}).problems
['match 1 is in play: its seed is revealed when it ends']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paiju import games
from paiju.games import GameAction, GameError, fairness
from paiju.records.matches import rules_of
from paiju.records.models import OVER, PLAYING


@dataclass
class Report:
    """What :func:`check` found: ``lines`` to show (each check and its outcome) and the
    ``problems`` among them (none: the record is what its commitment promised)."""

    match: int
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    deals: int = 0  # hands dealt again and found as recorded

    @property
    def ok(self) -> bool:
        return not self.problems

    def fail(self, text: str) -> None:
        self.problems.append(text)
        self.lines.append(f"FAILED: {text}")

    def json(self) -> dict[str, Any]:
        return {"match": self.match, "ok": self.ok, "deals": self.deals, "lines": self.lines, "problems": self.problems}


def check(record: dict[str, Any], promised: str | None = None) -> Report:
    """Check ``record`` (module docstring); ``promised``: the commitment a player saw in
    ROOM_STATE, which the record's must equal."""
    r = Report(int(record["id"]))
    if record["status"] == PLAYING or record.get("seed") is None:
        r.fail(f"match {r.match} is in play: its seed is revealed when it ends")
        return r
    seed = int(record["seed"])
    commitment, salt = record.get("commitment"), record.get("salt")
    if commitment and salt is not None:
        if fairness.matches(commitment, seed, bytes.fromhex(salt)):
            r.lines.append(f"commitment {commitment} = SHA-256(salt || seed): ok")
        else:
            r.fail("the seed and salt do not hash to the commitment: the seed is not the one promised")
    else:
        r.lines.append("no commitment: the match was recorded before paiju made them; its deals only are checked")
    if promised is not None and promised.lower() != (commitment or "").lower():
        r.fail(f"the record's commitment {commitment} is not the one promised at the table, {promised}")
    try:
        rules = rules_of(record)
    except (KeyError, TypeError, ValueError) as e:
        r.fail(f"the match's rules cannot be read: {e}")
        return r
    numbers = [int(h["hand"]) for h in record["hands"]]
    if record["status"] == OVER and numbers != list(range(len(numbers))):
        r.fail(f"the hands recorded are {numbers}, not every hand from 0")
    for h in record["hands"]:
        problem = _deal_again(record["game"], seed, rules, h)
        if problem is None:
            r.deals += 1
            r.lines.append(f"hand {h['hand']}: dealt from the seed, {len(h['actions'])} actions replayed: ok")
        else:
            r.fail(f"hand {h['hand']}: {problem}")
    return r


def _deal_again(game: str, seed: int, rules: Any, hand: dict[str, Any]) -> str | None:
    """Why hand ``hand`` is not what the seed deals with its actions (None: it is)."""
    g = games.create(game, seed, rules, hand=int(hand["hand"]))
    for k, (seat, code, cards) in enumerate(hand["actions"]):
        try:
            g.apply(int(seat), GameAction(int(code), bytes.fromhex(cards)))
        except (GameError, ValueError, IndexError) as e:
            return f"action {k} ({seat}, {code}, {cards!r}) is not legal on the deal of the seed: {e}"
    if not g.is_over:
        return "its actions do not finish the hand dealt from the seed"
    out = g.outcome()
    if [bytes(c).hex() for c in out.hands] != list(hand["revealed"]):
        return "the hands recorded are not those the seed dealt and the actions left"
    if list(out.scores) != list(hand["scores"]):
        return f"the scores recorded {list(hand['scores'])} are not the replay's {list(out.scores)}"
    return None
