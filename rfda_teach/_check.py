"""One small validation layer used by every public function.

Each helper converts a user's argument to the type the algorithms need or
raises a :class:`~rfda_teach.errors.ModelError` whose message names the
argument (*what*), the function or model (*where*) and says *what to do*.
Nothing here knows about dynamics; it only checks numbers, shapes and types.

Examples
--------
>>> from rfda_teach import _check
>>> _check.vector([1, 2, 3], 3, "tau", where="rfda.forward_dynamics")
array([1., 2., 3.])
>>> _check.time_span(float("inf"), "t_final", where="simulate.simulate")
Traceback (most recent call last):
...
rfda_teach.errors.ModelError: simulate.simulate: t_final is inf; give a finite end time > 0 in seconds, e.g. t_final=2.0
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from .errors import ModelError, RFDAError, RFDAWarning

__all__ = ["scalar", "time", "time_span", "positive_int", "vector", "matrix", "seed", "choice",
           "instance", "flag", "warn", "inertia", "t_eval", "INERTIA_TOL"]


def _pre(where: str) -> str:
    return f"{where}: " if where else ""


def user_call(fn, args: tuple, what: str, *, where: str = ""):
    """Call a function the user passed (a controller, a road profile); an exception it raises becomes a
    :class:`~rfda_teach.errors.ModelError` that names the callable, instead of a bare error from deep
    inside an integrator.

    Examples
    --------
    >>> user_call(lambda t: 1.0 / t, (0.0,), "road(t)", where="refpoint")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: refpoint: the callable road(t) raised ZeroDivisionError: float division by zero; fix it or pass data instead
    """
    try:
        return fn(*args)
    except RFDAError:
        raise
    except Exception as exc:                      # noqa: BLE001 - the user's code: reported, named
        raise ModelError(f"{_pre(where)}the callable {what} raised {type(exc).__name__}: {exc}; "
                         "fix it or pass data instead") from exc


#: the largest state entry an integrator accepts (m, m/s, rad/s): beyond it the motion has blown up
BLOW_UP = 1e8


#: an integration projected to need more evaluations of the dynamics than this (from its progress after
#: :data:`CHECK_AFTER` of them) is stopped: a stiff or exploding motion would run for many minutes
MAX_EVALUATIONS = 1_000_000
CHECK_AFTER = 20_000


def integration_guard(t_final: float, *, where: str = ""):
    """A function ``guard(x, t)`` for an integrator's right-hand side and, as ``guard.event``, an event
    function for ``solve_ivp(..., events=guard.event)``.

    * ``guard`` counts the evaluations: after :data:`CHECK_AFTER` of them, when the progress so far
      projects more than :data:`MAX_EVALUATIONS` for the whole of [0, t_final] (or that many are
      reached), it raises a :class:`~rfda_teach.errors.ModelError`: a stiff or exploding motion would
      otherwise run for many minutes.
    * ``guard.event`` sees every accepted step (never a trial stage, which may be wild and then be
      rejected) and raises :func:`bounded_state`'s error when the motion has blown up; it never
      triggers an event otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> guard = integration_guard(1.0, where="simulate")
    >>> guard(np.zeros(3), 0.0)                    # a sound state passes
    >>> guard.event(0.0, np.zeros(3))
    1.0
    """
    count = [0]

    def guard(x, t):
        count[0] += 1
        n = count[0]
        if n >= CHECK_AFTER and n % 1000 == 0 and (n >= MAX_EVALUATIONS or n * t_final > MAX_EVALUATIONS * t):
            raise ModelError(f"{_pre(where)}{n} evaluations of the dynamics reached only t = {t:.6g} s of "
                             f"{t_final:g} s (on this pace the whole run would need over {MAX_EVALUATIONS}): the "
                             "motion is stiff or blowing up (a controller gain or a force too large?); reduce "
                             "them or shorten t_final")

    def event(t, x):
        bounded_state(x, t, where=where)
        return 1.0

    guard.event = event
    return guard


def bounded_state(x, t: float, *, where: str = "") -> None:
    """Refuse a state of an integration that has blown up (non-finite, or an entry beyond
    :data:`BLOW_UP`): a clear error at once instead of minutes of ever smaller steps.

    Examples
    --------
    >>> import numpy as np
    >>> bounded_state(np.array([0.0, 1e9]), 0.25, where="simulate")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: simulate: the motion blew up at t = 0.25 s (state entry 1 is 1e+09, over 1e+08); a controller gain or a force too large?
    """
    bad = ~np.isfinite(x) | (np.abs(x) > BLOW_UP)
    if bad.any():
        i = int(np.argmax(bad))
        raise ModelError(f"{_pre(where)}the motion blew up at t = {t:.6g} s (state entry {i} is {x[i]:.3g}, over "
                         f"{BLOW_UP:.0e}); a controller gain or a force too large?")


def scalar(x, what: str, *, where: str = "", positive: bool = False, nonneg: bool = False) -> float:
    """A finite real number (optionally > 0 or >= 0).

    Examples
    --------
    >>> scalar("2.5", "mass")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: mass must be a real number, got '2.5' (str); pass a float such as 1.0
    """
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Real, np.number)) or \
            isinstance(x, (complex, np.complexfloating)):
        if isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.number):
            x = x.item()
        else:
            raise ModelError(f"{_pre(where)}{what} must be a real number, got {x!r} ({type(x).__name__}); "
                             "pass a float such as 1.0")
    v = float(x)
    if not np.isfinite(v):
        raise ModelError(f"{_pre(where)}{what} is {v}; give a finite number")
    if positive and not v > 0:
        raise ModelError(f"{_pre(where)}{what} is {v}; it must be > 0")
    if nonneg and v < 0:
        raise ModelError(f"{_pre(where)}{what} is {v}; it must be >= 0")
    return v


def time(t, what: str = "t", *, where: str = "") -> float:
    """A finite time instant (any sign).

    Examples
    --------
    >>> time(0)
    0.0
    """
    return scalar(t, what, where=where)


def time_span(t_final, what: str = "t_final", *, where: str = "") -> float:
    """A finite end time > 0, for every ``simulate``.

    Examples
    --------
    >>> time_span(-1.0, where="refpoint.simulate")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: refpoint.simulate: t_final is -1.0; give a finite end time > 0 in seconds, e.g. t_final=2.0
    """
    try:
        v = scalar(t_final, what, where=where)
    except ModelError:
        v = None
    if v is None or not v > 0:
        shown = t_final if v is None or isinstance(t_final, str) else v
        raise ModelError(f"{_pre(where)}{what} is {shown!r}; give a finite end time > 0 in seconds, "
                         f"e.g. {what}=2.0") from None
    return v


def positive_int(n, what: str, *, where: str = "", minimum: int = 1, maximum: int | None = None) -> int:
    """An integer >= ``minimum`` (and <= ``maximum`` when given; bools and floats refused).

    Examples
    --------
    >>> positive_int(0, "n_out")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: n_out is 0; give an integer >= 1
    >>> positive_int(10**7, "n_cases", maximum=10_000)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: n_cases is 10000000; give an integer <= 10000 (the largest accepted: more would not end in reasonable time)
    """
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (numbers.Integral, np.integer)):
        raise ModelError(f"{_pre(where)}{what} must be an integer, got {n!r} ({type(n).__name__}); "
                         f"give an integer >= {minimum}")
    n = int(n)
    if n < minimum:
        raise ModelError(f"{_pre(where)}{what} is {n}; give an integer >= {minimum}")
    if maximum is not None and n > maximum:
        raise ModelError(f"{_pre(where)}{what} is {n}; give an integer <= {maximum} (the largest accepted: more "
                         "would not end in reasonable time)")
    return n


def _array(x, what: str, where: str) -> np.ndarray:
    if x is None or isinstance(x, (str, bytes, dict, set)):
        raise ModelError(f"{_pre(where)}{what} must be an array of numbers, got {x!r}")
    try:
        raw = np.asarray(x)
        complex_ = np.iscomplexobj(raw) or (raw.dtype == object and any(isinstance(v, complex) for v in raw.flat))
        a = None if complex_ else np.asarray(raw, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{_pre(where)}{what} must be an array of real numbers, got {x!r}") from exc
    if complex_:
        raise ModelError(f"{_pre(where)}{what} has complex entries (dtype {raw.dtype}); give real numbers "
                         f"(np.real(...) if the imaginary parts are round-off)")
    return a


def _finite(a: np.ndarray, what: str, where: str) -> np.ndarray:
    bad = ~np.isfinite(a)
    if bad.any():
        idx = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), a.shape))
        pos = idx[0] if len(idx) == 1 else ", ".join(str(i) for i in idx)
        raise ModelError(f"{_pre(where)}{what}[{pos}] is {a[idx]}; every entry must be a finite number")
    return a


def vector(x, n: int | None, what: str, *, where: str = "", hint: str = "") -> np.ndarray:
    """A finite float vector of length ``n`` (any length when ``n`` is None); a scalar is refused.

    Examples
    --------
    >>> vector([1.0, float("nan")], 2, "tau")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: tau[1] is nan; every entry must be a finite number
    """
    a = _array(x, what, where)
    if a.ndim != 1 or (n is not None and a.shape[0] != n):
        need = f"({n},)" if n is not None else "a 1-D array"
        raise ModelError(f"{_pre(where)}{what} has shape {a.shape}; it must be {need}"
                         + (f" ({hint})" if hint else ""))
    return _finite(a, what, where)


def matrix(x, shape, what: str, *, where: str = "", symmetric: bool = False,
           orthogonal: bool = False, tol: float = 1e-9) -> np.ndarray:
    """A finite float matrix of ``shape`` (an entry None matches any size).

    Examples
    --------
    >>> matrix([[1, 0], [0, 1]], (2, 2), "R", orthogonal=True)
    array([[1., 0.],
           [0., 1.]])
    >>> matrix([[1, 2], [0, 1]], (2, 2), "J", symmetric=True)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: J is not symmetric (|J - J^T| = 2); give a symmetric matrix
    """
    a = _array(x, what, where)
    if a.ndim != len(shape) or any(s is not None and s != d for s, d in zip(shape, a.shape)):
        want = "x".join("n" if s is None else str(s) for s in shape)
        raise ModelError(f"{_pre(where)}{what} has shape {a.shape}; it must be {want}")
    _finite(a, what, where)
    if symmetric:
        err = float(np.max(np.abs(a - a.T))) if a.size else 0.0
        if err > tol * max(1.0, float(np.max(np.abs(a)))):
            raise ModelError(f"{_pre(where)}{what} is not symmetric (|{what} - {what}^T| = {err:.3g}); "
                             "give a symmetric matrix")
    if orthogonal:
        err = float(np.max(np.abs(a.T @ a - np.eye(a.shape[0]))))
        if err > 1e-6 or np.linalg.det(a) < 0:
            raise ModelError(f"{_pre(where)}{what} is not a rotation matrix (|R^T R - I| = {err:.3g}, "
                             f"det = {np.linalg.det(a):.3g}); give an orthonormal matrix with det +1")
    return a


#: relative slack of the triangle inequality J1 + J2 >= J3 (1 - INERTIA_TOL) of principal moments
INERTIA_TOL = 1e-6


def inertia(J, what: str = "inertia", *, where: str = "", triangle: bool = True) -> np.ndarray:
    """A central inertia matrix (kg m^2): finite, 3x3, symmetric, positive definite, and its
    principal moments obey the triangle inequality J1 + J2 >= J3 that every mass distribution does
    (``triangle=False`` skips that last check: a robot file's CAD inertia, loaded with a warning).

    Examples
    --------
    >>> inertia([[1, 0, 0], [0, 1, 0], [0, 0, 3]], "J", where="body 'arm'")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: body 'arm': J has principal moments [1. 1. 3.], which violate the triangle inequality J1 + J2 >= J3 (2 < 3); no rigid body has this inertia: check the units, the axes and the parallel-axis shift
    """
    J = matrix(J, (3, 3), what, where=where, symmetric=True)
    lam = np.linalg.eigvalsh(0.5 * (J + J.T))
    shown = np.array2string(lam, precision=6)
    if not lam[0] > 0:
        raise ModelError(f"{_pre(where)}{what} is not positive definite (principal moments {shown}); give a "
                         "symmetric positive definite inertia matrix (kg m^2)")
    if triangle and violates_triangle(lam):
        raise ModelError(f"{_pre(where)}{what} has principal moments {shown}, which violate the triangle "
                         f"inequality J1 + J2 >= J3 ({lam[0] + lam[1]:.6g} < {lam[2]:.6g}); no rigid body has "
                         "this inertia: check the units, the axes and the parallel-axis shift")
    return J


def violates_triangle(moments) -> bool:
    """True when principal moments (ascending) break J1 + J2 >= J3 beyond :data:`INERTIA_TOL`.

    Examples
    --------
    >>> violates_triangle([1.0, 1.0, 3.0]), violates_triangle([1.0, 1.0, 2.0])
    (True, False)
    """
    lam = np.sort(np.asarray(moments, float))
    return bool(lam[0] + lam[1] < lam[2] * (1 - INERTIA_TOL))


def t_eval(te, t_final: float, *, where: str = ""):
    """None, or strictly increasing output times inside [0, t_final].

    Examples
    --------
    >>> t_eval([0.0, 2.0, 1.0], 2.0, where="simulate")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: simulate: t_eval is not strictly increasing; sort it and drop repeated times
    """
    if te is None:
        return None
    te = vector(np.atleast_1d(te) if np.ndim(te) == 0 and not isinstance(te, str) else te, None, "t_eval",
                where=where)
    if te.size == 0:
        raise ModelError(f"{_pre(where)}t_eval is empty; give at least one output time in [0, t_final] or None")
    if te.min() < 0 or te.max() > t_final:
        raise ModelError(f"{_pre(where)}t_eval has times outside [0, t_final] = [0, {t_final}] "
                         f"(from {te.min():.6g} to {te.max():.6g}); give output times inside the span")
    if np.any(np.diff(te) <= 0):
        raise ModelError(f"{_pre(where)}t_eval is not strictly increasing; sort it and drop repeated times")
    return te


def seed(s, what: str = "seed", *, where: str = ""):
    """None, a non-negative int or a numpy Generator, as ``numpy.random.default_rng`` accepts.

    Examples
    --------
    >>> seed(-1)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: seed is -1; give None, an integer >= 0 or a numpy.random.Generator
    """
    if s is None or isinstance(s, np.random.Generator):
        return s
    if isinstance(s, (bool, np.bool_)) or not isinstance(s, (numbers.Integral, np.integer)) or s < 0:
        raise ModelError(f"{_pre(where)}{what} is {s!r}; give None, an integer >= 0 or a numpy.random.Generator")
    return int(s)


def choice(x, options, what: str, *, where: str = ""):
    """One of a fixed set of options (strings compared exactly).

    Examples
    --------
    >>> choice("joint", ("centroid", "joint", "origin"), "point")
    'joint'
    """
    try:
        ok = x in options
    except TypeError:
        ok = False
    if not ok or isinstance(x, (bool, np.bool_)):
        raise ModelError(f"{_pre(where)}{what}={x!r} is not known; use one of {tuple(options)}")
    return x


def instance(x, cls, what: str, *, where: str = "", hint: str = ""):
    """``x`` itself when it is a ``cls`` (a class or tuple of classes), else a ModelError.

    Examples
    --------
    >>> instance(3, str, "name")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: name must be a str, got int
    """
    if not isinstance(x, cls):
        names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        raise ModelError(f"{_pre(where)}{what} must be a {names}, got {type(x).__name__}"
                         + (f"; {hint}" if hint else ""))
    return x


def flag(x, what: str, *, where: str = "") -> bool:
    """A Python or numpy bool (not an int, string or None).

    Examples
    --------
    >>> flag(1, "floating_base")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: floating_base must be True or False, got 1 (int)
    """
    if not isinstance(x, (bool, np.bool_)):
        raise ModelError(f"{_pre(where)}{what} must be True or False, got {x!r} ({type(x).__name__})")
    return bool(x)


def warn(message: str, *, stacklevel: int = 3) -> None:
    """Issue an :class:`~rfda_teach.errors.RFDAWarning` (a result computed but poorly conditioned).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn("M_hat_3 has condition number 1e14")
    >>> w[0].category.__name__
    'RFDAWarning'
    """
    warnings.warn(message, RFDAWarning, stacklevel=stacklevel)
