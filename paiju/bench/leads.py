"""`paiju bench leads`: the bridge opening lead, simulated against the experience rules.

Deals ``--boards`` boards of ``--seed`` (the arena's deals), lets ``hybrid`` bid all four seats,
then the opening leader chooses its lead twice: by the rules (:func:`paiju.bots.bridge.rules.experience_card`)
and by :meth:`paiju.bots.bridge.robot.HybridRobot.opening_lead` (the simulation). Each lead is scored
by the double-dummy tricks it gives away on the real deal (the defence's best lead's tricks
minus the lead's: what the arena's "opening lead" counts), and the simulation's CPU time
(the process's, DDS's threads included) is reported as mean, p50, p90, p99 and the slowest. It also
counts the samples that set a promise aside (``Samples.relaxed``) when the sampler mends
failing deals (the robot's ``repairs``) and when it does not.

    paiju bench leads --boards 50 --seed 100
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from tqdm import tqdm

from paiju.cli.args import positive_int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--boards", type=positive_int, default=50, help="boards bid and led (default 50)")
    parser.add_argument("--seed", type=int, default=100, help="the deals' seed, as the arena's (default 100)")
    parser.add_argument(
        "--samples", type=positive_int, default=None, help="samples of the simulated lead (default: the robot's)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from paiju import games
    from paiju.bots.bridge import montecarlo
    from paiju.bots.bridge.robot import HybridRobot
    from paiju.bots.bridge.rules import experience_card
    from paiju.bots.bridge.table import Known
    from paiju.games.bridge import Bridge
    from paiju.games.request import decision_request

    robot = HybridRobot()
    if args.samples:
        robot.lead_samples = args.samples
    n_samples = robot.lead_samples or robot.samples
    rules_loss: list[int] = []
    sim_loss: list[int] = []
    cpu: list[float] = []
    relaxed = {"plain": 0, "mended": 0}
    for d in tqdm(range(args.boards), desc="leads", unit="board", disable=args.json, file=sys.stderr):
        game = games.create("bridge", args.seed, None, hand=d)
        assert isinstance(game, Bridge)
        prompt = 0
        while game.phase == "auction":
            seat = game.to_act()[0]
            prompt += 1
            request = decision_request(
                game, seat, room="bench", prompt_id=prompt, deadline_ms=0, robot="hybrid", legal=game.legal(seat)
            )
            game.apply(seat, robot.decide(request))
        if game.contract is None:
            continue
        leader = game.to_act()[0]
        k = Known.of(game.view(leader), leader)
        real = montecarlo.solve_samples(k, [{s: list(game.hands[s]) for s in k.hidden_seats()}])[0]
        top = max(real.values())
        rules_loss.append(top - real[experience_card(k)])
        start = time.process_time()
        lead = robot.opening_lead(k, random.Random(f"{args.seed}:{d}"))
        cpu.append(time.process_time() - start)
        sim_loss.append(top - real[lead])
        for kind, repairs in (("plain", 0), ("mended", robot.repairs)):
            samples = montecarlo.sample_deals(k, n_samples, random.Random(d), repairs=repairs)
            relaxed[kind] += samples.relaxed
    n = len(cpu)
    ordered = sorted(cpu)
    out = {
        "boards": args.boards,
        "leads": n,
        "samples": robot.lead_samples or robot.samples,
        "rules_dd_loss": round(sum(rules_loss) / max(1, n), 3),
        "simulated_dd_loss": round(sum(sim_loss) / max(1, n), 3),
        "relaxed_share": {kind: round(r / max(1, n * n_samples), 3) for kind, r in relaxed.items()},
        "cpu_s": {
            "mean": round(statistics.fmean(cpu), 3) if cpu else 0.0,
            **{f"p{q}": round(ordered[int(q / 100 * n)], 3) if cpu else 0.0 for q in (50, 90, 99)},
            "max": round(ordered[-1], 3) if cpu else 0.0,
        },
    }
    if args.json:
        print(json.dumps(out))
    else:
        c = out["cpu_s"]
        assert isinstance(c, dict)
        print(
            f"{n} opening leads (seed {args.seed}): DD tricks given away a lead: rules {out['rules_dd_loss']:.3f}, "
            f"simulated ({out['samples']} samples) {out['simulated_dd_loss']:.3f}; "
            f"the simulation's CPU s a lead: mean {c['mean']:.2f}, p50 {c['p50']:.2f}, p90 {c['p90']:.2f}, "
            f"p99 {c['p99']:.2f}, slowest {c['max']:.2f}"
        )
        r = out["relaxed_share"]
        assert isinstance(r, dict)
        print(f"samples that set a promise aside: {100 * r['plain']:.0f} % plain, {100 * r['mended']:.0f} % mended")
    return 0
