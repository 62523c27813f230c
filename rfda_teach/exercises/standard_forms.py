"""Checkers and questions for the exercises of the book's ``standard_forms`` chapter
(registered in :mod:`rfda_teach.exercises`, which re-exports the checkers).

* ``check_featherstone_step``: one child's term of D&G eq. (11)-(12) (exercise ``ex-std-impl``);
* question ``ex-std-misprint``: the term that the last step of Appendix C.1 drops when only
  condition 1 holds, for the chapter's moving bars (a 3-vector).
"""

from __future__ import annotations

import numpy as np

from .checking import Case, run_cases, N_CASES, SEED, options, lubich_joints
from .questions import question
from .slips import slip

__all__: list = ["check_featherstone_step"]


def _featherstone_contribution(Mh, fh, G, G_d, Q, Q_d, gamma, gamma_d):
    """A child's term of D&G eq. (11)-(12) with B_k, H_k, d_k of Appendix A (package reference)."""
    from ..coordinates import appendix_a
    E, D, B, H, d = appendix_a(G, G_d, Q, Q_d, gamma, gamma_d)
    U = Mh @ H
    P = np.eye(Mh.shape[0]) - U @ np.linalg.solve(H.T @ U, H.T)
    return B.T @ P @ Mh @ B, B.T @ P @ (fh - Mh @ d)


def check_featherstone_step(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(M_hat_k, f_hat_k, G_k, G_kd, Q_k, Q_kd, gamma_k, gamma_kd) -> (dM, df)``:
    what child k adds to M_hat_j and f_hat_j of its parent in the Featherstone / Bae-Haug form,
    D&G eq. (11)-(12), with B_k, H_k, d_k from the joint's rows by Appendix A, D&G eq. (59)-(61):

        [E_k D_k] = [G_k; G_kd]^-1,  B_k = -(E_k Q_k + D_k Q_kd),  H_k = D_k,
        d_k = E_k gamma_k + D_k gamma_kd,
        P_k = I - M_hat_k H_k (H_k^T M_hat_k H_k)^-1 H_k^T,
        dM = B_k^T P_k M_hat_k B_k,   df = B_k^T P_k (f_hat_k - M_hat_k d_k).

    (D&G eq. 12 prints f_k; for a child with children of its own it must read f_hat_k, errata
    entry 1.)  The cases are the non-root joints with constraint rows of random planar and
    spatial trees, with M_hat_k and f_hat_k from :func:`rfda_teach.rfda.forward_dynamics`.
    Reference: the child's term of ``rfda._featherstone`` (Appendix A by
    :func:`rfda_teach.coordinates.appendix_a`).

    Examples
    --------
    >>> import numpy as np
    >>> def my_function(*args):  # the stub of the exercise
    ...     raise NotImplementedError
    >>> check_featherstone_step(my_function).passed
    check_featherstone_step: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_featherstone_step"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    from ..coordinates import appendix_a
    cases = []
    for kind, sys, tr, res, k, j in lubich_joints(seed):
        if len(cases) >= n_cases:
            break
        jt = tr.joint[k]
        Mh, fh = res.M_hat[k], res.f_hat[k]
        args = (Mh, fh, jt.G, jt.G_d, jt.Q, jt.Q_d, jt.gamma, jt.gamma_d)
        dM, df = _featherstone_contribution(*args)
        E, D, B, H, d = appendix_a(jt.G, jt.G_d, jt.Q, jt.Q_d, jt.gamma, jt.gamma_d)
        U = Mh @ H
        P = np.eye(Mh.shape[0]) - U @ np.linalg.solve(H.T @ U, H.T)
        wrong = [((dM, B.T @ P @ fh), "the velocity term: eq. (12) has f_hat_k - M_hat_k d_k"),
                 ((dM, B.T @ P @ (fh + Mh @ d)), "sign of d_k: eq. (12) has f_hat_k - M_hat_k d_k"),
                 ((dM, -df), "sign of B_k: eq. (61) has B_k = -(E_k Q_k + D_k Q_kd)"),
                 ((dM, B.T @ P @ (fh - Mh @ (E @ jt.gamma))),
                  "d_k = E_k gamma_k + D_k gamma_kd (the driving rows contribute too)"),
                 ((B.T @ P @ B, df), "eq. (11) ends in M_hat_k: B^T (I - M H (H^T M H)^-1 H^T) M_hat_k B"),
                 ((B.T @ P.T @ Mh @ B, B.T @ P.T @ (fh - Mh @ d)),
                  "P_k = I - M_hat_k H_k (H_k^T M_hat_k H_k)^-1 H_k^T: M_hat_k on the left"),
                 ((B.T @ Mh @ B, B.T @ (fh - Mh @ d)),
                  "the projection P_k: the joint's free motion H_k must be taken out")]
        if not np.allclose(fh, tr.f[k]):
            wrong.insert(0, ((dM, B.T @ P @ (tr.f[k] - Mh @ d)),
                             "f_hat_k, not f_k: eq. (12) prints f_k (errata entry 1), but the "
                             "child's subtree is already in f_hat_k"))
        if not np.allclose(Mh, tr.M[k]):
            wrong.insert(0, (_featherstone_contribution(tr.M[k], tr.f[k], *args[2:]),
                             "M_hat_k and f_hat_k, not M_k and f_k: use the child's articulated "
                             "matrix from step 1"))
        cases.append(Case(args, f"a {jt.G.shape[0]}-row joint of a {kind} tree: M_hat_k "
                                f"{Mh.shape[0]}x{Mh.shape[1]}, G_k {jt.G.shape[0]}x{jt.G.shape[1]}, "
                                f"G_kd {jt.G_d.shape[0]}x{jt.G_d.shape[1]}", (dM, df), tuple(wrong)))
    return run_cases(name, student_fn, cases)


