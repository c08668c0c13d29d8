"""PBN (Portable Bridge Notation 2.1): export and import of deals and of played boards.

A :class:`Board` is one PBN game: board number, dealer, vulnerability, the deal, and, when
known, the auction, the contract and declarer, the result (tricks taken by declarer's side)
and the play. :func:`board_from_game` records a paiju game, :meth:`Board.game` replays a
board into a game, :func:`write_pbn` and :func:`read_pbn` convert boards to and from text,
and :func:`rules_from_pbn` turns a file of deals into rules a room plays them with.

Reading is strict: the first problem raises :class:`PbnError` naming its line (and nothing
is read); :func:`scan_pbn` instead keeps every good board and lists the errors of the bad ones.

>>> text = '''
... [Event "club night"]
... [Board "2"]
... [Dealer "E"]
... [Vulnerable "NS"]
... [Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
... [Declarer "E"]
... [Contract "3NT"]
... [Result "9"]
... [Auction "E"]
... 1NT Pass 3NT Pass
... Pass Pass
... '''
>>> [b] = read_pbn(text)
>>> b.board, b.dealer, b.vulnerable, b.contract, b.declarer, b.result, len(b.auction)
(2, 1, 'NS', '3NT', 1, 9, 6)
>>> read_pbn('[Board "1"]\\n[Deal "N:AKQ.T98.765.432 - - -"]')
Traceback (most recent call last):
...
paiju.games.bridge.pbn.PbnError: line 2: Deal: the hand of E is unknown ('-'): paiju needs complete deals
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from paiju.games.base import GameAction, GameError
from paiju.games.bridge.deal import (
    RANKS,
    SEATS,
    BoardSpec,
    board_dealer,
    board_vulnerability,
    format_deal,
    is_vulnerable,
    parse_deal,
    seat_of,
    vulnerability_name,
)
from paiju.games.bridge.game import Bridge, BridgeRules, trick_winner
from paiju.games.bridge.scoring import Contract, contract_score
from paiju.protocol.bridge import ActCode
from paiju.protocol.cards import BIDS, DOUBLE, PASS, REDOUBLE, format_call, parse_call

# the export format's mandatory tag set, in its order
MTS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
       "Scoring", "Declarer", "Contract", "Result")  # fmt: skip
_READ = frozenset(
    {"Event", "Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play"}
)
_PLACEHOLDERS = frozenset(MTS) - _READ  # written as "" when a board has no value for them
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_CARD = re.compile(r"([SHDC])(10|[2-9TJQKA])", re.I)
_SUIT_OF = {"C": 0, "D": 1, "H": 2, "S": 3}


class PbnError(ValueError):
    """A PBN problem, with the (1-based) line it was found on."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Board:
    """One PBN game. ``hands`` are indexed by seat (0 N, 1 E, 2 S, 3 W), sorted; ``auction``
    holds call bytes (0x00 pass, 0x01 double, 0x02 redouble, else level << 4 | strain);
    ``contract`` is like ``"4HX"``, ``"Pass"`` for a passed-out board, None when not known;
    ``result`` is the number of tricks declarer's side took; ``play`` holds the tricks in the
    order the cards were played (the last one may be incomplete); ``tags`` keeps every other
    tag of the file, in order."""

    board: int
    dealer: int
    vulnerable: str
    hands: tuple[bytes, bytes, bytes, bytes]
    event: str = ""
    auction: tuple[int, ...] = ()
    declarer: int | None = None
    contract: str | None = None
    result: int | None = None
    play: tuple[bytes, ...] = ()
    tags: tuple[tuple[str, str], ...] = field(default=())

    @property
    def score(self) -> int | None:
        """North-South's duplicate score, when the contract and the result are known."""
        if self.contract == "Pass":
            return 0
        if self.contract is None or self.result is None or self.declarer is None:
            return None
        points = contract_score(
            Contract.parse(self.contract), is_vulnerable(self.vulnerable, self.declarer), self.result
        )
        return points if self.declarer % 2 == 0 else -points

    @property
    def spec(self) -> BoardSpec:
        """The board as ``BridgeRules.deals`` takes it."""
        return BoardSpec(self.board, self.dealer, self.vulnerable, self.hands)

    def to_pbn(self) -> str:
        """This board as a PBN game in export format (tags one per line, no blank line)."""
        other = dict(self.tags)
        values = {
            "Event": self.event,
            "Board": str(self.board),
            "Dealer": SEATS[self.dealer],
            "Vulnerable": self.vulnerable,
            "Deal": format_deal(self.hands, self.dealer),
            "Declarer": "" if self.declarer is None else SEATS[self.declarer],
            "Contract": self.contract or "",
            "Result": "" if self.result is None else str(self.result),
        }
        lines = [f'[{name} "{_escape(values.get(name, other.get(name, "")))}"]' for name in MTS]
        if self.auction:
            lines.append(f'[Auction "{SEATS[self.dealer]}"]')
            calls = [_format_call(b) for b in self.auction]
            lines += [" ".join(calls[i : i + 4]) for i in range(0, len(calls), 4)]
        if self.play and self.declarer is not None:
            opening = (self.declarer + 1) % 4
            lines.append(f'[Play "{SEATS[opening]}"]')
            leader = opening
            trump = _trump(self.contract)
            for trick in self.play:
                column = ["-"] * 4
                for i, card in enumerate(trick):
                    column[(leader + i - opening) % 4] = _format_card(card)
                lines.append(" ".join(column))
                if len(trick) == 4:
                    leader = trick_winner(trick, leader, trump)
            if sum(len(t) for t in self.play) < 52:
                lines.append("*")
        lines += [f'[{name} "{_escape(value)}"]' for name, value in self.tags if name not in MTS]
        return "\n".join(lines) + "\n"

    def game(self, rules: BridgeRules | str | None = None) -> Bridge:
        """Replay this board into a bridge game (rules: a ruleset to take the options from).

        The auction and the cards are applied in order; a result beyond the tricks played is
        an accepted claim of the rest when the declaring side was on lead. Without a complete
        auction the play cannot be replayed: the game then waits for the next call."""
        base = Bridge.ruleset(rules)
        g = Bridge(0, replace(base, deals=(str(self.spec),)), hand=0)
        for b in self.auction:
            if g.is_over or g.phase != "auction":
                break
            g.apply(g.turn, _call_action(b))
        for card in b"".join(self.play) if g.phase == "play" else b"":
            g.apply(g.turn, GameAction(ActCode.PLAY, bytes([card])))
        remaining = 13 - len(g.tricks)
        if (
            g.phase == "play"
            and self.result is not None
            and self.result == g.declarer_tricks + remaining
            and ActCode.CLAIM in [o.code for o in g.legal(g.turn).options]
        ):
            g.apply(g.turn, GameAction(ActCode.CLAIM))
            while g.to_act():
                g.apply(g.to_act()[0], GameAction(ActCode.ACCEPT))
        return g


