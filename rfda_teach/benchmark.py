"""Timing helpers for the scaling study: dense eq. (7) against both recursive forms.

Speed is measured here and in ``benchmarks/``, never in unit tests.  The
book's chapter on the recursive algorithm calls :func:`scaling` at small n;
``benchmarks/scaling.py`` runs it up to n = 512.

Examples
--------
>>> from rfda_teach import benchmark
>>> rows = benchmark.scaling([4, 8], family="chain", kind="planar", min_time=0.001)
>>> sorted(rows[0])
['dense', 'featherstone', 'lubich', 'n']
>>> round(benchmark.loglog_slope([1, 2, 4], [3.0, 12.0, 48.0]), 6)
2.0
"""

from __future__ import annotations

import time

import numpy as np

from . import dae, models, rfda
from .system import terms
from .errors import ModelError

__all__ = ["METHODS", "time_call", "time_forward_dynamics", "scaling", "loglog_slope", "crossover"]

METHODS = ("dense", "lubich", "featherstone")


def time_call(fn, *, min_time: float = 0.05, max_repeat: int = 200) -> float:
    """Median wall time of fn() in seconds, repeating until ``min_time`` has been spent (at least 3 runs).


    Examples
    --------
    >>> time_call(lambda: sum(range(10)), min_time=0.0) >= 0.0
    True
    """
    times, spent = [], 0.0
    while (spent < min_time or len(times) < 3) and len(times) < max_repeat:
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        times.append(dt)
        spent += dt
    return float(np.median(times))


def time_forward_dynamics(system, state, method: str, *, stage: str = "total", **kw) -> float:
    """Median time of one forward-dynamics evaluation by ``method`` in :data:`METHODS`.

    ``stage="total"`` times the whole call (evaluating M_i, f_i, G_k, Q_k, gamma_k, then
    solving); ``stage="solve"`` times only the solution given those terms, the part
    in which the dense and the recursive algorithms differ.

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.chain(3)
    >>> time_forward_dynamics(sys, models.random_state(sys), "lubich", stage="solve", min_time=0.0) > 0
    True
    """
    if stage not in ("total", "solve"):
        raise ModelError(f"stage={stage!r}; use 'total' or 'solve'")
    if method not in METHODS:
        raise ModelError(f"method={method!r}; use one of {METHODS}")
    if stage == "solve":
        tr = terms(system, state)
        if method == "dense":
            return time_call(lambda: dae.solve(system, tr), **kw)
        return time_call(lambda: rfda.solve(system, tr, method), **kw)
    if method == "dense":
        return time_call(lambda: dae.forward_dynamics(system, state), **kw)
    return time_call(lambda: rfda.forward_dynamics(system, state, form=method), **kw)


def _system(family: str, n: int, kind: str, seed: int):
    if family == "chain":
        return models.chain(n, kind)
    if family == "tree":
        return models.random_tree(n, kind=kind, seed=seed)
    raise ModelError(f"family={family!r}; use 'chain' or 'tree'")


def scaling(ns, *, family: str = "chain", kind: str = "planar", methods=METHODS, seed: int = 0,
            min_time: float = 0.05, stage: str = "total", progress=None) -> list:
    """Time every method for every n; return rows {"n": n, method: seconds, ...}.

    ``progress`` is an optional callable progress(message) called once per row.
    """
    rows = []
    for n in ns:
        sys_ = _system(family, int(n), kind, seed)
        st = models.random_state(sys_, seed=seed)
        row = {"n": int(n)}
        for m in methods:
            row[m] = time_forward_dynamics(sys_, st, m, stage=stage, min_time=min_time)
        rows.append(row)
        if progress:
            progress(f"{family}/{kind} n={n}: " + ", ".join(f"{m} {row[m] * 1e3:.2f} ms" for m in methods))
    return rows


def loglog_slope(ns, times) -> float:
    """Least-squares slope of log(time) against log(n): the exponent of the measured cost."""
    ns, times = np.asarray(ns, float), np.asarray(times, float)
    if ns.size < 2:
        raise ModelError("loglog_slope needs at least two sizes")
    return float(np.polyfit(np.log(ns), np.log(times), 1)[0])


def crossover(rows, fast: str, slow: str = "dense"):
    """Smallest n from which ``fast`` stays faster than ``slow`` (None if never).


    Examples
    --------
    >>> crossover([{"n": 4, "dense": 1.0, "lubich": 2.0}, {"n": 8, "dense": 4.0, "lubich": 3.0}], "lubich")
    8
    """
    ok = [r[fast] < r[slow] for r in rows]
    for i, r in enumerate(rows):
        if all(ok[i:]):
            return r["n"]
    return None
