"""Scale check (not a timed test): building a 2000-body chain and the memory of the RFDA coordinates.

Run:  python benchmarks/scale_build.py [--n 2000] [--n-coordinates 400]

Prints the wall time of ``models.chain(n)`` (topology validation is O(n), so this should be well
under a second at n = 2000), of ``models.random_state`` on it, and the tracemalloc peak of
``coordinates.rfda_coordinates`` on a planar chain of ``--n-coordinates`` bodies (O(n p^2): each
node keeps M_hat_j and its children's E~, D~, S, a; the dense T of a node is assembled on access).
Timings depend on the machine; nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from rfda_teach import coordinates, models


def build_time(n: int, repeat: int = 3) -> float:
    """Best wall time of models.chain(n) over ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        models.chain(n)
        best = min(best, time.perf_counter() - t0)
    return best


def coordinates_peak(n: int) -> tuple[float, float]:
    """(tracemalloc peak in bytes, wall time in s) of rfda_coordinates on a planar n-body chain."""
    sys_ = models.chain(n)
    st = models.random_state(sys_, seed=0)
    tracemalloc.start()
    t0 = time.perf_counter()
    nodes = coordinates.rfda_coordinates(sys_, st)
    dt = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del nodes
    return float(peak), dt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="bodies of the chain to build")
    ap.add_argument("--n-coordinates", type=int, default=400, help="bodies of the chain for rfda_coordinates")
    args = ap.parse_args(argv)
    print(f"models.chain({args.n}) builds in {build_time(args.n) * 1e3:.1f} ms (best of 3)", flush=True)
    sys_ = models.chain(args.n)
    t0 = time.perf_counter()
    models.random_state(sys_, seed=0)
    print(f"models.random_state on it: {(time.perf_counter() - t0) * 1e3:.1f} ms", flush=True)
    peak, dt = coordinates_peak(args.n_coordinates)
    print(f"coordinates.rfda_coordinates(chain({args.n_coordinates})): tracemalloc peak {peak / 1e6:.1f} MB, "
          f"{dt:.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