#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {"featherstone_step": check_featherstone_step}


# ----------------------------------------------------------------------------- ex-std-misprint

def _moving_bars():
    """The chapter's two bars (m = 1, l = 1, pinned end to end) and their moving state."""
    from .. import models
    bars = models.planar_revolute_pair(m_j=1.0, J_j=1 / 12, m_k=1.0, J_k=1 / 12,
                                       s_j=(0.5, 0.0), s_k=(-0.5, 0.0))
    moving = models.state_from_joints(bars, [np.array([0.2, -0.1, 0.3]), np.array([0.7])],
                                      [np.array([0.5, -0.4, 1.5]), np.array([-2.0])])
    return bars, moving


def _dropped_parts():
    """Q_k^T (G_k E_k)^-T E_k^T M_k D_k (= -S_k^T E_k^T M_k D_k) with Appendix A's E_k, D_k
    untilted, and the accelerations of D&G eq. (7)."""
    from .. import dae
    from ..coordinates import S_a, appendix_a
    from ..system import terms
    bars, moving = _moving_bars()
    tr = terms(bars, moving)
    jt, M_k = tr.joint[1], tr.M[1]
    E, D = appendix_a(jt.G, jt.G_d)[:2]
    S = S_a(jt.G, jt.Q, E)[0]                           # D&G eq. (22)
    return -S.T @ E.T @ M_k @ D, dae.forward_dynamics(bars, moving).ydd


def _dropped_with(ydd_f):
    K, _ = _dropped_parts()
    return -K @ np.atleast_1d(ydd_f)


@question("ex-std-misprint", rtol=1e-6, atol=1e-6,
          hint="E~^T M D~ for these coordinates is not zero; the free acceleration is the "
               "third entry of ydd_k here (see the hint)",
          slips=[(lambda ref: -ref,
                  "sign: check the minus sign of the term as the exercise writes it, and that "
                  "of S_k = -(G_k E_k)^-1 Q_k"),
                 (lambda ref: _dropped_with(_dropped_parts()[1][5] - _dropped_parts()[1][2]),
                  "the free acceleration of Appendix A's coordinates is that of body k's "
                  "absolute angle, not of the relative joint angle"),
                 (lambda ref: _dropped_with(_dropped_parts()[1][2]),
                  "the free acceleration belongs to body k: take it from ydd_k, not ydd_j")])
def _ex_std_misprint():
    """The dropped term -Q_k^T (G_k E_k)^-T E_k^T M_k D_k ydd~_kf, with ydd~_kf = phi_k'' (the
    third rows of Appendix A's E_k and D_k are (0, 0) and 1)."""
    K, ydd = _dropped_parts()
    return -K @ ydd[5:6]


# ----------------------------------------------------------------------------- typical slips

def _parts(Mh, fh, G, G_d, Q, Q_d, gamma, gamma_d):
    """B_k, P_k and d_k of the docstring of :func:`check_featherstone_step`."""
    from ..coordinates import appendix_a
    E, D, B, H, d = appendix_a(G, G_d, Q, Q_d, gamma, gamma_d)
    U = Mh @ H
    return B, np.eye(Mh.shape[0]) - U @ np.linalg.solve(H.T @ U, H.T), d


@slip("check_featherstone_step", "the velocity term M_hat_k d_k left out", hint="the velocity term")
def _slip_fs_no_d(Mh, fh, *rows):
    B, P, d = _parts(Mh, fh, *rows)
    return B.T @ P @ Mh @ B, B.T @ P @ fh


@slip("check_featherstone_step", "+M_hat_k d_k", hint="sign of d_k")
def _slip_fs_d_sign(Mh, fh, *rows):
    B, P, d = _parts(Mh, fh, *rows)
    return B.T @ P @ Mh @ B, B.T @ P @ (fh + Mh @ d)


@slip("check_featherstone_step", "no projection P_k", hint="the projection P_k")
def _slip_fs_no_projection(Mh, fh, *rows):
    B, P, d = _parts(Mh, fh, *rows)
    return B.T @ Mh @ B, B.T @ (fh - Mh @ d)