def board_from_game(game: Bridge, event: str = "", tags: Iterable[tuple[str, str]] = ()) -> Board:
    """The PBN record of a bridge game, finished or not."""
    play = list(game.tricks)
    if game.trick:
        play.append(bytes(game.trick))
    contract: str | None = None
    if game.contract is not None:
        contract = str(game.contract)
    elif game.is_over:
        contract = "Pass"
    return Board(
        board=game.board,
        dealer=game.dealer,
        vulnerable=game.vulnerable,
        hands=(game.dealt[0], game.dealt[1], game.dealt[2], game.dealt[3]),
        event=event,
        auction=tuple(game.calls),
        declarer=game.declarer,
        contract=contract,
        result=game.declarer_tricks if game.is_over and game.contract is not None else None,
        play=tuple(play),
        tags=tuple(tags),
    )


def write_pbn(boards: Iterable[Board]) -> str:
    """A PBN file (export format) of ``boards``."""
    return "% PBN 2.1\n% EXPORT\n\n" + "\n".join(b.to_pbn() for b in boards)


def result_pbn(game: Bridge) -> dict[str, Any]:
    """What a room's RESULT adds to a bridge board's outcome: ``{"pbn": the board as a PBN file}``
    (deal, auction, play, result), for any bridge program."""
    return {"pbn": write_pbn([board_from_game(game, event="paiju")])}


