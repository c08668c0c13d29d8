"""`paiju arena bridge`: duplicate IMPs, par, double-dummy figures, latency, PBN that endplay reads."""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from paiju.bots.bridge import arena
from paiju.games.bridge import Bridge, BridgeRules, imps

ROOT = Path(__file__).resolve().parents[2]


BOARDS = 2


@pytest.fixture(scope="module")
def report() -> arena.BridgeReport:
    """A short duplicate match, basic against random (each board's double-dummy table costs
    seconds on a loaded machine: the two tests of its figures share one match)."""
    return arena.play(["basic", "random", "basic", "random"], boards=BOARDS, seed=4, keep_games=True)


def test_duplicate_scoring_par_and_double_dummy(report: arena.BridgeReport) -> None:
    assert report.boards == BOARDS and len(report.games) == 2 * BOARDS
    basic, rnd = report.robots["basic"], report.robots["random"]
    # the board's IMPs: the pair of seats[0] against the pair of seats[1], opposite signs
    assert len(basic.imps) == BOARDS and basic.imps == [-x for x in rnd.imps]
    for i in range(BOARDS):
        open_room, closed = report.games[2 * i], report.games[2 * i + 1]
        assert open_room.dealt == closed.dealt  # the same deal at both tables
        assert basic.imps[i] == imps((open_room.score_ns or 0) - (closed.score_ns or 0))
    # par: one figure per table for each pair, the two pairs opposite
    assert len(basic.par) == 2 * BOARDS and basic.par == [-x for x in rnd.par]
    # declarer play against double dummy: one figure per table the pair declared
    expected = []
    for i, g in enumerate(report.games):
        seating = report.seats if i % 2 == 0 else [report.seats[(s + 3) % 4] for s in range(4)]
        _, dd = arena.dd_figures(g)
        if g.declarer is not None and dd is not None and seating[g.declarer] == "basic":
            expected.append(g.declarer_tricks - dd)
    assert basic.declarer.diffs == expected
    assert len(basic.declarer.diffs) + len(basic.defence.diffs) == sum(g.declarer is not None for g in report.games)
    n_bid, p50, p99 = basic.latency("bid")
    assert n_bid > 0 and 0 <= p50 <= p99
    assert basic.illegal == 0 and rnd.illegal == 0
    assert "IMP/board" in arena.format_report(report)


def test_dd_losses_split_the_difference_from_double_dummy(report: arena.BridgeReport) -> None:
    # declarer's tricks - DD tricks = what the defence gave away - what declarer gave away
    seen = 0
    for g in report.games:
        if g.declarer is None:
            continue
        _, dd = arena.dd_figures(g)
        assert dd is not None
        lost_by_declarer, lost_by_defence = arena.dd_losses(g)
        assert lost_by_declarer >= 0 and lost_by_defence >= 0
        assert g.declarer_tricks - dd == lost_by_defence - lost_by_declarer
        seen += lost_by_declarer + lost_by_defence
        # the breakdown places every lost trick once, by trick and by kind of card
        b = arena.dd_loss_breakdown(g)
        assert (b.declarer, b.defence) == (lost_by_declarer, lost_by_defence)
        assert sum(b.declarer_by_trick) == sum(b.declarer_by_kind.values()) == lost_by_declarer
        assert sum(b.defence_by_trick) == sum(b.defence_by_kind.values()) == lost_by_defence
        assert set(b.defence_by_kind) <= {"opening lead", "lead", "follow"}
    assert seen > 0  # random's cards do give tricks away
    rnd = report.robots["random"]
    assert len(rnd.declarer_loss.diffs) == len(rnd.declarer.diffs)
    assert sum(rnd.declarer_loss_by_trick) == sum(rnd.declarer_loss.diffs)
    # the par figure's interval is over boards, each the mean of the board's two tables
    assert len(rnd.par_boards) == BOARDS and rnd.par_ci is not None
    assert statistics.fmean(rnd.par_boards) == pytest.approx(rnd.par_imps)


def test_par_of_a_known_deal() -> None:
    # North-South hold 13 top tricks in notrump: par is 7NT by North-South
    deal = "N:AKQJ.AKQ.AKQ.AKQ T98.T98.T987.T98 5432.J32.J32.J32 76.7654.654.7654"
    g = Bridge(0, BridgeRules("x", deals=("1 N None " + deal,)))
    for call in ("3NT", "P", "P", "P"):
        g.call(g.to_act()[0], call)
    par_ns, dd = arena.dd_figures(g)
    assert par_ns == 1520 and dd == 13  # 7NT, not vulnerable
    g2 = Bridge(0, BridgeRules("x", deals=("1 E None " + deal,)))  # East deals; par is still North-South's
    assert arena.dd_table(g2.dealt, "None", 1)[0] == 1520


