"""The O(n) recursive forward dynamics algorithm (RFDA), §2 of Deepak & Ghosal.

Step 1 (leaves to root) forms at every node j the equations of RFDA, D&G eq. (8),

    M_hat_j yddot_j + G_j^T lam_j = f_hat_j,
    G_j yddot_j = gamma_j - Q_j yddot_P(j),

with M_hat_j, f_hat_j either in the Lubich form, D&G eq. (9)-(10), or in the
Featherstone / Bae-Haug form, D&G eq. (11)-(12).  Step 2 (root to leaves) solves
D&G eq. (8) node by node for yddot_j and lam_j.  No matrix larger than one body's
block (p_j x p_j) is ever formed, so the cost is O(n).

Featherstone form: B_k, H_k, c_k come from Appendix A, D&G eq. (60)-(61),
[E_k D_k] = [G_k; G_kd]^{-1}, B_k = -(E_k Q_k + D_k Q_kd), H_k = D_k.  The
velocity term of D&G eq. (5) is obtained without differentiating B_k: the second
time derivative of D&G eq. (59) gives d_k = E_k gamma_k + D_k gamma_kd.  In D&G eq. (12)
the paper prints f_k; for a non-terminal child it must read f_hat_k (for the
two-node system of §5.3 they coincide) and that is what is implemented.

Both forms take an optional ``tally`` (a :class:`rfda_teach.count.Tally`) and count their scalar
multiplications while they run (:func:`rfda_teach.jointspace.count_multiplications` reports them);
without one they just compute, with the same numbers.

Examples
--------
>>> import numpy as np
>>> from rfda_teach import models, dae, rfda
>>> sys = models.random_tree(6, kind="spatial", seed=3)
>>> st = models.random_state(sys, seed=4)
>>> ref = dae.forward_dynamics(sys, st)
>>> a = rfda.forward_dynamics(sys, st, form="lubich")
>>> b = rfda.forward_dynamics(sys, st, form="featherstone")
>>> bool(np.allclose(a.ydd, ref.ydd) and np.allclose(b.ydd, ref.ydd) and np.allclose(b.lam, ref.lam))
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import LinAlgError

from . import _check, count
from .count import chol, mm, set_step, solve as cho_solve  # scipy's, counted when a Tally is given
from .errors import IllConditionedError, RFDAError
from .coordinates import appendix_a
from .system import System, Terms, check_terms, require_tree, terms

__all__ = ["RFDAResult", "forward_dynamics", "solve", "joint_accelerations", "FORMS", "COND_WARN"]

FORMS = ("lubich", "featherstone")


@dataclass(frozen=True, eq=False)
class RFDAResult:
    """Accelerations ``ydd`` and multipliers ``lam`` (same layout as :mod:`rfda_teach.dae`),
    joint accelerations ``qdd``, and per node the M_hat_j, f_hat_j of D&G eq. (8)."""

    ydd: np.ndarray
    lam: np.ndarray
    qdd: np.ndarray
    M_hat: list
    f_hat: list
    form: str

    def __repr__(self) -> str:
        """One line: the form of D&G eq. (8), the number of bodies (one M_hat_j per node) and the sizes of
        yddot, lam and qddot.

        Examples
        --------
        >>> from rfda_teach import models
        >>> sys = models.figure1_tree()
        >>> forward_dynamics(sys, models.random_state(sys, seed=0))
        RFDAResult(form='lubich'): 13 bodies, ydd (39,), lam (26,), qdd (13,)
        """
        return (f"RFDAResult(form={self.form!r}): {len(self.M_hat)} bodies, ydd {np.shape(self.ydd)}, "
                f"lam {np.shape(self.lam)}, qdd {np.shape(self.qdd)}")


#: the Lubich form warns when a Cholesky factor's condition estimate exceeds this (about 8 digits lost)
COND_WARN = 1e8

#: ... and refuses beyond this (1/eps: no digit of yddot and lam can be trusted)
COND_FAIL = 1.0 / np.finfo(float).eps


def _chol(A: np.ndarray, what: str, form: str, tally=None):
    """Cholesky factor of a matrix that is positive definite in exact arithmetic (every M_i is, and
    G_k has full row rank by construction); a failure is a floating-point breakdown."""
    try:
        fac = chol(tally, A)
    except (LinAlgError, np.linalg.LinAlgError, ValueError):
        fac = None
    if fac is None or not np.all(np.isfinite(fac[0])):
        alt = ("form='featherstone', which stays accurate at large mass ratios" if form == "lubich"
               else "dae.forward_dynamics (eq. 7) or rescale the model's units")
        raise IllConditionedError(
            f"{what} lost positive definiteness in floating point (condition estimate "
            f"{_cond_estimate(A):.1e}); it is positive definite in exact arithmetic, so the cause is "
            f"extreme mass or inertia ratios between bodies; use {alt}") from None
    return fac


def _cond_estimate(A: np.ndarray, fac=None) -> float:
    """Cheap condition estimate of an SPD matrix: (max/min diagonal of its Cholesky factor)^2,
    a lower bound that tracks cond(A) within a factor of a few for the M_hat of D&G eq. (9)."""
    if A.size == 0:
        return 1.0
    if fac is None:
        d = np.abs(np.diag(A))
        return float(d.max() / d.min()) if d.min() > 0 else np.inf
    d = np.abs(np.diag(fac[0]))
    return float((d.max() / d.min()) ** 2) if d.min() > 0 else np.inf


def forward_dynamics(system: System, state, t: float = 0.0, form: str = "lubich", *, tau=None,
                     f_ext=None, check: bool = True) -> RFDAResult:
    """Two-stage O(n) forward dynamics, Lubich form D&G eq. (9)-(10) or Featherstone form D&G eq. (11)-(12).

    Returns the same ``ydd`` and ``lam`` as :func:`rfda_teach.dae.forward_dynamics`.  The system must
    be a tree: cut joints (``system.cuts``) raise ModelError (solve them with the DAE).  With
    ``check`` (default) the state must satisfy every joint
    (:func:`rfda_teach.system.check_consistency`); integrators pass ``check=False``.  The Lubich
    form issues an :class:`~rfda_teach.errors.RFDAWarning` when a factor's condition estimate
    exceeds :data:`COND_WARN` (extreme mass ratios); the Featherstone form stays accurate there.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, rfda
    >>> sys = models.featherstone_sliders(m1=1.0, m2=2.0)
    >>> r = rfda.forward_dynamics(sys, models.random_state(sys, seed=0), form="featherstone")
    >>> r.M_hat[0]                       # D&G eq. (15): diag(m1 + m2, m1)
    array([[3., 0.],
           [0., 1.]])
    """
    _check.choice(form, FORMS, "form", where="rfda.forward_dynamics")
    require_tree(system, "rfda.forward_dynamics")
    return solve(system, terms(system, state, t, tau=tau, f_ext=f_ext, check=check), form)


def solve(system: System, tr: Terms, form: str = "lubich", *, tally=None) -> RFDAResult:
    """Both stages of the RFDA from evaluated terms (see :func:`rfda_teach.system.terms`).

    ``tally`` (a :class:`~rfda_teach.count.Tally`) counts the scalar multiplications as they are
    performed, by step: "lubich leaves-to-root" (D&G eq. 9-10), "lubich root-to-leaves" (D&G eq. 8) and
    "joint accelerations" (D&G eq. 59); or "appendix A" (D&G eq. 60-61), "featherstone leaves-to-root"
    (D&G eq. 11-12), "featherstone root-to-leaves" (D&G eq. 5, with qddot_k) and "multipliers" (lam_k).

    Examples
    --------
    >>> from rfda_teach import models, rfda
    >>> from rfda_teach.system import terms
    >>> sys = models.chain(3); st = models.random_state(sys, seed=0)
    >>> rfda.solve(sys, terms(sys, st), "lubich").qdd.shape
    (3,)
    >>> from rfda_teach.count import Tally
    >>> t = Tally()
    >>> _ = rfda.solve(sys, terms(sys, st), "featherstone", tally=t)
    >>> t.total, list(t.counts)
    (491, ['appendix A', 'featherstone leaves-to-root', 'featherstone root-to-leaves', 'multipliers'])
    """
    _check.choice(form, FORMS, "form", where="rfda.solve")
    check_terms(system, tr, "rfda.solve")
    require_tree(system, "rfda.solve")
    tally = count.check(tally, where="rfda.solve")
    try:
        with np.errstate(over="ignore", invalid="ignore"):      # reported below, as an error
            if form == "lubich":
                ydd, lam, Mh, fh = _lubich(system, tr, tally)
                qdd = _joint_accelerations(system, tr, ydd, tally)
            else:
                ydd, lam, Mh, fh = _featherstone(system, tr, tally)
                qdd = _joint_accelerations(system, tr, ydd)   # the sweep had qddot_k (counted there)
    except ValueError as e:         # scipy's check_finite: an intermediate overflowed to inf
        if isinstance(e, RFDAError):
            raise
        ydd = None
    if ydd is None or not (np.all(np.isfinite(ydd)) and np.all(np.isfinite(lam))):
        raise IllConditionedError(
            f"rfda.solve ({form}) on system {system.name!r}: the accelerations are not finite although "
            "every input is: a force, a product of inertia and velocity or a sum of them overflows "
            "in floating point; rescale the model (units) so that forces stay far below 1e300") from None
    return RFDAResult(ydd, lam, qdd, Mh, fh, form)


def joint_accelerations(system: System, tr: Terms, ydd) -> np.ndarray:
    """qddot_k = Q_kd yddot_j + G_kd yddot_k - gamma_kd for every joint (D&G eq. 59, differentiated).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, dae, rfda
    >>> from rfda_teach.system import terms
    >>> sys = models.chain(3); st = models.random_state(sys, seed=0); tr = terms(sys, st)
    >>> bool(np.allclose(rfda.joint_accelerations(sys, tr, dae.solve(sys, tr).ydd), rfda.solve(sys, tr).qdd))
    True
    """
    check_terms(system, tr, "rfda.joint_accelerations")
    ydd = _check.vector(ydd, system.n_vel, "ydd", where="rfda.joint_accelerations")
    return _joint_accelerations(system, tr, ydd)


def _joint_accelerations(system: System, tr, ydd, tally=None) -> np.ndarray:
    set_step(tally, "joint accelerations")
    qdd = np.zeros(system.n_dof)
    vs = system.vel_slices
    for k, jt in enumerate(tr.joint):
        j = system.parents[k]
        acc = mm(tally, jt.G_d, ydd[vs[k]]) - jt.gamma_d
        if j >= 0:
            acc = acc + mm(tally, jt.Q_d, ydd[vs[j]])
        qdd[system.dof_slices[k]] = acc
    return qdd


def _lubich(system: System, tr, tally=None):
    """D&G eq. (9)-(10) leaves-to-root, then D&G eq. (8) root-to-leaves; ``tally`` counts (see :func:`solve`)."""
    par, order = system.parents, system.topology.order
    Mh = [M.copy() for M in tr.M]
    fh = [f.copy() for f in tr.f]
    Mfac, Wfac = [None] * system.n, [None] * system.n
    worst = (1.0, "")
    set_step(tally, "lubich leaves-to-root")
    for k in reversed(order):
        jt = tr.joint[k]
        Mfac[k] = _chol(Mh[k], f"M_hat_{k} (eq. 9, node {k})", "lubich", tally)
        worst = max(worst, (_cond_estimate(Mh[k], Mfac[k]), f"M_hat_{k}"))
        if jt.G.shape[0]:
            X = cho_solve(tally, Mfac[k], jt.G.T)                # M_hat_k^{-1} G_k^T
            W = mm(tally, jt.G, X)
            Wfac[k] = _chol(W, f"G_{k} M_hat_{k}^-1 G_{k}^T (joint {k})", "lubich", tally)
            worst = max(worst, (_cond_estimate(W, Wfac[k]), f"G_{k} M_hat_{k}^-1 G_{k}^T"))
        j = par[k]
        if j >= 0 and jt.G.shape[0]:
            Mh[j] += mm(tally, jt.Q.T, cho_solve(tally, Wfac[k], jt.Q))                    # D&G eq. (9)
            r = jt.gamma - mm(tally, jt.G, cho_solve(tally, Mfac[k], fh[k]))
            fh[j] += mm(tally, jt.Q.T, cho_solve(tally, Wfac[k], r))                       # D&G eq. (10)
    if worst[0] > COND_FAIL:
        # the factorisation went through by luck of rounding (whether it does depends on the BLAS)
        raise IllConditionedError(
            f"system {system.name!r}: the Lubich form cannot resolve this system: {worst[1]} has condition "
            f"estimate {worst[0]:.1e} > 1/eps, so no digit of yddot and lam is reliable; the cause is "
            "extreme mass or inertia ratios between bodies; use form='featherstone' (eq. 11-12), which "
            "stays accurate here")
    if worst[0] > COND_WARN:
        _check.warn(
            f"system {system.name!r}: the Lubich form is ill-conditioned here: {worst[1]} has condition "
            f"estimate {worst[0]:.1e}, so about {np.log10(worst[0] * np.finfo(float).eps) + 16:.0f} of 16 "
            "digits of yddot and lam may be lost (M_hat_j of eq. 9 adds the stiff constraint directions "
            "of heavy subtrees to light bodies); form='featherstone' (eq. 11-12) stays accurate",
            stacklevel=5)
    ydd = np.zeros(system.n_vel)
    lam = np.zeros(system.n_constraints)
    vs, cs = system.vel_slices, system.con_slices
    set_step(tally, "lubich root-to-leaves")
    for j in order:
        jt = tr.joint[j]
        if jt.G.shape[0]:
            rhs = jt.gamma if par[j] < 0 else jt.gamma - mm(tally, jt.Q, ydd[vs[par[j]]])  # D&G eq. (8), 2nd line
            lam_j = cho_solve(tally, Wfac[j], mm(tally, jt.G, cho_solve(tally, Mfac[j], fh[j])) - rhs)
            lam[cs[j]] = lam_j
            ydd[vs[j]] = cho_solve(tally, Mfac[j], fh[j] - mm(tally, jt.G.T, lam_j))     # D&G eq. (8), 1st line
        else:
            ydd[vs[j]] = cho_solve(tally, Mfac[j], fh[j])
    return ydd, lam, Mh, fh


def _featherstone(system: System, tr, tally=None):
    """D&G eq. (11)-(12) leaves-to-root with B_k, H_k, d_k of D&G eq. (61), then D&G eq. (5) root-to-leaves, then
    the multipliers; ``tally`` counts (see :func:`solve`)."""
    par, order = system.parents, system.topology.order
    Mh = [M.copy() for M in tr.M]
    fh = [f.copy() for f in tr.f]
    set_step(tally, "appendix A")
    EBHd = [appendix_a(jt.G, jt.G_d, jt.Q, jt.Q_d, jt.gamma, jt.gamma_d, check=False, tally=tally)
            for jt in tr.joint]                                  # E_k, D_k, B_k, H_k, d_k
    Dfac = [None] * system.n
    set_step(tally, "featherstone leaves-to-root")
    for k in reversed(order):
        E, D, B, H, d = EBHd[k]
        U = mm(tally, Mh[k], H)                                  # M_hat_k H_k
        Dfac[k] = _chol(mm(tally, H.T, U), f"H_{k}^T M_hat_{k} H_{k} (node {k})", "featherstone", tally)
        j = par[k]
        if j >= 0:
            P = Mh[k] - mm(tally, U, cho_solve(tally, Dfac[k], U.T))   # (I - M H (H^T M H)^-1 H^T) M
            r = fh[k] - mm(tally, Mh[k], d)
            p = r - mm(tally, U, cho_solve(tally, Dfac[k], mm(tally, H.T, r)))
            Mh[j] += mm(tally, mm(tally, B.T, P), B)             # D&G eq. (11)
            fh[j] += mm(tally, B.T, p)                           # D&G eq. (12), with f_hat_k
    ydd = np.zeros(system.n_vel)
    lam = np.zeros(system.n_constraints)
    vs, cs = system.vel_slices, system.con_slices
    set_step(tally, "featherstone root-to-leaves")
    for k in order:
        E, D, B, H, d = EBHd[k]
        a = d if par[k] < 0 else mm(tally, B, ydd[vs[par[k]]]) + d
        qdd = cho_solve(tally, Dfac[k], mm(tally, H.T, fh[k] - mm(tally, Mh[k], a)))
        ydd[vs[k]] = a + mm(tally, H, qdd)                       # D&G eq. (5)
    set_step(tally, "multipliers")
    for k in order:
        E = EBHd[k][0]
        lam[cs[k]] = mm(tally, E.T, fh[k] - mm(tally, Mh[k], ydd[vs[k]]))   # D&G eq. (8) times E_k^T (G_k E_k = I)
    return ydd, lam, Mh, fh