def read_pbn(text: str) -> list[Board]:
    """Every board of a PBN file; the first problem raises :class:`PbnError` with its line."""
    boards, errors = scan_pbn(text)
    if errors:
        raise errors[0]
    return boards


def scan_pbn(text: str) -> tuple[list[Board], list[PbnError]]:
    """The good boards of a PBN file and one error for each game that could not be read."""
    boards: list[Board] = []
    errors: list[PbnError] = []
    games, broken = _games(text)
    previous: dict[str, str] = {}
    for g in games:
        try:
            boards.append(_board(g, previous, len(boards)))
        except PbnError as e:
            errors.append(e)
        previous = {t.name: t.value for t in g}
    if broken is not None:
        errors.append(broken)
    return boards, errors


def rules_from_pbn(text: str | Iterable[Board], ruleset: str | BridgeRules | None = None) -> BridgeRules:
    """Rules that play the deals of a PBN file (or of boards), one board per hand, in order.

    Raises PbnError (naming the line) if any game of the file is bad: then nothing is loaded."""
    boards = read_pbn(text) if isinstance(text, str) else list(text)
    if not boards:
        raise PbnError(1, "the file holds no board")
    return Bridge.ruleset(ruleset, deals=tuple(str(b.spec) for b in boards))


# ---------------------------------------------------------------------- reading
@dataclass
class _Tag:
    name: str
    value: str
    line: int
    data: list[tuple[str, int]] = field(default_factory=list)  # the section's tokens and their lines


def _games(text: str) -> tuple[list[list[_Tag]], PbnError | None]:
    """Split a file into games (lists of tags with their section tokens), skipping comments.

    A broken structure (a malformed tag, text outside any tag) ends the reading there: the
    games before that line are returned with the error; the game it was in is dropped."""
    games: list[list[_Tag]] = []
    current: list[_Tag] = []
    in_comment = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw
        if not in_comment and line.startswith("%"):
            continue
        if not in_comment and not line.strip():
            if current:
                games.append(current)
                current = []
            continue
        pos = 0
        while pos < len(line):
            if in_comment:
                end = line.find("}", pos)
                if end < 0:
                    break
                in_comment, pos = False, end + 1
                continue
            ch = line[pos]
            if ch.isspace():
                pos += 1
            elif ch == ";":
                break
            elif ch == "{":
                in_comment, pos = True, pos + 1
            elif ch == "[":
                m = _TAG.match(line, pos)
                if not m:
                    return games, PbnError(n, f'malformed tag {line[pos:].strip()!r} (want [Name "value"])')
                name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
                if any(t.name == name for t in current):  # a repeated tag starts the next game
                    games.append(current)
                    current = []
                current.append(_Tag(name, value, n))
                pos = m.end()
            else:
                end = pos
                while end < len(line) and not line[end].isspace() and line[end] not in "[{;":
                    end += 1
                if not current:
                    return games, PbnError(n, f"{line[pos:end]!r} outside any tag's section")
                current[-1].data.append((line[pos:end], n))
                pos = end
    if in_comment:
        return games, PbnError(len(text.splitlines()), "a { comment is never closed")
    if current:
        games.append(current)
    return games, None


