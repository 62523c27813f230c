"""Cost of the recursive coordinate reduction against the Lagrange-multiplier approaches, on single
planar loops of n revolute joints (rcr.loop_chain(n), m = 3 constraints per loop).

Run:  python benchmarks/rcr_scaling.py [--max-n 256]

Columns (median time of one forward-dynamics evaluation at an assembled state with random speeds):
  rcr         generalized RCR, last three coordinates dependent (§3)           expected O(n + m)
  acs         ACS with the dependents spread over the loop (q2, q_{n/2}, q_n) (§4)   O(n + m)
  gcl         the re-rooted tree of Fig. 8a (§5)                                O(n + m)
  multiplier  cut joint + the recursive RFDA (Featherstone form, stable at any mass ratio) of the cut
              tree for the free motion and once per constraint row, then an m x m solve (the
              traditional "O(n)" technique, §1, loopref):
              O(n + n m^2 + m^3), here with m = 2 rows of the cut revolute joint
  dense       eq. (7) in absolute coordinates with the cut joint's rows (loopref), O(n^3)
Prints log-log slopes over n >= 16.  With one loop m is fixed, so the m-dependence of the
multiplier approach does not show in the first table.

The second table grows m with n: chains of k coupled four-bars (rcr.loop_series(k), each based on
the coupler of the one before; n = 4k coordinates, m = 3k loop constraints, 2k cut-joint rows):
  rcr         series_accelerations: each loop reduced with its base body as moving root   O(n + m)
  multiplier  the recursive RFDA of the cut tree once per cut row + an m x m solve (loopref)
                                                                        O(n + n m + n m^2 + m^3)
  dense       eq. (7) with all cut rows                                                  O(n^3)
Every method is timed with check=False (the O(n) loop-consistency check at entry is not part of the
dynamics being compared).  Not a test: timings depend on the machine.
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


def coupled(max_k: int):
    """Second table: chains of k coupled loops."""
    ks = [k for k in (1, 2, 4, 8, 16, 32, 64) if k <= max_k]
    methods = {m: (lambda s, qs, qds, f=f: f(s, qs, qds, check=False))       # time the dynamics, not the checks
               for m, f in (("rcr", rcr.series_accelerations), ("multiplier", loopref.series_multiplier_accelerations),
                            ("dense", loopref.series_dae_accelerations))}
    print(f"\nchains of k coupled four-bars\n{'k':>4} {'m':>4} " + " ".join(f"{m:>12}" for m in methods)
          + "   (ms)   rcr multiplications")
    rows = []
    for k in ks:
        s = rcr.loop_series(k)
        rng = np.random.default_rng(k)
        qs = [rcr.solve_dependents(L, L.q0) for L in s.loops]
        qds = [rcr.dependent_velocities(L, q, rng.standard_normal(L.n)) for L, q in zip(s.loops, qs)]
        ref = np.concatenate(methods["dense"](s, qs, qds))
        dev = {m: np.abs(np.concatenate(f(s, qs, qds)) - ref).max() / np.abs(ref).max() for m, f in methods.items()}
        row = {"k": k, **{m: time_call(lambda f=f: f(s, qs, qds), min_time=0.2) for m, f in methods.items()}}
        rows.append(row)
        print(f"{k:4d} {3 * k:4d} " + " ".join(f"{row[m] * 1e3:12.3f}" for m in methods)
              + f"   {rcr.count_multiplications(s):8d}   max rel. deviation from dense: "
              + ", ".join(f"{m} {dev[m]:.0e}" for m in ("rcr", "multiplier")), flush=True)
    big = [r for r in rows if r["k"] >= 4]
    if len(big) >= 2:
        print("log-log slope against k (n and m both grow with k), k >= 4:")
        for m in methods:
            print(f"  {m:>10}: {loglog_slope([r['k'] for r in big], [r[m] for r in big]):.2f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=256)
    ap.add_argument("--max-k", type=int, default=64)
    args = ap.parse_args(argv)
    ns = [n for n in (4, 8, 16, 32, 64, 128, 256, 512) if n <= args.max_n]
    methods = ("rcr", "acs", "gcl", "multiplier", "dense")
    rows, counts = [], []
    print(f"{'n':>5} " + " ".join(f"{m:>12}" for m in methods) + "   (ms)", flush=True)
    for n in ns:
        model = rcr.loop_chain(n)
        q, qd = state(model)
        acs = ("q2", f"q{max(3, n // 2)}", f"q{n}")
        fns = {
            "rcr": lambda: rcr.accelerations(model, q, qd, method="rcr", check=False),
            "acs": lambda: rcr.accelerations(model, q, qd, method="acs", dependents=acs, check=False),
            "gcl": lambda: rcr.accelerations(model, q, qd, method="gcl", check=False),
            "multiplier": lambda: loopref.multiplier_accelerations(model, q, qd, check=False),
            "dense": lambda: loopref.dae_accelerations(model, q, qd, check=False),
        }
        ref = fns["dense"]()
        dev = {m: np.abs(fns[m]() - ref).max() / np.abs(ref).max() for m in methods}
        counts.append((n, rcr.count_multiplications(model, method="rcr"), rcr.count_multiplications(model, method="gcl"),
                       5 * n - 3))
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
    print("\ncounted scalar multiplications of one evaluation (rcr.count_multiplications) and the dense")
    print("factorization of eq. (7), N^3/3 for its N x N matrix (analytic, LU):")
    print(f"{'n':>5} {'rcr':>9} {'gcl':>9} {'dense N^3/3':>13}")
    for n, c_rcr, c_gcl, N in counts:
        print(f"{n:5d} {c_rcr:9d} {c_gcl:9d} {N ** 3 // 3:13d}")
    if len(counts) >= 3:
        inc = {(b[1] - a[1]) / (b[0] - a[0]) for a, b in zip(counts[1:], counts[2:])}
        print(f"rcr: {sorted(inc)} multiplications per added joint (constant: O(n))")
    coupled(args.max_k)


if __name__ == "__main__":
    main()
