"""Cost of the recursive coordinate reduction against the Lagrange-multiplier approaches, on single
planar loops of n revolute joints (rcr.loop_chain(n), m = 3 constraints per loop).

Run:  python benchmarks/rcr_scaling.py [--max-n 256]

Columns (median time of one forward-dynamics evaluation at an assembled state with random speeds):
  rcr         generalized RCR, last three coordinates dependent (§3)           expected O(n + m)
  acs         ACS with the dependents spread over the loop (q2, q_{n/2}, q_n) (§4)   O(n + m)
  gcl         the re-rooted tree of Fig. 8a (§5)                                O(n + m)
  multiplier  cut joint + recursive tree solves for the free motion and one unit force per
              constraint row, then an m x m solve (the traditional "O(n)" technique, §1):
              O(n + n m^2 + m^3), here with m = 2 rows of the cut revolute joint
  dense       eq. (7) in absolute coordinates with the cut joint's rows (loopref), O(n^3)
Prints log-log slopes over n >= 16.  Not a test: timings depend on the machine.  With one loop, m
is fixed, so the m-dependence of the multiplier approach does not show here; coupled multi-loop
chains are not implemented in rcr (single loops only).
"""

from __future__ import annotations

import argparse

import numpy as np

from rfda_teach import loopref, rcr
from rfda_teach.benchmark import loglog_slope, time_call


def state(model, seed=0):
    rng = np.random.default_rng(seed)
    q = rcr.solve_dependents(model, model.q0)
    return q, rcr.dependent_velocities(model, q, rng.standard_normal(model.n))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=256)
    args = ap.parse_args(argv)
    ns = [n for n in (4, 8, 16, 32, 64, 128, 256, 512) if n <= args.max_n]
    methods = ("rcr", "acs", "gcl", "multiplier", "dense")
    rows = []
    print(f"{'n':>5} " + " ".join(f"{m:>12}" for m in methods) + "   (ms)", flush=True)
    for n in ns:
        model = rcr.loop_chain(n)
        q, qd = state(model)
        acs = ("q2", f"q{max(3, n // 2)}", f"q{n}")
        fns = {
            "rcr": lambda: rcr.accelerations(model, q, qd, method="rcr", check=False),
            "acs": lambda: rcr.accelerations(model, q, qd, method="acs", dependents=acs, check=False),
            "gcl": lambda: rcr.accelerations(model, q, qd, method="gcl", check=False),
            "multiplier": lambda: rcr.multiplier_accelerations(model, q, qd),
            "dense": lambda: loopref.dae_accelerations(model, q, qd),
        }
        ref = fns["dense"]()
        dev = {m: np.abs(fns[m]() - ref).max() / np.abs(ref).max() for m in methods}
        row = {"n": n, **{m: time_call(fns[m], min_time=0.2) for m in methods}}
        rows.append(row)
        print(f"{n:5d} " + " ".join(f"{row[m] * 1e3:12.3f}" for m in methods)
              + "   max rel. deviation from dense: " + ", ".join(f"{m} {dev[m]:.0e}" for m in methods[:-1]),
              flush=True)
    big = [r for r in rows if r["n"] >= 16]
    if len(big) >= 2:
        print("\nlog-log slope over n >= 16:")
        for m in methods:
            print(f"  {m:>10}: {loglog_slope([r['n'] for r in big], [r[m] for r in big]):.2f}")
        last = rows[-1]
        print(f"\nat n = {last['n']}: dense / rcr = {last['dense'] / last['rcr']:.1f}, "
              f"multiplier / rcr = {last['multiplier'] / last['rcr']:.2f}")


if __name__ == "__main__":
    main()