def _board(tags: list[_Tag], previous: dict[str, str], index: int) -> Board:
    by_name: dict[str, _Tag] = {}
    for t in tags:
        if t.value == "#":  # PBN's "same as the previous game"
            if t.name not in previous:
                raise PbnError(t.line, f"{t.name}: '#' but no earlier game has this tag")
            t.value = previous[t.name]
        by_name[t.name] = t
    first = tags[0].line

    def value(name: str) -> tuple[str, int] | None:
        t = by_name.get(name)
        return None if t is None or t.value.strip() in ("", "?") else (t.value.strip(), t.line)

    def fail(name: str, message: str) -> PbnError:
        return PbnError(by_name[name].line, f"{name}: {message}")

    number = index + 1
    if v := value("Board"):
        if not v[0].isdigit() or int(v[0]) < 1:
            raise fail("Board", f"{v[0]!r} is not a board number")
        number = int(v[0])
    dealer = board_dealer(number)
    if v := value("Dealer"):
        try:
            dealer = seat_of(v[0])
        except ValueError as e:
            raise fail("Dealer", str(e)) from None
    vulnerable = board_vulnerability(number)
    if v := value("Vulnerable"):
        try:
            vulnerable = vulnerability_name(v[0])
        except ValueError as e:
            raise fail("Vulnerable", str(e)) from None
    deal = value("Deal")
    if deal is None:
        raise PbnError(first, f"the game starting here (board {number}) has no Deal tag")
    try:
        hands = parse_deal(deal[0])
    except ValueError as e:
        raise fail("Deal", str(e)) from None

    spec = BoardSpec(number, dealer, vulnerable, hands)
    auction: list[int] = []
    declarer: int | None = None
    contract: str | None = None
    if "Auction" in by_name:
        auction, contract, declarer = _auction(by_name["Auction"], spec)
    if v := value("Contract"):
        try:
            tag_contract = "Pass" if v[0].upper() in ("PASS", "P") else str(Contract.parse(v[0]))
        except ValueError as e:
            raise fail("Contract", str(e)) from None
        if contract is not None and tag_contract != contract:
            raise fail("Contract", f"{tag_contract} disagrees with the auction, which ends in {contract}")
        contract = tag_contract
    if v := value("Declarer"):
        try:
            tag_declarer = seat_of(v[0])
        except ValueError as e:
            raise fail("Declarer", str(e)) from None
        if declarer is not None and tag_declarer != declarer:
            raise fail("Declarer", f"{SEATS[tag_declarer]} disagrees with the auction, which gives {SEATS[declarer]}")
        if contract == "Pass":
            raise fail("Declarer", "a passed-out board has no declarer")
        declarer = tag_declarer
    if contract not in (None, "Pass") and declarer is None:
        raise PbnError(by_name["Contract"].line if "Contract" in by_name else first, "a contract needs a declarer")
    play: list[bytes] = []
    if "Play" in by_name:
        play = _play(by_name["Play"], hands, contract, declarer)
    result: int | None = None
    if v := value("Result"):
        if not v[0].isdigit() or int(v[0]) > 13:
            raise fail("Result", f"{v[0]!r} is not a number of tricks 0..13")
        result = int(v[0])
        if contract in (None, "Pass"):
            raise fail("Result", "a result needs a contract")
        if play and declarer is not None:
            taken = _tricks_taken(play, declarer, contract)
            complete = sum(len(t) for t in play) == 52
            if result < taken or (complete and result != taken):
                raise fail("Result", f"{result} tricks, but declarer's side took {taken} in the play")
    kept = tuple(
        (t.name, t.value) for t in tags if t.name not in _READ and not (t.name in _PLACEHOLDERS and t.value == "")
    )
    event = by_name["Event"].value if "Event" in by_name else ""
    return Board(
        number, dealer, vulnerable, hands, event, tuple(auction), declarer, contract, result, tuple(play), kept
    )


def _auction(tag: _Tag, spec: BoardSpec) -> tuple[list[int], str | None, int | None]:
    """The calls of an Auction section, checked by making them on a fresh game."""
    try:
        first = seat_of(tag.value)
    except ValueError as e:
        raise PbnError(tag.line, f"Auction: {e}") from None
    if first != spec.dealer:
        raise PbnError(tag.line, f"Auction: starts with {SEATS[first]} but the dealer is {SEATS[spec.dealer]}")
    g = Bridge(0, BridgeRules(deals=(str(spec),)), hand=0)
    for token, line in tag.data:
        t = token.rstrip("!?")
        if t in ("*", "+"):  # the auction is not (fully) known from here
            break
        if t == "-" or re.fullmatch(r"=\d+=|\$\d+", t):  # no call; note references and NAGs
            continue
        if g.phase != "auction":
            raise PbnError(line, f"Auction: {token!r} after the end of the auction")
        if t.upper() == "AP":
            while g.phase == "auction":
                g.apply(g.turn, GameAction(ActCode.PASS))
            continue
        try:
            b = parse_call(t)
        except ValueError:
            raise PbnError(line, f"Auction: {token!r} is not a call") from None
        try:
            g.apply(g.turn, _call_action(b))
        except GameError as e:
            raise PbnError(line, f"Auction: {SEATS[g.turn]} may not call {format_call(b)}: {e.reason}") from None
    contract: str | None = None
    if g.phase != "auction":
        contract = "Pass" if g.contract is None else str(g.contract)
    return list(g.calls), contract, g.declarer