def test_pbn_output_reads_back_with_endplay(tmp_path: Path) -> None:
    from endplay.parsers import pbn

    out = tmp_path / "tables.pbn"
    proc = subprocess.run(
        [sys.executable, "-m", "paiju", "arena", "bridge", "--seats", "basic,random,basic,random", "--hands", "1",
         "--seed", "3", "--no-progress", "--pbn", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,  # a loaded shared machine starves even two boards
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "IMP/board" in proc.stdout and "basic" in proc.stdout
    with open(out, encoding="utf-8") as f:
        boards = pbn.load(f)
    assert len(boards) == 2  # the board at both tables
    for b in boards:
        assert b.info["North"] in ("basic", "random")
        if b.contract is not None and b.contract.level:
            assert len(b.auction) >= 4 and len(b.play) > 0
            assert 0 <= b.contract.result + b.contract.level + 6 <= 13
    text = out.read_text()
    for tag in ("[Auction ", "[Play ", "[Contract ", "[Declarer ", "[Result "):
        assert tag in text


def test_bad_seats_are_refused() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "paiju", "arena", "bridge", "--seats", "hybrid,nobody,hybrid,basic", "--hands", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2 and "no robot 'nobody' for bridge" in proc.stderr


def test_games_and_slams_of_the_side_that_owns_the_deal() -> None:
    # North-South make 7NT double dummy: game, small and grand slam are theirs to bid
    deal = "N:AKQJ.AKQ.AKQ.AKQ T98.T98.T987.T98 5432.J32.J32.J32 76.7654.654.7654"

    def reached(*auction: str) -> tuple[int | None, set[str], set[str]]:
        g = Bridge(0, BridgeRules("x", deals=("1 N None " + deal,)))
        for call in auction:
            g.call(g.to_act()[0], call)
        return arena.reach(g)

    assert reached("3NT", "P", "P", "P") == (0, {"game", "slam", "grand"}, {"game"})
    assert reached("6NT", "P", "P", "P") == (0, {"game", "slam", "grand"}, {"game", "slam"})
    assert reached("2C", "P", "P", "P") == (0, {"game", "slam", "grand"}, set())
    # a contract of the other side is no bid of the owner's
    assert reached("P", "4S", "P", "P", "P")[2] == set()


def test_where_the_imps_against_par_go() -> None:
    # par is 7NT by North-South: each contract's shortfall is named from their side
    deal = "N:AKQJ.AKQ.AKQ.AKQ T98.T98.T987.T98 5432.J32.J32.J32 76.7654.654.7654"

    def cause(*auction: str) -> str | None:
        g = Bridge(0, BridgeRules("x", deals=("1 N None " + deal,)))
        for call in auction:
            g.call(g.to_act()[0], call)
        return arena.par_cause(g)

    assert cause("7NT", "P", "P", "P") is None  # at par
    assert cause("6NT", "P", "P", "P") == "missed grand"
    assert cause("3NT", "P", "P", "P") == "missed slam"
    assert cause("P", "P", "P", "P") == "missed slam"  # passed out: level 0
    assert cause("P", "1C", "P", "P", "P") == "they go down"  # East-West declare


def test_bidding_only_and_the_measures_of_self_play() -> None:
    report = arena.play(["hybrid"] * 4, boards=4, seed=2, bidding_only=True)
    r = report.robots["hybrid"]
    assert report.bidding_only and len(r.par_abs_dd) == 8  # one figure a table in self-play
    assert all(x >= 0 for x in r.par_abs_dd) and r.declarer_loss.diffs == []  # no play figures
    games_bid, games_made = r.reached("game")
    assert 0 <= games_bid <= games_made and r.reached("slam")[1] <= games_made
    d = report.as_dict()["robots"]["hybrid"]
    assert {"par_abs_imps", "par_abs_imps_dd", "dd_games", "dd_games_bid", "dd_slams_bid"} <= set(d)
    assert "|IMPs against par|" in arena.format_report(report)
    # every |IMP against par| of the contracts is put down to one cause
    assert sum(r.par_causes.values()) == sum(r.par_abs_dd) and set(r.par_causes) <= set(arena.PAR_CAUSES)
    assert d["par_abs_imps_dd_by_cause"] == dict(r.par_causes)
