"""PBN export and import: round trips of random boards, a hand-written file, malformed input."""

from __future__ import annotations

import random

import pytest

from paiju.games.bridge import Bridge, score
from paiju.games.bridge.pbn import Board, PbnError, board_from_game, read_pbn, rules_from_pbn, scan_pbn, write_pbn
from paiju.games.testing import random_action
from paiju.protocol.cards import parse_call, parse_card

N, E, S, W = range(4)


def random_board(seed: int) -> Bridge:
    """A random game, stopped at a random point one time in four (boards in progress export too)."""
    rng = random.Random(seed)
    g = Bridge(seed, "standard" if seed % 3 else "no-claims", hand=seed % 20)
    stop = rng.randrange(90) if seed % 4 == 0 else 10_000
    while g.to_act() and (len(g.log) < stop or g.phase == "claim"):  # PBN has no pending claims
        seat = rng.choice(g.to_act())
        g.apply(seat, random_action(g, seat, rng))
    return g


def test_round_trip_of_random_boards() -> None:
    games = [random_board(seed) for seed in range(60)]  # every kind below is among them
    boards = [board_from_game(g, event=f"paiju {i}", tags=[("Site", "here")]) for i, g in enumerate(games)]
    text = write_pbn(boards)
    back = read_pbn(text)
    assert back == boards
    kinds = set()
    for g, b in zip(games, back, strict=True):
        again = b.game()
        assert again.dealt == g.dealt and again.calls == g.calls and again.tricks == g.tricks
        assert again.view(None) == g.view(None) and again.is_over == g.is_over
        if g.is_over:
            assert again.outcome() == g.outcome()
        kinds.add((g.is_over, b.contract == "Pass", g.claimed > 0, len(g.tricks) == 13))
    # passed out, played out, claimed, and unfinished boards were all in the sample
    assert {(True, True, False, False), (True, False, False, True), (True, False, True, False)} <= kinds
    assert any(not over for over, *_ in kinds)


def test_export_looks_like_pbn() -> None:
    g = Bridge(4, hand=0)
    for text in ("1S", "P", "4S", "P", "P", "P"):
        g.call(g.turn, text)
    while not g.is_over:
        g.apply(g.turn, g.default_action(g.turn))
    text = write_pbn([board_from_game(g, event="demo")])
    lines = text.splitlines()
    assert lines[:2] == ["% PBN 2.1", "% EXPORT"]
    tags = [line.split()[0][1:] for line in lines if line.startswith("[")]
    assert tags == [
        *("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal"),
        *("Scoring", "Declarer", "Contract", "Result", "Auction", "Play"),
    ]
    assert '[Contract "4S"]' in lines and '[Declarer "N"]' in lines and '[Play "E"]' in lines
    assert "1S Pass 4S Pass" in lines
    play = lines[lines.index('[Play "E"]') + 1 :]
    assert len(play) == 13 and all(len(line.split()) == 4 for line in play)


HAND_WRITTEN = r"""% PBN 2.1
% a file typed by hand: comments, blank lines, inherited values, notes, AP, '*'

[Event "Tuesday pairs"]
[Site "the club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Auction "N"]
1S Pass 2S Pass
4S Pass Pass Pass
[Play "E"]
CA C8 C5 C2 ; East cashes three clubs
CK C9 C6 C3
CQ CT C7 C4
CJ S5 D8 H8 { South ruffs
  the fourth club }
*

[Event "#"]
[Board "2"]
[Dealer "E"]
[Vulnerable "Both"]
[Deal "W:432.AKQJ.T98.765 AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98"]
[Declarer "S"]
[Contract "1NTXX"]
[Result "7"]
[Auction "E"]
Pass 1NT =1= X XX
AP
[Note "1:15-17"]

[Event "#"]
[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[Contract "Pass"]
[Auction "S"]
AP

[Event "#"]
[Board "4"]
[Dealer "W"]
[Vulnerable "All"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[Declarer "N"]
[Contract "7S"]
[Result "13"]
[Play "E"]
HA DA CA S2
HK DK CK SA
HQ DQ CQ SK
HJ DJ CJ SQ
HT DT CT SJ
H9 D9 C9 ST
H8 D8 C8 S9
H7 D7 C7 S8
H6 D6 C6 S7
H5 D5 C5 S6
H4 D4 C4 S5
H3 D3 C3 S4
H2 D2 C2 S3
"""


