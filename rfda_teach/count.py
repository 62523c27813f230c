"""Counting scalar multiplications: one counter, an optional argument of the readable algorithms.

The chapters compare methods by the scalar multiplications of one evaluation (Kang & Yoon's
savings of 36 + 6n + 6m per body, the O(n) of D&G eq. (8)-(12) against the O(n^3) of the joint-space
baseline).
The count is taken while the algorithm itself runs, never from a second, counted copy of it: an
algorithm that can be counted takes ``tally=None`` and writes its products with the helpers below,
which compute the same numbers in both cases and add to the :class:`Tally` only when one is given.

* a product of an (a x b) and a (b x c) matrix counts abc (a vector is one row or one column);
* an outer product of an a-vector and a b-vector ab, a scalar times an array one per entry (a
  division counts as a multiplication);
* a Cholesky factor of an N x N matrix N(N-1)(N+1)/6 + N(N-1)/2 (:func:`cholesky_count`), the two
  triangular solves that use it N^2 per right-hand side;
* additions, square roots, sines and cosines are not counted.

The counter is passed explicitly (there is no global state); ``step`` names the part of the
algorithm being counted, so a :class:`Tally` holds the counts by step.  The helpers check the
counter (anything but None or a :class:`Tally` is a :class:`~rfda_teach.errors.ModelError`), not
the arrays: they run in the algorithms' inner loops on arrays their callers have checked.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import count
>>> A, b = np.ones((2, 3)), np.ones(3)
>>> count.mm(None, A, b)                   # nobody counts: just A @ b
array([3., 3.])
>>> t = count.Tally(step="kinematics")
>>> _ = count.mm(t, A, b); _ = count.scale(t, 2.0, A)
>>> t.counts, t.total
(Counter({'kinematics': 12}), 12)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import LinAlgError
from scipy.linalg.lapack import dpotrf, dpotrs

from . import _check
from .errors import ConstraintRankError
from .spatial import cross as _cross, skew as _skew

__all__ = ["Tally", "check", "add", "set_step", "mm", "outer", "scale", "chol", "solve", "cholesky_count"]


def _cho_factor(A):
    """scipy.linalg.cho_factor(A, lower=True, check_finite=False), by the same LAPACK call (dpotrf)
    without scipy's wrapper, which costs ten times the factorisation itself on a 6 x 6 block."""
    c, info = dpotrf(A, lower=1, clean=0)
    if info > 0:
        raise LinAlgError(f"{info}-th leading minor of the array is not positive definite")
    if info < 0:
        raise ValueError(f"LAPACK reported an illegal value in {-info}-th argument of dpotrf")
    return c, True


def _cho_solve(fac, B, check_finite: bool = False):
    """scipy.linalg.cho_solve(fac, B) by the same LAPACK call (dpotrs) without scipy's wrapper."""
    c, lower = fac
    if check_finite:
        c, B = np.asarray_chkfinite(c), np.asarray_chkfinite(B)
    else:
        B = np.asarray(B)
    if c.shape[0] != B.shape[0]:
        raise ValueError(f"incompatible dimensions ({c.shape} and {B.shape})")
    x, info = dpotrs(c, B, lower=int(lower))
    if info != 0:
        raise ValueError(f"LAPACK reported an illegal value in {-info}-th argument of dpotrs")
    return x


