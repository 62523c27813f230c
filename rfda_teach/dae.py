"""The absolute-coordinate DAE, D&G eq. (7), assembled and solved densely: the O(n^3) reference.

D&G eq. (7), for every node j,

    M_j yddot_j + G_j^T lam_j = f_j - sum_{k: P(k)=j} Q_k^T lam_k
    G_j yddot_j               = gamma_j - Q_j yddot_{P(j)}

is one linear system in (yddot, lam),

    [ M   C^T ] [yddot]   [  f  ]
    [ C   0   ] [ lam ] = [gamma],

where M = diag(M_0, ..., M_n) and row block k of C holds G_k in the columns of
body k and Q_k in the columns of its parent.  The cut joints of a closed system
(``system.cuts``, :class:`rfda_teach.system.Cut`) add their rows C_x yddot = gamma_x
below the tree's, G in the columns of the cut's child and Q in those of its parent,
with their multipliers after the joints' in lam.  Every recursive result in this
package is checked against :func:`forward_dynamics` here.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import models, dae
>>> sys = models.featherstone_sliders(m1=1.0, m2=2.0, gravity=(0.0, -1.0))
>>> st = models.random_state(sys, seed=0)
>>> res = dae.forward_dynamics(sys, st)
>>> np.round(res.ydd, 12) + 0.0      # body 1 cannot move vertically, body 2 falls
array([ 0.,  0.,  0., -1.])
>>> res.K.shape
(6, 6)
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from . import _check
from .errors import ConstraintRankError, IllConditionedError, ModelError
from .system import System, Terms, check_terms, terms

__all__ = ["DAEResult", "assemble", "assemble_terms", "cut_rows", "forward_dynamics", "solve"]


@dataclass(frozen=True, eq=False)
class DAEResult:
    """Solution of D&G eq. (7): accelerations ``ydd``, multipliers ``lam`` (joint order),
    and the assembled matrix ``K`` and right-hand side ``rhs`` for display."""

    ydd: np.ndarray
    lam: np.ndarray
    K: np.ndarray
    rhs: np.ndarray
    n_vel: int

    def __repr__(self) -> str:
        """One line: the size of K in D&G eq. (7), split into velocities (rows of M) and constraint rows (of C),
        and the sizes of yddot and lam.

        Examples
        --------
        >>> from rfda_teach import models
        >>> sys = models.figure1_tree()
        >>> forward_dynamics(sys, models.random_state(sys, seed=0))
        DAEResult: K 65 x 65 (39 velocities + 26 constraint rows), ydd (39,), lam (26,)
        """
        n = len(self.rhs)
        return (f"DAEResult: K {n} x {n} ({self.n_vel} velocities + {n - self.n_vel} constraint rows), "
                f"ydd {np.shape(self.ydd)}, lam {np.shape(self.lam)}")

    @property
    def M(self) -> np.ndarray:
        """Block-diagonal mass matrix diag(M_0, ..., M_n)."""
        return self.K[: self.n_vel, : self.n_vel]

    @property
    def C(self) -> np.ndarray:
        """Constraint Jacobian (rows G_k and Q_k of every joint)."""
        return self.K[self.n_vel:, : self.n_vel]


def assemble(system: System, state, t: float = 0.0, *, tau=None, f_ext=None, extra=None, check: bool = True):
    """Assemble D&G eq. (7): return (K, rhs) with K = [[M, C^T], [C, 0]], rhs = [f; gamma].


    Examples
    --------
    >>> from rfda_teach import models
    >>> K, rhs = assemble(models.featherstone_sliders(), models.random_state(models.featherstone_sliders(), seed=1))
    >>> K[4:, :4]                      # rows (13b) and (14b): C = [[0 1 0 0], [-1 0 1 0]]
    array([[ 0.,  1.,  0.,  0.],
           [-1.,  0.,  1.,  0.]])
    """
    return assemble_terms(system, terms(system, state, t, tau=tau, f_ext=f_ext, check=check), extra)


#: the most rows (n_vel + n_constraints) of the dense D&G eq. (7): 6000 rows are a 0.3 GB matrix and a
#: solve of about a minute; the O(n) recursion has no such limit
MAX_DENSE = 6000


def assemble_terms(system: System, tr: Terms, extra=None):
    """D&G eq. (7) from already evaluated per-body and per-joint terms (see :func:`rfda_teach.system.terms`).


    Examples
    --------
    >>> from rfda_teach import models, dae
    >>> from rfda_teach.system import terms
    >>> sys = models.featherstone_sliders(); K, rhs = dae.assemble_terms(sys, terms(sys, models.random_state(sys)))
    >>> K.shape, rhs.shape
    ((6, 6), (6,))
    """
    check_terms(system, tr, "dae.assemble_terms")
    nv, nc = system.n_vel, system.n_constraints + system.n_cut_constraints
    if nv + nc > MAX_DENSE:
        raise ModelError(f"system {system.name!r}: eq. (7) would be a dense {nv + nc} x {nv + nc} matrix "
                         f"({(nv + nc) ** 2 * 8 / 1e9:.1f} GB), over the {MAX_DENSE} rows the dense reference "
                         "is meant for; use rfda.forward_dynamics (O(n), the same accelerations)")
    K = np.zeros((nv + nc, nv + nc))
    rhs = np.zeros(nv + nc)
    vs, cs = system.vel_slices, system.con_slices
    for i in range(system.n):
        K[vs[i], vs[i]] = tr.M[i]                              # D&G eq. (6)
        rhs[vs[i]] = tr.f[i]
    for k, jt in enumerate(tr.joint):
        rows = slice(nv + cs[k].start, nv + cs[k].stop)
        K[rows, vs[k]] = jt.G                                  # D&G eq. (7), second line
        j = system.parents[k]
        if j >= 0:
            K[rows, vs[j]] = jt.Q
        rhs[rows] = jt.gamma
    if system.cuts:                                            # rows C_x yddot = gamma_x of the cut joints
        n_tree = system.n_constraints
        K[nv + n_tree:, :nv], rhs[nv + n_tree:] = _cut_rows(system, tr)
    K[:nv, nv:] = K[nv:, :nv].T                                # G_j^T lam_j and Q_k^T lam_k
    if extra is not None:                                      # rows C_x ydd = gamma_x given by hand
        C_x, g_x = _extra(extra, nv)
        k = C_x.shape[0]
        K2 = np.zeros((nv + nc + k, nv + nc + k))
        K2[:nv + nc, :nv + nc] = K
        K2[nv + nc:, :nv] = C_x
        K2[:nv, nv + nc:] = C_x.T
        K, rhs = K2, np.concatenate([rhs, g_x])
    return K, rhs


def cut_rows(system: System, tr: Terms) -> tuple:
    """(C_x, gamma_x): the rows C_x yddot = gamma_x of the cut joints, full width (n_vel columns), as
    :func:`assemble_terms` appends them to D&G eq. (7).

    Cut joint c writes the rows its joint would write between a child and its parent (D&G eq. 3):
    G in the columns of ``cut.child``, Q in those of ``cut.parent``, none for the ground.  Empty
    (0 rows) for a tree.

    Examples
    --------
    >>> from rfda_teach import models
    >>> from rfda_teach.system import terms
    >>> sys = models.chain(2); C_x, gamma_x = cut_rows(sys, terms(sys, models.random_state(sys, seed=0)))
    >>> C_x.shape, gamma_x.shape
    ((0, 6), (0,))
    """
    check_terms(system, tr, "dae.cut_rows")
    return _cut_rows(system, tr)


def _cut_rows(system: System, tr: Terms) -> tuple:
    vs, n0 = system.vel_slices, system.n_constraints
    C_x = np.zeros((system.n_cut_constraints, system.n_vel))
    gamma_x = np.zeros(system.n_cut_constraints)
    for cut, cs, tc in zip(system.cuts, system.cut_slices, tr.cut):
        rows = slice(cs.start - n0, cs.stop - n0)
        if cut.child >= 0:
            C_x[rows, vs[cut.child]] += tc.G                   # D&G eq. (3) for the cut joint
        if cut.parent >= 0:
            C_x[rows, vs[cut.parent]] += tc.Q
        gamma_x[rows] = tc.gamma
    return C_x, gamma_x


def forward_dynamics(system: System, state, t: float = 0.0, *, tau=None, f_ext=None, extra=None,
                     check: bool = True) -> DAEResult:
    """Solve D&G eq. (7) densely for (yddot, lam); O(n^3) by LU/LDL^T factorisation.

    The cut joints of ``system.cuts`` append their rows C_x yddot = gamma_x (closed loops); their
    multipliers follow the joints' in ``lam``.  ``extra`` = (C_x, gamma_x) is a compatibility path for
    rows built by hand: they are appended after the cuts' rows (and their multipliers after the
    cuts').  Rows that depend on others (a constraint Jacobian without full row rank) raise
    ConstraintRankError naming them.  With ``check`` (default) the state must satisfy every joint and
    every cut joint (:func:`rfda_teach.system.check_consistency`).


    Examples
    --------
    >>> from rfda_teach import models, dae
    >>> sys = models.figure1_tree(); res = dae.forward_dynamics(sys, models.random_state(sys, seed=0))
    >>> res.ydd.shape, res.lam.shape
    ((39,), (26,))

    A closed loop, the slider-crank: crank (body 0) and connecting rod (body 1) hang from the origin,
    the slider (body 2) runs on a ground rail along x; a cut revolute joint pins the rod's far end to
    the slider (a model holds its cut joints; see :class:`rfda_teach.system.Cut`).

    >>> from rfda_teach.bodies import Body
    >>> from rfda_teach.joints import Joint
    >>> from rfda_teach.system import Cut, System
    >>> sc = System((-1, 0, -1), (Body("planar", 1.0, 1 / 12), Body("planar", 2.0, 8 / 12), Body("planar", 0.5, 0.01)),
    ...             (Joint("revolute2d", child_point=[-0.5, 0.0]),
    ...              Joint("revolute2d", parent_point=[0.5, 0.0], child_point=[-1.0, 0.0]), Joint("prismatic2d")),
    ...             (0.0, -9.81), cuts=(Cut(1, 2, Joint("revolute2d", parent_point=[1.0, 0.0])),))
    >>> th = np.pi / 3; phi = -np.arcsin(np.sin(th) / 2)     # crank and rod angles that close the loop
    >>> st = models.state_from_joints(sc, [[th], [phi - th], [np.cos(th) + 2 * np.cos(phi)]], [[0.0]] * 3)
    >>> res = dae.forward_dynamics(sc, st)
    >>> res.lam.shape                                # 2 + 2 + 2 tree joint rows, then 2 cut rows
    (8,)
    >>> np.round(res.ydd[6:], 6) + 0.0               # the slider accelerates along its rail only
    array([2.654299, 0.      , 0.      ])
    """
    return solve(system, terms(system, state, t, tau=tau, f_ext=f_ext, check=check), extra)


def solve(system: System, tr: Terms, extra=None) -> DAEResult:
    """Assemble and solve D&G eq. (7) from evaluated terms: the O(n^3) stage alone.


    Examples
    --------
    >>> from rfda_teach import models, dae
    >>> from rfda_teach.system import terms
    >>> sys = models.planar_revolute_pair(); st = models.random_state(sys, seed=0)
    >>> bool((dae.solve(sys, terms(sys, st)).ydd == dae.forward_dynamics(sys, st).ydd).all())
    True
    """
    K, rhs = assemble_terms(system, tr, extra)
    nv = system.n_vel
    if extra is not None or system.cuts:
        # a user's extra rows may repeat a joint row; the LDL^T solve does not always notice
        # (SciPy >= 1.15 returns a finite answer for the exactly singular K without a warning)
        _dependent_rows(system, K, nv)
    x, trouble = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", scipy.linalg.LinAlgWarning)
        try:
            x = scipy.linalg.solve(K, rhs, assume_a="sym", check_finite=False)
        except (np.linalg.LinAlgError, scipy.linalg.LinAlgError) as exc:
            trouble = f"the factorisation failed: {exc}"
    if trouble is None and not np.all(np.isfinite(x)):
        trouble = "the solution is not finite"
    if trouble is None and any(issubclass(w.category, scipy.linalg.LinAlgWarning) for w in caught):
        trouble = "reciprocal condition number below machine precision"
    if trouble is not None:
        _diagnose(system, K, nv, trouble, usable=x is not None and bool(np.all(np.isfinite(x))))
    return DAEResult(x[:nv], x[nv:], K, rhs, nv)


def _extra(extra, nv: int):
    """Validate extra rows (C_x, gamma_x) for D&G eq. (7)."""
    try:
        C_x, g_x = extra
    except (TypeError, ValueError):
        raise ModelError("extra must be a pair (C_x, gamma_x): C_x of shape (k, n_vel), gamma_x of length k") from None
    C_x = np.atleast_2d(_check.matrix(C_x, (None, nv), "extra C_x", where="dae"))
    g_x = _check.vector(np.ravel(_check._array(g_x, "extra gamma_x", "dae")), C_x.shape[0], "extra gamma_x",
                        where="dae")
    return C_x, g_x


def _row_labels(system: System, k_extra: int) -> list:
    out = []
    for k in range(system.n):
        out += [f"joint {k} row {r}" for r in range(system.con_slices[k].stop - system.con_slices[k].start)]
    for c, (cut, cs) in enumerate(zip(system.cuts, system.cut_slices)):
        out += [f"cut joint {c} ({cut.name!r}) row {r}" for r in range(cs.stop - cs.start)]
    return out + [f"extra row {r}" for r in range(k_extra)]


def _diagnose(system: System, K: np.ndarray, nv: int, trouble: str, usable: bool) -> None:
    """Find dependent constraint rows of D&G eq. (7) by QR with column pivoting of C^T; raise
    ConstraintRankError naming them; otherwise warn that D&G eq. (7) is ill-conditioned (or raise
    IllConditionedError when no finite solution came out)."""
    _dependent_rows(system, K, nv)
    msg = (f"system {system.name!r}: eq. (7) is ill-conditioned ({trouble}) although its constraint rows "
           "are independent; this comes from extreme mass, inertia or length ratios")
    if not usable:
        raise IllConditionedError(msg + "; rescale the model (units) or use rfda.forward_dynamics(..., "
                                  "form='featherstone'), which is stable at large mass ratios")
    _check.warn(msg + "; the result may have lost many digits (compare with rfda form='featherstone')",
                stacklevel=4)


def _dependent_rows(system: System, K: np.ndarray, nv: int) -> None:
    """Raise ConstraintRankError naming the constraint rows of D&G eq. (7) that depend on the others
    (QR with column pivoting of C^T)."""
    C = K[nv:, :nv]
    labels = _row_labels(system, C.shape[0] - system.n_constraints - system.n_cut_constraints)
    if C.shape[0]:
        _, R, piv = scipy.linalg.qr(C.T, mode="economic", pivoting=True, check_finite=False)
        d = np.abs(np.diag(R))
        tol = max(C.shape) * np.finfo(float).eps * (d[0] if d.size else 1.0)
        rank = int(np.sum(d > tol))
        if rank < C.shape[0]:
            dep = sorted(int(i) for i in piv[rank:])
            names = ", ".join(labels[i] for i in dep)
            raise ConstraintRankError(
                f"system {system.name!r}: the constraint rows of eq. (7) have rank {rank} of {C.shape[0]}; "
                f"{names} depend(s) on the other rows; remove the duplicated or dependent rows "
                "(the paper assumes independent constraints, §2)")