def _play(tag: _Tag, hands: tuple[bytes, ...], contract: str | None, declarer: int | None) -> list[bytes]:
    """The tricks of a Play section in play order, checked card by card."""
    if contract in (None, "Pass") or declarer is None:
        raise PbnError(tag.line, "Play: a play section needs a contract and a declarer")
    opening = (declarer + 1) % 4
    try:
        if seat_of(tag.value) != opening:
            raise PbnError(tag.line, f"Play: the opening lead is {SEATS[opening]}'s, not {tag.value}'s")
    except ValueError as e:
        raise PbnError(tag.line, f"Play: {e}") from None
    trump = _trump(contract)
    left = [list(h) for h in hands]
    tokens: list[tuple[int | None, int]] = []
    for token, line in tag.data:
        t = token.rstrip("!?")
        if t == "*":
            break
        if re.fullmatch(r"=\d+=|\$\d+", t):
            continue
        if t == "-":
            tokens.append((None, line))
            continue
        m = _CARD.fullmatch(t)
        if not m:
            raise PbnError(line, f"Play: {token!r} is not a card")
        rank = m.group(2).upper()
        tokens.append((_SUIT_OF[m.group(1).upper()] << 4 | RANKS.index("T" if rank == "10" else rank) + 2, line))
    tricks: list[bytes] = []
    leader = opening
    for start in range(0, len(tokens), 4):
        group = tokens[start : start + 4]
        if len(tricks) == 13:
            raise PbnError(group[0][1], "Play: more than 13 tricks")
        if len(group) < 4:
            raise PbnError(group[-1][1], "Play: a trick needs four entries (a card or '-' for each seat)")
        trick: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            card, line = group[(seat - opening) % 4]
            if card is None:
                if any(group[((leader + j) % 4 - opening) % 4][0] is not None for j in range(i, 4)):
                    raise PbnError(line, f"Play: {SEATS[seat]} plays no card but a later seat does")
                break
            if card not in left[seat]:
                raise PbnError(line, f"Play: {_format_card(card)} is not in {SEATS[seat]}'s hand")
            if trick and card >> 4 != trick[0] >> 4 and any(c >> 4 == trick[0] >> 4 for c in left[seat]):
                raise PbnError(line, f"Play: {_format_card(card)} is a revoke ({SEATS[seat]} can follow suit)")
            left[seat].remove(card)
            trick.append(card)
        if not trick:
            break
        tricks.append(bytes(trick))
        if len(trick) < 4:
            if start + 4 < len(tokens):
                raise PbnError(tokens[start + 4][1], "Play: cards after an unfinished trick")
            break
        leader = trick_winner(trick, leader, trump)
    return tricks


def _tricks_taken(play: list[bytes], declarer: int, contract: str | None) -> int:
    trump = _trump(contract)
    leader, taken = (declarer + 1) % 4, 0
    for trick in play:
        if len(trick) < 4:
            break
        leader = trick_winner(trick, leader, trump)
        taken += leader % 2 == declarer % 2
    return taken


# ---------------------------------------------------------------------- small helpers
def _trump(contract: str | None) -> int | None:
    if contract in (None, "Pass"):
        return None
    strain = Contract.parse(contract).strain
    return None if strain == 4 else strain


def _call_action(b: int) -> GameAction:
    if b == PASS:
        return GameAction(ActCode.PASS)
    if b == DOUBLE:
        return GameAction(ActCode.DOUBLE)
    if b == REDOUBLE:
        return GameAction(ActCode.REDOUBLE)
    if b not in BIDS:
        raise ValueError(f"0x{b:02x} is not a call")
    return GameAction(ActCode.BID, bytes([b]))


def _format_call(b: int) -> str:
    return "Pass" if b == PASS else format_call(b)


def _format_card(card: int) -> str:
    return "CDHS"[card >> 4] + RANKS[(card & 0xF) - 2]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