@dataclass(eq=False)
class Tally:
    """Counts scalar multiplications by step (a :class:`collections.Counter`); ``step`` names the
    step being computed.  Passed explicitly - there is no global state.

    Examples
    --------
    >>> import numpy as np
    >>> t = Tally()
    >>> _ = t.mm(np.ones((2, 3)), np.ones((3, 4)))
    >>> t.total
    24
    """

    counts: Counter = field(default_factory=Counter)
    step: str = "other"

    def __post_init__(self):
        _check.instance(self.counts, Counter, "counts", where="count.Tally",
                        hint="leave it out (a new Tally starts from an empty collections.Counter)")
        _check.instance(self.step, str, "step", where="count.Tally", hint="name the step, e.g. 'kinematics'")

    @property
    def total(self) -> int:
        """All multiplications counted so far."""
        return int(sum(self.counts.values()))

    def add(self, n: int) -> None:
        """Count n multiplications in the current step."""
        self.counts[self.step] += int(n)

    def mm(self, A, B):
        """Dense product A @ B (rows x inner x cols multiplications); a 1-D A is taken as one row."""
        A = A if type(A) is np.ndarray else np.asarray(A)      # (plain checks: this runs in every
        B = B if type(B) is np.ndarray else np.asarray(B)      # counted product, thousands per step)
        if A.ndim < 2:
            A = A.reshape(1, -1)                               # numpy.atleast_2d, without its overhead
        self.counts[self.step] += A.shape[0] * A.shape[1] * (B.shape[1] if B.ndim == 2 else 1)
        return A @ B

    def cross(self, a, b):
        """a x b (6 multiplications)."""
        self.add(6)
        return _cross(a, b, check=False)

    def cross_cols(self, a, B):
        """[a]x B for a 3 x k matrix B (6 per column)."""
        B = np.asarray(B)
        self.add(6 * (B.shape[1] if B.ndim == 2 else 1))
        return _skew(a, check=False) @ B

    def scale(self, s, A):
        """s * A (one multiplication per entry)."""
        A = np.asarray(A)
        self.add(A.size)
        return s * A

    def chol(self, A):
        """Cholesky factor of an n x n matrix: n(n-1)(n+1)/6 + n(n-1)/2 multiplications (and n roots)."""
        n = A.shape[0]
        self.add(_cholesky_count(n))
        try:
            return _cho_factor(A)
        except np.linalg.LinAlgError:
            raise ConstraintRankError(f"a {n}x{n} matrix that must be positive definite is not "
                                      f"(rank {np.linalg.matrix_rank(A)}); the cut-joint constraints are "
                                      "dependent or a body has no inertia in a free direction") from None

    def solve(self, fac, B):
        """Forward and back substitution for every column of B: n^2 per column."""
        n = fac[0].shape[0]
        B = np.asarray(B)
        self.add(n * n * (B.shape[1] if B.ndim == 2 else 1))
        return _cho_solve(fac, B)


def check(tally, *, where: str = ""):
    """``tally`` if it is None or a :class:`Tally`, else a :class:`~rfda_teach.errors.ModelError`
    (for the public functions that take ``tally=``).

    Examples
    --------
    >>> check(None) is None
    True
    >>> check("t", where="rfda.solve")
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: rfda.solve: tally must be a Tally, got str; give None or rfda_teach.count.Tally()
    """
    if tally is None:
        return None
    return _check.instance(tally, Tally, "tally", where=where, hint="give None or rfda_teach.count.Tally()")


def _counter(c, where: str) -> Tally:
    """``c`` when it is a Tally (the helpers' cheap check; ``c`` is not None here)."""
    return c if isinstance(c, Tally) else check(c, where=where)


def add(c, n: int) -> None:
    """Count n multiplications in the Tally ``c``; nothing when ``c`` is None (for counts given by a
    formula, e.g. the p^3 of a p x p inverse).

    Examples
    --------
    >>> t = Tally(); add(t, 27); add(None, 27); t.total
    27
    """
    if c is not None:
        _counter(c, "count.add").add(n)


def set_step(c, step: str) -> None:
    """Name the step that the following multiplications count in; nothing when ``c`` is None.

    Examples
    --------
    >>> t = Tally(); set_step(t, "leaves to root"); add(t, 4); set_step(None, "ignored"); dict(t.counts)
    {'leaves to root': 4}
    """
    if c is not None:
        check(c, where="count.set_step").step = _check.instance(step, str, "step", where="count.set_step")


