"""`paiju bench mahjong`: hu distance against the `mahjong` package's shanten calculator.

Draws random concealed hands from the wall (136 tiles by default, 108 with
``--ruleset championship``), times :func:`paiju.games.mahjong.hu_distance` and
``mahjong.shanten.Shanten.calculate_shanten`` (without thirteen orphans, which paiju's
rules do not have) on the same hands in the same run, and counts the hands where
``hu_distance == shanten + 1``. For the comparison the seven pairs must be distinct
(``distinct_pairs=True``, the package's rule). Inputs are prepared before the clocks
start: bytes for paiju, 34-count arrays for the package.
"""

from __future__ import annotations

import argparse
import random
import time

from tqdm import tqdm

from paiju.cli.args import positive_int

CHUNK = 5000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=positive_int, default=100_000, help="random hands (default 100000)")
    parser.add_argument("--tiles", type=int, choices=(13, 14), default=13, help="hand size (default 13)")
    parser.add_argument("--ruleset", choices=("classic", "championship"), default="classic")
    parser.add_argument("--seed", type=int, default=2020)


def _index34(b: int) -> int:
    return (b >> 4) * 9 + (b & 0xF) - 1


def run(args: argparse.Namespace) -> int:
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        print("the comparison needs the `mahjong` package: pip install 'paiju[test]'")
        return 2
    from paiju.games.mahjong import hu_distance
    from paiju.games.mahjong.analysis import ALL_TILES, NUMBER_TILES

    tiles = ALL_TILES if args.ruleset == "classic" else NUMBER_TILES
    wall = [b for b in tiles for _ in range(4)]
    rng = random.Random(args.seed)
    hands = [bytes(sorted(rng.sample(wall, args.tiles))) for _ in range(args.hands)]
    arrays = []
    for h in hands:
        a = [0] * 34
        for b in h:
            a[_index34(b)] += 1
        arrays.append(a)

    ours: list[int] = []
    theirs: list[int] = []
    shanten = Shanten.calculate_shanten
    t_ours = t_theirs = 0.0
    with tqdm(total=2 * len(hands), unit="hand", desc="hu distance / shanten") as bar:
        for i in range(0, len(hands), CHUNK):
            part = hands[i : i + CHUNK]
            t0 = time.perf_counter()
            ours += [hu_distance(h, distinct_pairs=True) for h in part]
            t_ours += time.perf_counter() - t0
            bar.update(len(part))
            arr = arrays[i : i + CHUNK]
            t0 = time.perf_counter()
            theirs += [shanten(a, use_kokushi=False) for a in arr]
            t_theirs += time.perf_counter() - t0
            bar.update(len(part))
    agree = sum(1 for a, b in zip(ours, theirs, strict=True) if a == b + 1)
    n = len(hands)
    print(f"{n} random {args.tiles}-tile hands from the {len(wall)}-tile wall (seed {args.seed})")
    print(f"  paiju hu_distance      {n / t_ours:12,.0f} hands/s")
    print(f"  mahjong Shanten        {n / t_theirs:12,.0f} hands/s")
    print(f"  ratio                  {t_theirs / t_ours:12.1f} x")
    print(f"  agreement (d = shanten + 1): {agree} / {n}")
    for h, d, sh in zip(hands, ours, theirs, strict=True):
        if d != sh + 1:
            print(f"  differs: {h.hex()} hu_distance {d}, shanten {sh}")
            break
    return 0 if agree == n else 1
