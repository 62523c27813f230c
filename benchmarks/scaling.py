"""Scaling of forward dynamics: dense eq. (7) (O(n^3)) vs the RFDA in Lubich and Featherstone form (O(n)).

Run:  python benchmarks/scaling.py [--max-n 512] [--min-time 0.2]

Prints, for planar chains and random spatial trees of n = 4 ... max_n bodies,
the median time per evaluation, the log-log slope over n >= 16 and the
crossover n from which each recursive form beats the dense solve.  Not a test:
timings depend on the machine.
"""

from __future__ import annotations

import argparse
import itertools
import sys

from rfda_teach.benchmark import METHODS, crossover, loglog_slope, scaling


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=512)
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds spent per measurement")
    args = ap.parse_args(argv)
    ns = [n for n in (4, 8, 16, 32, 64, 128, 256, 512, 1024) if n <= args.max_n]
    summary = []
    for (family, kind), stage in itertools.product((("chain", "planar"), ("tree", "spatial")), ("total", "solve")):
        print(f"\n== {family} of {kind} bodies, stage '{stage}' ==", flush=True)
        rows = scaling(ns, family=family, kind=kind, min_time=args.min_time, stage=stage,
                       progress=lambda m: print("  " + m, file=sys.stderr, flush=True))
        print(f"{'n':>6} " + " ".join(f"{m + ' [ms]':>18}" for m in METHODS) + f" {'dense/featherstone':>20}")
        for r in rows:
            print(f"{r['n']:>6} " + " ".join(f"{r[m] * 1e3:>18.3f}" for m in METHODS)
                  + f" {r['dense'] / r['featherstone']:>20.2f}")
        big = [r for r in rows if r["n"] >= 16]
        if len(big) >= 2:
            for m in METHODS:
                slope = loglog_slope([r["n"] for r in big], [r[m] for r in big])
                summary.append((family, kind, stage, m, slope))
                print(f"  log-log slope over n >= 16, {m:>12}: {slope:.2f}")
        for m in ("lubich", "featherstone"):
            print(f"  crossover: {m} faster than dense from n = {crossover(rows, m)}")
    print("\n== summary: log-log slopes over n >= 16 ==")
    print("'total' includes evaluating M_i, f_i, G_k, Q_k, gamma_k (O(n) for every method);")
    print("'solve' is the stage in which eq. (7) solved densely and the RFDA differ.")
    for family, kind, stage, m, slope in summary:
        print(f"  {family:>5} {kind:>7} {stage:>5} {m:>12}: {slope:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