def mm(c, A, B):
    """A @ B, counted in the Tally ``c`` (rows x inner x cols multiplications) when ``c`` is given.

    A 1-D ``A`` is one row, a 1-D ``B`` one column, so a dot product of two n-vectors counts n.

    Examples
    --------
    >>> import numpy as np
    >>> t = Tally()
    >>> mm(t, np.ones((2, 3)), np.ones((3, 4))).shape, t.total         # 2 * 3 * 4
    ((2, 4), 24)
    >>> float(mm(t, np.ones(3), np.ones(3))), t.total                   # + 3
    (3.0, 27)
    >>> mm(None, np.eye(2), np.array([1.0, 2.0]))
    array([1., 2.])
    """
    if c is not None:
        sa, sb = np.shape(A), np.shape(B)
        _counter(c, "count.mm").add((sa[0] if len(sa) == 2 else 1) * sa[-1] * (sb[1] if len(sb) == 2 else 1))
    return A @ B


def outer(c, a, b):
    """np.outer(a, b), counted (len(a) len(b) multiplications) when ``c`` is given.

    Examples
    --------
    >>> import numpy as np
    >>> t = Tally()
    >>> outer(t, [1.0, 2.0], [1.0, 0.0, 3.0]).shape, t.total
    ((2, 3), 6)
    """
    if c is not None:
        _counter(c, "count.outer").add(np.size(a) * np.size(b))
    return np.outer(a, b)


def scale(c, s, A):
    """s * A for a scalar s (one multiplication per entry), counted when ``c`` is given.

    Examples
    --------
    >>> import numpy as np
    >>> t = Tally()
    >>> scale(t, 0.5, np.array([2.0, 4.0])), t.total
    (array([1., 2.]), 2)
    >>> scale(None, 2.0, 3.0)
    6.0
    """
    if c is not None:
        _counter(c, "count.scale").add(np.size(A))
    return s * A


def cholesky_count(n: int) -> int:
    """Multiplications of the Cholesky factor of an n x n matrix: n(n-1)(n+1)/6 + n(n-1)/2
    (divisions counted as multiplications, the n square roots not counted).

    Examples
    --------
    >>> cholesky_count(3), cholesky_count(64)
    (7, 45696)
    """
    return _cholesky_count(_check.positive_int(n, "n", where="count.cholesky_count", minimum=0))


def _cholesky_count(n: int) -> int:
    return n * (n - 1) * (n + 1) // 6 + n * (n - 1) // 2


def chol(c, A):
    """Lower Cholesky factor (scipy.linalg.cho_factor) of an n x n matrix, counted as
    :func:`cholesky_count` (n) when ``c`` is given.  A matrix that is not positive definite
    raises numpy's ``LinAlgError``: the caller knows what the matrix is and says so.

    Examples
    --------
    >>> import numpy as np
    >>> t = Tally()
    >>> fac = chol(t, np.diag([4.0, 9.0]))
    >>> np.diag(fac[0]), t.total
    (array([2., 3.]), 2)
    """
    if c is not None:
        _counter(c, "count.chol").add(_cholesky_count(A.shape[0]))
    return _cho_factor(A)


def solve(c, fac, B, *, check_finite: bool = True):
    """A^-1 B from the Cholesky factor ``fac`` of A (scipy.linalg.cho_solve, whose ``check_finite``
    it passes on): n^2 multiplications per column of B when ``c`` is given.

    Examples
    --------
    >>> import numpy as np
    >>> t = Tally()
    >>> solve(t, chol(None, np.diag([4.0, 9.0])), np.array([4.0, 9.0])), t.total
    (array([1., 1.]), 4)
    """
    if c is not None:
        n = fac[0].shape[0]
        _counter(c, "count.solve").add(n * n * (B.shape[1] if np.ndim(B) == 2 else 1))
    return _cho_solve(fac, B, check_finite)
