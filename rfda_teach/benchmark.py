"""Timing helpers for the scaling study: dense D&G eq. (7) against both recursive forms.

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

from . import _check, dae, models, rfda
from .errors import ModelError
from .system import System, terms

__all__ = ["METHODS", "time_call", "time_forward_dynamics", "scaling", "loglog_slope", "crossover"]

METHODS = ("dense", "lubich", "featherstone")


def time_call(fn, *, min_time: float = 0.05, max_repeat: int = 200) -> float:
    """Median wall time of fn() in seconds, repeating until ``min_time`` has been spent (at least 3 runs).


    Examples
    --------
    >>> time_call(lambda: sum(range(10)), min_time=0.0) >= 0.0
    True
    """
    where = "benchmark.time_call"
    if not callable(fn):
        raise ModelError(f"{where}: fn must be a callable taking no arguments, got {type(fn).__name__}")
    min_time = _check.scalar(min_time, "min_time", where=where, nonneg=True)
    max_repeat = _check.positive_int(max_repeat, "max_repeat", where=where)
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
    where = "benchmark.time_forward_dynamics"
    _check.instance(system, System, "system", where=where, hint="build one with rfda_teach.models")
    _check.choice(stage, ("total", "solve"), "stage", where=where)
    _check.choice(method, METHODS, "method", where=where)
    unknown = sorted(set(kw) - {"min_time", "max_repeat"})
    if unknown:
        raise ModelError(f"{where}: unknown option(s) {unknown}; the timing options are min_time and max_repeat")
    if stage == "solve":
        tr = terms(system, state)
        if method == "dense":
            return time_call(lambda: dae.solve(system, tr), **kw)
        return time_call(lambda: rfda.solve(system, tr, method), **kw)
    if method == "dense":
        return time_call(lambda: dae.forward_dynamics(system, state), **kw)
    return time_call(lambda: rfda.forward_dynamics(system, state, form=method), **kw)


def _system(family: str, n: int, kind: str, seed: int):
    _check.choice(family, ("chain", "tree"), "family", where="benchmark.scaling")
    if family == "chain":
        return models.chain(n, kind)
    if family == "tree":
        return models.random_tree(n, kind=kind, seed=seed)
    raise ModelError(f"family={family!r}; use 'chain' or 'tree'")


def scaling(ns, *, family: str = "chain", kind: str = "planar", methods=METHODS, seed: int = 0,
            min_time: float = 0.05, stage: str = "total", progress=None) -> list:
    """Time every method for every n; return rows {"n": n, method: seconds, ...}.

    ``progress`` is an optional callable progress(message) called once per row.

    Examples
    --------
    >>> rows = scaling([3], methods=("lubich",), min_time=0.0)
    >>> rows[0]["n"], rows[0]["lubich"] > 0
    (3, True)
    """
    where = "benchmark.scaling"
    if ns is None or isinstance(ns, (str, bytes)) or not hasattr(ns, "__iter__"):
        raise ModelError(f"{where}: ns must be a list of body counts, got {ns!r}")
    ns = [_check.positive_int(n, "ns[]", where=where) for n in ns]
    _check.choice(family, ("chain", "tree"), "family", where=where)
    _check.choice(kind, ("planar", "spatial"), "kind", where=where)
    if methods is None or isinstance(methods, (str, bytes)) or not hasattr(methods, "__iter__"):
        raise ModelError(f"{where}: methods must be a list drawn from {METHODS}, got {methods!r}")
    methods = [_check.choice(m, METHODS, "methods[]", where=where) for m in methods]
    seed = _check.seed(seed, where=where)
    min_time = _check.scalar(min_time, "min_time", where=where, nonneg=True)
    _check.choice(stage, ("total", "solve"), "stage", where=where)
    if progress is not None and not callable(progress):
        raise ModelError(f"{where}: progress must be a callable progress(message) or None, got {progress!r}")
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
    """Least-squares slope of log(time) against log(n): the exponent of the measured cost.

    Examples
    --------
    >>> round(loglog_slope([10, 100], [1.0, 10.0]), 9)
    1.0
    """
    where = "benchmark.loglog_slope"
    ns = _check.vector(ns, None, "ns", where=where)
    times = _check.vector(times, ns.shape[0], "times", where=where, hint="one time per size in ns")
    if ns.size < 2:
        raise ModelError(f"{where}: loglog_slope needs at least two sizes, got ns = {ns}")
    if np.any(ns <= 0) or np.any(times <= 0):
        raise ModelError(f"{where}: sizes and times must be > 0 for a log-log fit, got ns = {ns}, times = {times}")
    return float(np.polyfit(np.log(ns), np.log(times), 1)[0])


def crossover(rows, fast: str, slow: str = "dense"):
    """Smallest n from which ``fast`` stays faster than ``slow`` (None if never).


    Examples
    --------
    >>> crossover([{"n": 4, "dense": 1.0, "lubich": 2.0}, {"n": 8, "dense": 4.0, "lubich": 3.0}], "lubich")
    8
    """
    where = "benchmark.crossover"
    if rows is None or isinstance(rows, (str, bytes, dict)) or not hasattr(rows, "__iter__"):
        raise ModelError(f"{where}: rows must be a list of dicts as returned by scaling(), got {rows!r}")
    rows = list(rows)
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or any(k not in r for k in ("n", fast, slow)):
            raise ModelError(f"{where}: rows[{i}] must be a dict with keys 'n', {fast!r} and {slow!r}, got {r!r}")
    ok = [r[fast] < r[slow] for r in rows]
    for i, r in enumerate(rows):
        if all(ok[i:]):
            return r["n"]
    return None
