"""Joint-space forward dynamics (CRBA + RNEA + Cholesky, O(n^3)) against both RFDA forms (O(n)).

Run:  python benchmarks/jointspace.py [--max-n 256] [--min-time 0.2]

For planar chains, spatial chains and branched random spatial trees of n = 2, 4 ... max_n
bodies it prints

* the scalar multiplications of one evaluation, counted while the algorithms run
  (:func:`rfda_teach.jointspace.count_multiplications`, from the evaluated terms on),
* the shortest CPU time (process time) of the same stage (``jointspace.solve`` and ``rfda.solve`` on
  the same :func:`rfda_teach.system.terms`),
* log-log slopes over n >= 32 and the crossover n from which each RFDA form stays
  cheaper than the joint-space method, in counts and in time.

Why the two crossovers differ.  A multiplication count weighs every flop equally.  In
Python the time of a small matrix product is almost all interpreter and numpy call
overhead (one to two microseconds per call, whatever the 3x3 or 6x6 size), so the time of
an algorithm is roughly (number of numpy calls) x (overhead).  The RFDA makes some 20-30
calls per node, among them small Cholesky factors and solves through scipy.linalg, whose
argument checking costs 10-20 us per call (a bare 3x3 product about 1 us); the joint-space method makes about 10 per node for RNEA and the
composite inertias, 2 per (node, ancestor) pair for the CRBA blocks, and a single LAPACK
call for the O(n^3) Cholesky factorisation, whose n^3/6 flops run at compiled speed (a
few GFLOP/s).  So in Python the joint-space method's time grows like the CRBA's
n x depth loop - n^2 on a chain, about n log n on a bushy tree - until n is in the
thousands, while its multiplication count grows like n^3 from a few dozen bodies on.
On a chain the RFDA wins in time from n of order 64-128 (in counts from n of order 4-8);
on a bushy tree (depth ~ 8 at n = 256) the joint-space method stays faster in Python
over the whole range although it needs 60-100 times more multiplications at n = 256.
Compiled code (C++, numba) removes the call overhead, and the counts then predict the
times.  CPU times are the shortest of repeated runs (the machine may be shared).  Not a
test: timings depend on the machine.
"""

from __future__ import annotations

import os

if __name__ == "__main__":               # before numpy loads: one core for every method (a threaded BLAS
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # on a busy machine can
        os.environ.setdefault(_var, "1")  # make a 500x500 Cholesky 100x slower); set them to override

import argparse
import sys
import time

from rfda_teach import jointspace as js, models, rfda
from rfda_teach.benchmark import crossover, loglog_slope
from rfda_teach.system import terms

METHODS = ("joint_space", "lubich", "featherstone")
FAMILIES = (("chain", "planar"), ("chain", "spatial"), ("tree", "spatial"))


def build(family: str, kind: str, n: int):
    """A chain of uniform bars, or a random tree (chain_bias 0.3: many branches)."""
    if family == "chain":
        return models.chain(n, kind)
    return models.random_tree(n, kind=kind, seed=0, chain_bias=0.3)


def cpu_time(fn, min_time: float) -> float:
    """Shortest CPU time of this process over repeated calls of fn() (at least 3, for about
    ``min_time`` seconds): the machine may be shared, and the minimum of process time is the
    measure least disturbed by other processes."""
    best, spent, runs = float("inf"), 0.0, 0
    while spent < min_time or runs < 3:
        t0 = time.process_time()
        fn()
        dt = time.process_time() - t0
        best, spent, runs = min(best, dt), spent + dt, runs + 1
    return best


def depth(system) -> float:
    """Mean number of joints between a body and the ground (the CRBA walks this far per body)."""
    d = [0] * system.n
    for k in system.topology.order:
        p = system.parents[k]
        d[k] = 1 if p < 0 else d[p] + 1
    return sum(d) / system.n


def measure(family: str, kind: str, ns, min_time: float, progress=None) -> list:
    rows = []
    for n in ns:
        s = build(family, kind, n)
        tr = terms(s, models.random_state(s, seed=0))
        row = {"n": n, "depth": depth(s)}
        row["count"] = {
            "joint_space": js.count_multiplications(s, "joint_space_fd"),
            "lubich": js.count_multiplications(s, "lubich"),
            "featherstone": js.count_multiplications(s, "featherstone"),
        }
        row["time"] = {
            "joint_space": cpu_time(lambda: js.solve(s, tr), min_time),
            "lubich": cpu_time(lambda: rfda.solve(s, tr, "lubich"), min_time),
            "featherstone": cpu_time(lambda: rfda.solve(s, tr, "featherstone"), min_time),
        }
        rows.append(row)
        if progress:
            progress(f"{family}/{kind} n={n}: " + ", ".join(f"{m} {row['time'][m] * 1e3:.2f} ms" for m in METHODS))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=256)
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds spent per time measurement")
    args = ap.parse_args(argv)
    ns = [n for n in (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024) if n <= args.max_n]
    summary = []
    for family, kind in FAMILIES:
        rows = measure(family, kind, ns, args.min_time,
                       progress=lambda m: print("  " + m, file=sys.stderr, flush=True))
        print(f"\n== {family} of {kind} bodies (solve stage: from evaluated M_i, f_i, G_k, Q_k, gamma_k) ==")
        print(f"{'n':>5} {'depth':>6} | " + " ".join(f"{m + ' mults':>20}" for m in METHODS)
              + " | " + " ".join(f"{m + ' [ms]':>17}" for m in METHODS))
        for r in rows:
            print(f"{r['n']:>5} {r['depth']:>6.1f} | " + " ".join(f"{r['count'][m]:>20,}" for m in METHODS)
                  + " | " + " ".join(f"{r['time'][m] * 1e3:>17.3f}" for m in METHODS))
        big = [r for r in rows if r["n"] >= 32]
        if len(big) >= 2:
            for m in METHODS:
                sc = loglog_slope([r["n"] for r in big], [r["count"][m] for r in big])
                stt = loglog_slope([r["n"] for r in big], [r["time"][m] for r in big])
                print(f"  log-log slope over n >= 32, {m:>12}: counts {sc:.2f}, time {stt:.2f}")
                summary.append((family, kind, m, sc, stt))
        for m in ("lubich", "featherstone"):
            cc = crossover([{"n": r["n"], "js": r["count"]["joint_space"], m: r["count"][m]} for r in rows], m, "js")
            ct = crossover([{"n": r["n"], "js": r["time"]["joint_space"], m: r["time"][m]} for r in rows], m, "js")
            print(f"  crossover: {m} cheaper than joint space from n = {cc} in counts, n = {ct} in time")
            summary.append((family, kind, f"crossover {m}", cc, ct))
    print("\n== summary ==")
    for family, kind, m, a, b in summary:
        if m.startswith("crossover"):
            print(f"  {family:>5} {kind:>7} {m:>22}: counts n = {a}, time n = {b}")
        else:
            print(f"  {family:>5} {kind:>7} {m:>22}: slope counts {a:.2f}, time {b:.2f}")
    print("\nCounts weigh flops; Python time weighs calls (a small numpy product 1-2 us, a small scipy "
          "cho_factor or\ncho_solve 10-20 us, whatever the size).  The joint-space\nCholesky is one LAPACK call, so its n^3 flops hardly show in Python time below n ~ 1000; "
          "the CRBA's\nn x depth block loop does.  See the module docstring.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