def test_reading_a_hand_written_file() -> None:
    b1, b2, b3, b4 = read_pbn(HAND_WRITTEN)
    assert (b1.event, b1.board, b1.dealer, b1.vulnerable, b1.contract, b1.declarer, b1.result) == (
        "Tuesday pairs",
        1,
        N,
        "None",
        "4S",
        N,
        10,
    )
    assert b1.tags == (("Site", "the club"),)
    assert len(b1.auction) == 8 and b1.auction[0] == parse_call("1S")
    # the play comes back in the order the cards were played: the fourth trick East, South, West, North
    assert len(b1.play) == 4 and b1.play[3] == parse_card("CJ") + parse_card("S5") + parse_card("D8") + parse_card("H8")
    assert (b2.event, b2.vulnerable, b2.contract, b2.declarer, b2.result) == ("Tuesday pairs", "All", "1NTXX", S, 7)
    assert b2.hands == b1.hands and len(b2.auction) == 7 and b2.tags == (("Note", "1:15-17"),)
    assert (b3.contract, b3.declarer, b3.auction, b3.score) == ("Pass", None, (0, 0, 0, 0), 0)
    assert b4.score == 2210 and b1.score == 420
    assert b4.hands[N] == bytes(range(0x32, 0x3F)) and b4.auction == () and len(b4.play) == 13
    assert b4.play[1] == parse_card("SA") + parse_card("HK") + parse_card("DK") + parse_card("CK")  # North leads

    g1 = b1.game()  # the record stops at South's lead with a result of 10: South claimed the rest
    assert g1.is_over and g1.won == [10, 3] and g1.claimed == 9 and g1.outcome().scores[N] == 420
    assert b2.score == score("1NTXX", True, 7) == 760  # North-South's score
    g2 = b2.game()  # no play recorded: the game stops at the opening lead
    assert g2.phase == "play" and g2.turn == W and str(g2.contract) == "1NTXX" and g2.declarer == S
    assert b3.game().is_over and b3.game().outcome().scores == (0, 0, 0, 0)
    g4 = b4.game()  # no auction recorded: the engine cannot replay the play, the game waits for calls
    assert g4.phase == "auction" and g4.calls == [] and g4.dealt == b4.hands


def test_a_file_of_deals_loads_into_a_room() -> None:
    rules = rules_from_pbn(HAND_WRITTEN)
    assert len(rules.deals) == 4
    for hand, board in enumerate(read_pbn(HAND_WRITTEN)):
        g = Bridge(99, rules, hand=hand)
        assert (g.board, g.dealer, g.vulnerable, g.dealt) == (board.board, board.dealer, board.vulnerable, board.hands)
        again = Bridge(99, rules, hand=hand)
        assert again.dealt == g.dealt
    assert Bridge(1, rules, hand=5).board == 2  # the boards repeat


DEAL_TAG = '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]'
HEAD = f'[Board "1"]\n[Dealer "N"]\n{DEAL_TAG}\n'  # three lines
PLAYED = f'{HEAD}[Declarer "N"]\n[Contract "4S"]\n'  # five lines; East leads


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (HEAD.replace('"]\n', '"\n', 3).replace('[Board "1"\n', '[Board "1"]\n'), 2, "malformed tag"),
        (HEAD.replace("432.AKQJ.T98.765", "432.AKQJ.T98.76").replace('[Deal "', '; a comment\n[Deal "'), 4, "12 cards"),
        (HEAD.replace('"1"', '"x"'), 1, "board number"),
        ('[Board "1"]\n[Vulnerable "Red"]\n', 2, "vulnerability"),
        (f'{HEAD}[Auction "N"]\n1S Pass\n1H', 6, "insufficient"),
        (f'{HEAD}[Auction "N"]\n1S X X', 5, "may not call X"),
        (f'{HEAD}[Auction "N"]\n1S Pass 1Z', 5, "not a call"),
        (f'{HEAD}[Auction "S"]\n1S', 4, "the dealer is N"),
        (f'{PLAYED}[Play "E"]\nCA C8 C5 C2\nCK S5 C6 C3', 8, "revoke"),
        (f'{PLAYED}[Play "E"]\nCA C8 SA C2\n', 7, "not in W's hand"),
        (f'{PLAYED}[Play "W"]\n', 6, "opening lead"),
        (f'{PLAYED}[Result "14"]\n', 6, "0..13"),
        (f'{HEAD}[Contract "3NT"]\n[Auction "N"]\n1S AP', 4, "disagrees"),
        (f'{HEAD}[Contract "Pass"]\n[Result "9"]', 5, "needs a contract"),
        ('[Board "1"]\n[Dealer "N"]\n', 1, "no Deal"),
        ('1S\n[Board "1"]\n', 1, "outside"),
        ('[Board "1"]\n{ never closed\n', 2, "never closed"),
        (f'[Event "#"]\n{DEAL_TAG}', 1, "'#'"),
    ],
)
def test_malformed_pbn_names_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(PbnError) as e:
        read_pbn(text)
    assert e.value.line == line, e.value
    assert words in str(e.value) and str(e.value).startswith(f"line {line}: ")


def test_a_bad_game_loses_nothing_else() -> None:
    bad = HAND_WRITTEN.replace("CK C9 C6 C3", "CK C9 S4 C3")  # West revokes in board 1
    boards, errors = scan_pbn(bad)
    assert [b.board for b in boards] == [2, 3, 4] and len(errors) == 1
    assert errors[0].line == HAND_WRITTEN.splitlines().index("CK C9 C6 C3") + 1 and "revoke" in errors[0].message
    with pytest.raises(PbnError) as e:
        rules_from_pbn(bad)  # a room loads all of a file or nothing
    assert e.value.line == errors[0].line
    broken = HAND_WRITTEN + '\n[Board "5"\n'
    boards, errors = scan_pbn(broken)
    assert len(boards) == 4 and errors[0].line == len(broken.splitlines())


def test_board_fields_are_plain() -> None:
    b = read_pbn(HAND_WRITTEN)[0]
    assert isinstance(b, Board) and all(isinstance(h, bytes) and len(h) == 13 for h in b.hands)
    assert str(b.spec).startswith("1 N None N:AKQJ.T98.765.432 ")
