"""Contract bridge as a paiju game: one board (deal, auction, play, duplicate score).

Seats 0 N, 1 E, 2 S, 3 W; partners are ``s`` and ``s + 2``. Hand ``h`` of a match is board
``h + 1`` (dealer and vulnerability by the standard rotation) unless the rules carry deals
(``BridgeRules.deals``, e.g. loaded from PBN): then hand ``h`` plays ``deals[h % len(deals)]``
with that board's number, dealer and vulnerability. The ``dealer`` argument of the
constructor overrides the dealer only; the vulnerability stays the board's.

During the play :meth:`Bridge.to_act` names the dummy's seat when a card must come from
dummy, and :meth:`Bridge.controller` of that seat is the declarer: a room sends that
prompt to the declarer's player, who answers it as the dummy's seat.

>>> from paiju.protocol.bridge import ActCode
>>> g = Bridge(7, hand=2)  # board 3: South deals, East-West vulnerable
>>> g.board, g.dealer, g.vulnerable
(3, 2, 'EW')
>>> for call in ("1NT", "P", "3NT", "P", "P", "P"):
...     _ = g.call(g.to_act()[0], call)
>>> g.contract, g.declarer, g.to_act()  # South declares 3NT, West leads
(Contract(level=3, strain=4, doubled=0), 2, (3,))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from paiju.games.base import ActionSet, Game, GameAction, GameError, GameEvent, HandNotOver, Outcome, Rules
from paiju.games.bridge.deal import SEATS, BoardSpec, board_dealer, board_vulnerability, is_vulnerable
from paiju.games.bridge.explain import Reading
from paiju.games.bridge.scoring import Contract, contract_score
from paiju.games.registry import register
from paiju.protocol import ErrorCode, RoomEvent, echo
from paiju.protocol.bridge import VULNERABILITY, ActCode, Detail, Error, EventCode, Phase, View
from paiju.protocol.cards import BIDS, BRIDGE_CARDS, DOUBLE, PASS, REDOUBLE, format_call, format_card, parse_call
from paiju.protocol.frames import Option

AUCTION: Final = "auction"
PLAY: Final = "play"
CLAIM: Final = "claim"
OVER: Final = "over"
_PASS_OPTION = Option.exactly(ActCode.PASS)
_DOUBLE_OPTION = Option.exactly(ActCode.DOUBLE)
_REDOUBLE_OPTION = Option.exactly(ActCode.REDOUBLE)
_CLAIM_OPTION = Option.exactly(ActCode.CLAIM)
_ANSWERS = ActionSet.of([Option.exactly(ActCode.ACCEPT), Option.exactly(ActCode.REJECT)])
_ALL_BIDS = sorted(BIDS)  # byte order is bid order: 1C < 1D < ... < 1NT < 2C ...
_CALL_ACTS = {PASS: ActCode.PASS, DOUBLE: ActCode.DOUBLE, REDOUBLE: ActCode.REDOUBLE}


@dataclass(frozen=True)
class BridgeRules(Rules):
    """``claims``: declarer may claim the remaining tricks when on lead (defenders accept or
    reject). ``deals``: boards to play instead of random deals, each a
    :class:`~paiju.games.bridge.deal.BoardSpec` text (``"5 N NS N:AKQ..."``) or a bare PBN deal
    (``"N:AKQ..."``); hand ``h`` plays ``deals[h % len(deals)]``."""

    claims: bool = True
    deals: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.deals, (str, list)):
            raise ValueError("deals must be a tuple of board texts")
        for i, text in enumerate(self.deals):
            try:
                BoardSpec.parse(text)
            except ValueError as e:
                raise ValueError(f"deals[{i}]: {e}") from None

    def board_spec(self, hand: int) -> BoardSpec | None:
        """The board that hand ``hand`` plays, when the rules carry deals."""
        if not self.deals:
            return None
        return BoardSpec.parse(self.deals[hand % len(self.deals)], default_board=hand + 1)


def trick_winner(cards: list[int] | bytes, leader: int, trump: int | None) -> int:
    """The seat that wins a complete trick (``cards`` in play order from ``leader``).

    >>> trick_winner(bytes([0x2C, 0x2E, 0x02, 0x2D]), 3, trump=0)  # W leads HQ, S ruffs with C2
    1
    """
    best = 0  # the winning card so far is always of the suit led or a trump
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if (c >> 4 == b >> 4 and c > b) or (c >> 4 == trump and b >> 4 != trump):
            best = i
    return (leader + best) % 4


@register
class Bridge(Game[BridgeRules]):
    """One board of contract bridge (see the module's docstring and docs/rules/bridge.md)."""

    name = "bridge"
    VIEW = View
    DETAIL = Detail
    TITLE = "Bridge"
    RULESET_NOTES = {
        "standard": "duplicate scoring; declarer may claim the remaining tricks",
        "no-claims": "duplicate scoring; every card is played (no claims)",
    }
    RULESETS = {"standard": BridgeRules("standard"), "no-claims": BridgeRules("no-claims", claims=False)}

    @property
    def num_seats(self) -> int:
        return 4

    def default_dealer(self, hand: int) -> int:
        spec = self.rules.board_spec(hand)
        return spec.dealer if spec else board_dealer(hand + 1)

    def _setup(self) -> list[GameEvent]:
        spec = self.rules.board_spec(self.hand)
        if spec is not None:
            self.board, self.vulnerable = spec.board, spec.vulnerable
            dealt = list(spec.hands)
        else:
            self.board = self.hand + 1
            self.vulnerable = board_vulnerability(self.board)
            deck = sorted(BRIDGE_CARDS)
            self.rng.shuffle(deck)
            dealt = [bytes(sorted(deck[13 * s : 13 * s + 13])) for s in range(4)]
        self.dealt: tuple[bytes, ...] = tuple(dealt)
        self.hands: list[list[int]] = [list(h) for h in dealt]
        self.phase: Phase = AUCTION
        self.calls: list[int] = []
        self.reading = Reading.start(self.dealer)  # every call read by the bidding system, and explained
        self.last_bid: int | None = None
        self.last_bid_by = -1
        self.doubled = 0  # of the last bid: 0, 1 doubled, 2 redoubled
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.dummy: int | None = None
        self.trump: int | None = None
        self.leader = -1
        self.trick: list[int] = []
        self.tricks: list[bytes] = []
        self.leaders: list[int] = []
        self.winners: list[int] = []
        self.won = [0, 0]  # tricks by side: North-South, East-West
        self.exposed = False  # dummy is face up (after the opening lead)
        self.pending: list[int] = []  # defenders yet to answer a claim
        self.claimed = 0  # tricks conceded to declarer by an accepted claim
        self.claim_refused_at = -1  # the trick at which a claim was rejected (no second claim then)
        self.score_ns: int | None = None
        events = [
            GameEvent(RoomEvent.HAND_START, self.dealer, arg=self.hand),
            # a PBN room's board number and vulnerability are not the rotation's of the hand
            GameEvent(EventCode.BOARD, self.dealer, arg=self.board << 2 | VULNERABILITY.index(self.vulnerable)),
        ]
        for s in range(4):
            events.append(GameEvent(RoomEvent.DEAL, s, dealt[s], visible_to=frozenset({s})))
        return events

    # ------------------------------------------------------------------ state queries
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def turn(self) -> int:
        """The seat whose call or card comes next (dummy's seat for dummy's cards); -1 when over."""
        if self.phase == AUCTION:
            return (self.dealer + len(self.calls)) % 4
        if self.phase == PLAY:
            return (self.leader + len(self.trick)) % 4
        return -1

    def to_act(self) -> tuple[int, ...]:
        if self.phase == CLAIM:
            return tuple(self.pending)
        t = self.turn
        return () if t < 0 else (t,)

    def controller(self, seat: int) -> int:
        """The declarer decides for dummy once the auction is over."""
        return self.declarer if self.dummy is not None and seat == self.dummy and self.declarer is not None else seat

    def playable(self, seat: int) -> list[int]:
        """The cards ``seat`` may play to the current trick (following suit when it can)."""
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0] >> 4
            follow = [c for c in hand if c >> 4 == led]
            if follow:
                return follow
        return hand

    def legal(self, seat: int) -> ActionSet:
        if self.phase == AUCTION:
            if seat != self.turn:
                return ActionSet.empty()
            opts = []
            if self.last_bid is None:
                opts.append(Option(ActCode.BID, bytes(_ALL_BIDS), 1))
            elif self.last_bid < 0x74:
                opts.append(Option(ActCode.BID, bytes(b for b in _ALL_BIDS if b > self.last_bid), 1))
            opts.append(_PASS_OPTION)
            if self.last_bid is not None:
                opponents = (self.last_bid_by - seat) % 2 == 1
                if self.doubled == 0 and opponents:
                    opts.append(_DOUBLE_OPTION)
                elif self.doubled == 1 and not opponents:
                    opts.append(_REDOUBLE_OPTION)
            return ActionSet.of(opts)
        if self.phase == PLAY:
            if seat != self.turn:
                return ActionSet.empty()
            opts = [Option(ActCode.PLAY, bytes(self.playable(seat)), 1)]
            if self._may_claim():
                opts.append(_CLAIM_OPTION)
            return ActionSet.of(opts)
        if self.phase == CLAIM and seat in self.pending:
            return _ANSWERS
        return ActionSet.empty()

    def _may_claim(self) -> bool:
        return (
            self.rules.claims
            and not self.trick
            and self.leader in (self.declarer, self.dummy)
            and self.claim_refused_at != len(self.tricks)
        )

    # ------------------------------------------------------------------ actions
    def call(self, seat: int, text: str) -> list[GameEvent]:
        """Convenience: make the call written ``text`` (``"1NT"``, ``"P"``, ``"X"``, ``"XX"``) for ``seat``."""
        b = parse_call(text)
        if b in _CALL_ACTS:
            return self.apply(seat, GameAction(_CALL_ACTS[b]))
        return self.apply(seat, GameAction(ActCode.BID, bytes([b])))

    def apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        # Declarer and dummy are one player: a card sent for the wrong one of the two hands is
        # "playing from the wrong hand", a sharper refusal than "not your turn".
        if (
            self.phase == PLAY
            and action.code == ActCode.PLAY
            and self.declarer is not None
            and seat in (self.declarer, self.dummy)
            and self.turn in (self.declarer, self.dummy)
            and seat != self.turn
        ):
            whose = "dummy" if self.turn == self.dummy else "declarer"
            raise GameError(
                Error.WRONG_HAND,
                f"the card must come from {whose}'s hand: play it as seat {self.turn} ({SEATS[self.turn]})",
            )
        return super().apply(seat, action)

    def _apply(self, seat: int, action: GameAction) -> list[GameEvent]:
        code = action.code
        if code == ActCode.BID:
            return self._call(seat, action.cards[0])
        if code in (ActCode.PASS, ActCode.DOUBLE, ActCode.REDOUBLE):
            return self._call(
                seat, {ActCode.PASS: PASS, ActCode.DOUBLE: DOUBLE, ActCode.REDOUBLE: REDOUBLE}[ActCode(code)]
            )
        if code == ActCode.PLAY:
            return self._play(seat, action.cards[0])
        if code == ActCode.CLAIM:
            assert self.declarer is not None
            self.phase = CLAIM
            self.pending = [(self.declarer + 1) % 4, (self.declarer + 3) % 4]
            return [GameEvent(echo(ActCode.CLAIM), self.declarer, arg=13 - len(self.tricks))]
        if code == ActCode.ACCEPT:
            self.pending.remove(seat)
            events = [GameEvent(echo(ActCode.ACCEPT), seat)]
            if not self.pending:
                assert self.declarer is not None
                self.claimed = 13 - len(self.tricks)
                self.won[self.declarer % 2] += self.claimed
                events += self._finish()
            return events
        # REJECT
        self.pending = []
        self.phase = PLAY
        self.claim_refused_at = len(self.tricks)
        return [GameEvent(echo(ActCode.REJECT), seat)]

    def _call(self, seat: int, b: int) -> list[GameEvent]:
        self.calls.append(b)
        self.reading = self.reading.add(b)
        # the call's meaning in the system (paiju/games/bridge/tables) rides on its echo, to everyone
        events = [GameEvent(echo(_CALL_ACTS.get(b, ActCode.BID)), seat, arg=b, text=self.reading.explained[-1])]
        if b == DOUBLE:
            self.doubled = 1
        elif b == REDOUBLE:
            self.doubled = 2
        elif b != PASS:
            self.last_bid, self.last_bid_by, self.doubled = b, seat, 0
        if len(self.calls) >= 4 and self.calls[-1] == self.calls[-2] == self.calls[-3] == PASS:
            if self.last_bid is None:
                events.append(GameEvent(EventCode.PASSED_OUT))
                events += self._finish()
            else:
                events.append(self._settle_contract())
        return events

    def _settle_contract(self) -> GameEvent:
        assert self.last_bid is not None
        strain = self.last_bid & 0xF
        side = self.last_bid_by % 2
        for i, b in enumerate(self.calls):
            s = (self.dealer + i) % 4
            if s % 2 == side and b in BIDS and b & 0xF == strain:
                self.declarer = s
                break
        assert self.declarer is not None
        self.contract = Contract(self.last_bid >> 4, strain, self.doubled)
        self.dummy = (self.declarer + 2) % 4
        self.trump = None if strain == 4 else strain
        self.leader = (self.declarer + 1) % 4
        self.phase = PLAY
        return GameEvent(EventCode.CONTRACT, self.declarer, arg=self.last_bid | self.doubled << 8)

    def _play(self, seat: int, card: int) -> list[GameEvent]:
        self.hands[seat].remove(card)
        self.trick.append(card)
        events = [GameEvent(echo(ActCode.PLAY), seat, bytes([card]))]
        if not self.exposed:
            assert self.dummy is not None
            self.exposed = True
            events.append(GameEvent(EventCode.DUMMY, self.dummy, bytes(self.hands[self.dummy])))
        if len(self.trick) == 4:
            winner = trick_winner(self.trick, self.leader, self.trump)
            self.won[winner % 2] += 1
            self.tricks.append(bytes(self.trick))
            self.leaders.append(self.leader)
            self.winners.append(winner)
            self.trick = []
            self.leader = winner
            events.append(GameEvent(EventCode.TRICK, winner, arg=self.declarer_tricks))
            if len(self.tricks) == 13:
                events += self._finish()
        return events

    def _finish(self) -> list[GameEvent]:
        self.phase = OVER
        self.pending = []
        if self.contract is not None and self.declarer is not None:
            s = contract_score(self.contract, is_vulnerable(self.vulnerable, self.declarer), self.declarer_tricks)
            self.score_ns = s if self.declarer % 2 == 0 else -s
        else:
            self.score_ns = 0
        return [GameEvent(EventCode.REVEAL, s, bytes(self.hands[s])) for s in range(4) if self.hands[s]]

    @property
    def declarer_tricks(self) -> int:
        """Tricks won by the declaring side so far (0 before there is a declarer)."""
        return 0 if self.declarer is None else self.won[self.declarer % 2]

    def default_action(self, seat: int) -> GameAction:
        """On a timeout: pass in the auction, the lowest legal card (by rank, then suit C D H S)
        in the play, and reject a claim (the play goes on)."""
        if self.phase == AUCTION:
            return GameAction(ActCode.PASS)
        if self.phase == CLAIM:
            return GameAction(ActCode.REJECT)
        return GameAction(ActCode.PLAY, bytes([min(self.playable(seat), key=lambda c: (c & 0xF, c >> 4))]))

    def refusal(self, seat: int, action: GameAction) -> GameError:
        code, cards = action.code, action.cards
        if self.phase == AUCTION and code in (ActCode.PLAY, ActCode.CLAIM, ActCode.ACCEPT, ActCode.REJECT):
            return GameError(ErrorCode.ILLEGAL_ACTION, "the auction is not over")
        if code in (ActCode.BID, ActCode.PASS, ActCode.DOUBLE, ActCode.REDOUBLE) and self.phase != AUCTION:
            return GameError(Error.AUCTION_OVER, "the auction is over")
        if code == ActCode.BID and len(cards) == 1 and cards[0] in BIDS and self.last_bid is not None:
            return GameError(
                Error.INSUFFICIENT_BID,
                f"{format_call(cards[0])} is insufficient: the last bid is {format_call(self.last_bid)}",
            )
        if code == ActCode.DOUBLE and not cards:
            if self.last_bid is None:
                why = "there is no bid to double"
            elif self.doubled:
                why = "the last bid is already doubled"
            else:
                why = "a side may not double its own bid"
            return GameError(Error.DOUBLE_NOT_ALLOWED, why)
        if code == ActCode.REDOUBLE and not cards:
            if self.doubled != 1:
                why = "only a double can be redoubled"
            else:
                why = "only the side whose bid was doubled may redouble"
            return GameError(Error.REDOUBLE_NOT_ALLOWED, why)
        if code == ActCode.PLAY and self.phase == PLAY and len(cards) == 1:
            card = cards[0]
            if card not in self.hands[seat]:
                if card in BRIDGE_CARDS:
                    return GameError(Error.WRONG_HAND, f"{format_card(card)} is not in {SEATS[seat]}'s hand")
            else:
                led = format_card(self.trick[0])[0]
                return GameError(Error.REVOKE, f"{format_card(card)} revokes: {SEATS[seat]} must follow {led}")
        if code == ActCode.CLAIM and not cards:
            why = "claims are off in these rules" if not self.rules.claims else "declarer claims when on lead"
            if self.claim_refused_at == len(self.tricks) and not self.trick:
                why = "a claim was rejected at this trick"
            return GameError(Error.NO_CLAIM, why)
        if code in (ActCode.ACCEPT, ActCode.REJECT) and not cards and self.phase != CLAIM:
            return GameError(Error.NO_CLAIM, "there is no claim to answer")
        return super().refusal(seat, action)

    def __deepcopy__(self, memo: dict[int, Any]) -> Bridge:
        # Events, actions, rules, contracts and bytes are immutable: copying the containers is
        # a complete deep copy, and far cheaper than copy.deepcopy's walk (the random generator's
        # 625-word state above all).
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.hands = [list(h) for h in self.hands]
        for name in ("log", "events", "calls", "trick", "tricks", "leaders", "winners", "won", "pending"):
            setattr(new, name, list(getattr(self, name)))
        memo[id(self)] = new
        return new

    # ------------------------------------------------------------------ what seats see
    def _visible_hand(self, s: int, seat: int | None) -> bytes:
        if self.phase == OVER or s == seat or (self.exposed and s == self.dummy):
            return bytes(self.hands[s])
        return b""

    def view(self, seat: int | None) -> View:
        return {
            "board": self.board,
            "dealer": self.dealer,
            "vulnerable": self.vulnerable,
            "phase": self.phase,
            "auction": list(self.calls),
            "explained": list(self.reading.explained),
            "contract": None if self.contract is None else self.contract.call,
            "doubled": 0 if self.contract is None else self.contract.doubled,
            "declarer": self.declarer,
            "dummy": self.dummy,
            "hands": [self._visible_hand(s, seat) for s in range(4)],
            "counts": [len(h) for h in self.hands],
            "leader": None if self.leader < 0 else self.leader,
            "played": b"".join(self.tricks) + bytes(self.trick),
            "leaders": list(self.leaders),
            "winners": list(self.winners),
            "won": list(self.won),
            "claim": 13 - len(self.tricks) if self.phase == CLAIM else 0,
            "to_act": list(self.to_act()),
            "score": self.score_ns,
        }

    def concealed(self, seat: int) -> bytes:
        return bytes(self.hands[seat])

    def public(self) -> bytes:
        out = bytearray(b"".join(self.tricks))
        out += bytes(self.trick)
        for s in range(4):
            if self.phase == OVER or (self.exposed and s == self.dummy):
                out += bytes(self.hands[s])
        return bytes(out)

    def outcome(self) -> Outcome:
        """North-South score the declaring side's duplicate score (or minus it), East-West the opposite.
        The board as a PBN file is :func:`paiju.games.bridge.pbn.result_pbn` (pbn.py reads the game)."""
        if not self.is_over:
            raise HandNotOver("the board is not over")

        ns = self.score_ns or 0
        return Outcome(
            (ns, -ns, ns, -ns),
            self.dealt,
            dict(
                Detail(
                    board=self.board,
                    vulnerable=self.vulnerable,
                    contract="Pass" if self.contract is None else str(self.contract),
                    declarer=self.declarer,
                    tricks=self.declarer_tricks,
                    claimed=self.claimed,
                    score=ns,
                )
            ),
        )
