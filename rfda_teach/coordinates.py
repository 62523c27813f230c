"""The coordinates of RFDA: E and D, conditions 1 and 2, Methods 1 and 2 (§4-§6, Appendix A-B).

For a joint k with constraint rows G_k (D&G eq. 1) a change of velocity coordinates
of body k, ydot_k = [E~_k D~_k] [y~dot_kc; y~dot_kf] (D&G eq. 31), splits the body's
motion into a part fixed by the parent (y~_kc) and a free part (y~_kf) when

* condition 1: the columns of D~_k are a basis of the null space of G_k, and
* condition 2: D~_k^T M_k E~_k = 0 (the mass matrix D&G eq. 33 is block diagonal).

Method 1 (D&G eq. 37-38): D~ = D C_f, E~ = M^{-1} G^T C_c.
Method 2 (D&G eq. 41-44): D~ = D, E~ = E + D A~, A~ = -(D^T M D)^{-1} D^T M E.

Composed with S_k, a_k (D&G eq. 22, 53) they give the coordinates of RFDA
[y_j; xi_j] of every node, D&G eq. (49)-(57), in which the mass matrix of node j
and all its descendants is diag(M_hat_j, Lambda_j) and the y_j rows are the
equations of RFDA, D&G eq. (8).

Examples
--------
>>> import numpy as np
>>> M = np.diag([2.0, 2.0, 0.5]); G = np.array([[1.0, 0, 0.3], [0, 1.0, -0.2]])
>>> E, D = null_space_E_D(G)
>>> Et, Dt, At = method_2(M, E, D)
>>> condition_1(G, Dt).holds, condition_2(M, Et, Dt).holds
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import scipy.linalg

from . import _check, count
from .errors import ConstraintRankError, ModelError
from .system import System, require_tree, terms

__all__ = ["appendix_a", "null_space_E_D", "condition_1", "condition_2", "ConditionCheck", "method_1",
           "method_2", "S_a", "appendix_b", "TwoNode", "two_node", "NodeCoordinates", "rfda_coordinates",
           "members"]


_EPS_COND = 1e13          # a matrix whose condition number exceeds this is treated as singular


def _rows(G, what: str, where: str) -> np.ndarray:
    """A constraint Jacobian as a finite 2-D array (a 1-D array is one row)."""
    if isinstance(G, np.ndarray) and G.ndim == 1:
        G = G[None, :]
    return _check.matrix(G, (None, None), what, where=where)


def _solve(A: np.ndarray, B: np.ndarray, what: str, where: str, *, err=ConstraintRankError,
           hint: str = "") -> np.ndarray:
    """A^{-1} B, refusing a singular or numerically singular A (named ``what`` in the message).

    Singular means LAPACK fails or the 1-norm condition number |A|_1 |A^-1|_1 exceeds 1e13."""
    if A.shape[0] == 0:
        return np.zeros((0,) + B.shape[1:])
    try:
        inv = np.linalg.inv(A)
        c = float(np.abs(A).sum(axis=0).max() * np.abs(inv).sum(axis=0).max())
    except np.linalg.LinAlgError:
        c = np.inf
    if not c <= _EPS_COND:
        r = int(np.linalg.matrix_rank(A)) if np.all(np.isfinite(A)) else 0
        raise err(f"{where}: {what} is singular (rank {r} of {A.shape[0]}, condition number {c:.3g})"
                  + (f"; {hint}" if hint else ""))
    return inv @ B


def appendix_a(G: np.ndarray, G_d: np.ndarray, Q=None, Q_d=None, gamma=None, gamma_d=None, *,
               check: bool = True, tally=None):
    """E_k, D_k of D&G eq. (60) and B_k, H_k, d_k of D&G eq. (61) and (5).

    [E_k D_k] = [G_k; G_kd]^{-1};  B_k = -(E_k Q_k + D_k Q_kd);  H_k = D_k;
    d_k = E_k gamma_k + D_k gamma_kd (second derivative of D&G eq. 59).  B_k is None
    when Q is None (the root), d_k None when gamma is None.  Q and Q_d, gamma and
    gamma_d come in pairs.  A singular (condition number > 1e13) [G_k; G_kd]
    raises :class:`~rfda_teach.errors.ConstraintRankError`; NaN or wrong shapes a
    ModelError naming the argument.  ``check=False`` skips the checks of the result
    (about a third of the cost) for inner loops fed by :func:`rfda_teach.system.terms`.
    ``tally`` (a :class:`~rfda_teach.count.Tally`) counts the multiplications: the inverse of the
    p x p matrix [G_k; G_kd] as p^3, then the products of D&G eq. (61) and of d_k.

    Examples
    --------
    >>> import numpy as np
    >>> E, D, B, H, d = appendix_a(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]),
    ...                            Q=np.array([[-1.0, 0.0]]), Q_d=np.array([[0.0, -1.0]]))
    >>> B + 0.0                            # Featherstone's slider 2 moves with slider 1 when q2 is held
    array([[1., 0.],
           [0., 1.]])
    >>> appendix_a(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0]]))
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ConstraintRankError: coordinates.appendix_a: [G; G_d] of eq. (60) is singular (rank 1 of 2, condition number inf); the joint's constrained rows G and free rows G_d must together span every velocity direction of the body
    """
    out = _appendix_a(G, G_d, Q, Q_d, gamma, gamma_d, check)
    if tally is not None:
        E, D, B, H, d = out
        p = E.shape[0]
        count.add(count.check(tally, where="coordinates.appendix_a"), p ** 3)   # [E D] = [G; G_d]^-1, D&G eq. (60)
        if B is not None:
            count.add(tally, p * p * B.shape[1])                          # E Q + D Q_d, D&G eq. (61)
        if d is not None:
            count.add(tally, p * p)                                       # E gamma + D gamma_d
    return out


def _appendix_a(G, G_d, Q, Q_d, gamma, gamma_d, check):
    # fast path (rfda.forward_dynamics calls this once per joint): compute, then check the result;
    # only when something is off are the arguments examined one by one to name the culprit
    try:
        if not all(isinstance(a, np.ndarray) for a in (G, G_d)):
            raise TypeError
        m = G.shape[0]
        A = np.vstack([G, G_d])
        inv = np.linalg.inv(A)
        if not check:
            E, D = inv[:, :m], inv[:, m:]
            return (E, D, None if Q is None else -(E @ Q + D @ Q_d), D,
                    None if gamma is None else E @ gamma + D @ gamma_d)
        ok = abs(A).max() * abs(inv).max() < _EPS_COND / A.shape[0]     # False for NaN too
        E, D = inv[:, :m], inv[:, m:]                               # D&G eq. (60)
        B = None if Q is None else -(E @ Q + D @ Q_d)               # D&G eq. (61)
        d = None if gamma is None else E @ gamma + D @ gamma_d      # D&G eq. (5) via D&G eq. (59)
        ok = ok and (B is None or (B.ndim == 2 and math.isfinite(B.sum()))) and \
            (d is None or (d.ndim == 1 and math.isfinite(d.sum())))
    except (TypeError, ValueError, AttributeError, IndexError, np.linalg.LinAlgError):
        ok = False
    if ok:
        return E, D, B, D, d
    return _appendix_a_checked(G, G_d, Q, Q_d, gamma, gamma_d)


def _appendix_a_checked(G, G_d, Q, Q_d, gamma, gamma_d):
    where = "coordinates.appendix_a"
    G = _rows(G, "G", where)
    m, p = G.shape
    if m > p:
        raise ConstraintRankError(f"{where}: G has {m} rows for {p} velocity coordinates; a joint constrains "
                                  "at most p_k directions")
    G_d = _check.matrix(G_d, (p - m, p), "G_d", where=where)
    if (Q is None) != (Q_d is None):
        raise ModelError(f"{where}: Q is {'None' if Q is None else 'given'} but Q_d is "
                         f"{'None' if Q_d is None else 'given'}; pass both (a child joint) or neither (a root)")
    if (gamma is None) != (gamma_d is None):
        raise ModelError(f"{where}: gamma is {'None' if gamma is None else 'given'} but gamma_d is "
                         f"{'None' if gamma_d is None else 'given'}; pass both or neither")
    if Q is not None:
        Q = _check.matrix(Q, (m, None), "Q", where=where)
        Q_d = _check.matrix(Q_d, (p - m, Q.shape[1]), "Q_d", where=where)
    if gamma is not None:
        gamma = _check.vector(gamma, m, "gamma", where=where)
        gamma_d = _check.vector(gamma_d, p - m, "gamma_d", where=where)
    inv = _solve(np.vstack([G, G_d]), np.eye(p), "[G; G_d] of eq. (60)", where,
                 hint="the joint's constrained rows G and free rows G_d must together span every velocity "
                      "direction of the body")
    E, D = inv[:, :m], inv[:, m:]                                   # D&G eq. (60)
    B = None if Q is None else -(E @ Q + D @ Q_d)                   # D&G eq. (61)
    d = None if gamma is None else E @ gamma + D @ gamma_d          # D&G eq. (5) via D&G eq. (59)
    return E, D, B, D, d


def _full_row_rank(G: np.ndarray, what: str = "G_k", where: str = "") -> None:
    if G.shape[0] == 0:
        return
    r = np.linalg.matrix_rank(G)
    if r < G.shape[0]:
        raise ConstraintRankError(f"{where + ': ' if where else ''}{what} has {G.shape[0]} rows but rank {r}; the "
                                  "paper assumes G_k of full row rank (§2): remove the dependent constraint rows")


def _full_column_rank(D: np.ndarray, what: str, where: str) -> None:
    if D.shape[1] and np.linalg.matrix_rank(D) < D.shape[1]:
        raise ConstraintRankError(f"{where}: {what} has {D.shape[1]} columns but rank "
                                  f"{np.linalg.matrix_rank(D)}; its columns must be a basis of the null space "
                                  "of G_k (condition 1), so independent")


def null_space_E_D(G: np.ndarray):
    """E_k, D_k from a null-space basis (D&G eq. 35): D = orthonormal basis of null(G), E = G^T (G G^T)^{-1}.

    [E D] is non-singular and G E = I, G D = 0, so condition 1 holds for D.


    Examples
    --------
    >>> import numpy as np
    >>> E, D = null_space_E_D(np.array([[1.0, 0.0]]))
    >>> E.ravel(), np.abs(D.ravel())
    (array([1., 0.]), array([0., 1.]))
    """
    where = "coordinates.null_space_E_D"
    G = _rows(G, "G", where)
    if G.shape[1] == 0:
        raise ModelError(f"{where}: G has shape {G.shape}; give the m x p constraint Jacobian of a body (p >= 1)")
    _full_row_rank(G, "G", where)
    D = scipy.linalg.null_space(G) if G.shape[0] else np.eye(G.shape[1])
    E = G.T @ np.linalg.inv(G @ G.T) if G.shape[0] else np.zeros((G.shape[1], 0))
    return E, D


class ConditionCheck(NamedTuple):
    """Result of a condition check: whether it holds and the relative residual."""

    holds: bool
    residual: float


def _tol(tol, where: str) -> float:
    return _check.scalar(tol, "tol", where=where, positive=True)


def condition_1(G: np.ndarray, D_tilde: np.ndarray, tol: float = 1e-10) -> ConditionCheck:
    """Condition 1 (§5.1): columns of D~_k are a basis of the null space of G_k.

    Checks G D~ = 0 (relative to |G| |D~|), that D~ has p_k - p_kc columns, and full column rank.
    A D~ with the wrong number of columns fails the condition (residual inf); one whose rows do
    not match the columns of G is refused (ModelError).

    Examples
    --------
    >>> import numpy as np
    >>> condition_1(np.array([[1.0, 0.0]]), np.array([[0.0], [2.0]])).holds
    True
    """
    where = "coordinates.condition_1"
    G = _rows(G, "G", where)
    p, m = G.shape[1], G.shape[0]
    D_tilde = _check.matrix(D_tilde, (p, None), "D_tilde", where=where)
    tol = _tol(tol, where)
    if D_tilde.shape != (p, p - m):
        return ConditionCheck(False, np.inf)
    if D_tilde.shape[1] and np.linalg.matrix_rank(D_tilde) < D_tilde.shape[1]:
        return ConditionCheck(False, np.inf)
    scale = max(np.linalg.norm(G) * np.linalg.norm(D_tilde), 1e-300)
    res = float(np.linalg.norm(G @ D_tilde) / scale) if G.size and D_tilde.size else 0.0
    return ConditionCheck(res < tol, res)


def condition_2(M: np.ndarray, E_tilde: np.ndarray, D_tilde: np.ndarray, tol: float = 1e-10) -> ConditionCheck:
    """Condition 2 (§5.1): the columns of M_k E~_k are orthogonal to those of D~_k, D~^T M E~ = 0.


    Examples
    --------
    >>> import numpy as np
    >>> M = np.diag([1.0, 2.0])
    >>> condition_2(M, np.array([[1.0], [0.0]]), np.array([[1.0], [1.0]])).holds
    False
    """
    where = "coordinates.condition_2"
    M = _check.matrix(M, (None, None), "M", where=where)
    p = M.shape[0]
    M = _check.matrix(M, (p, p), "M", where=where)
    E_tilde = _check.matrix(E_tilde, (p, None), "E_tilde", where=where)
    D_tilde = _check.matrix(D_tilde, (p, None), "D_tilde", where=where)
    tol = _tol(tol, where)
    if E_tilde.size == 0 or D_tilde.size == 0:
        return ConditionCheck(True, 0.0)
    scale = max(np.linalg.norm(D_tilde) * np.linalg.norm(M) * np.linalg.norm(E_tilde), 1e-300)
    res = float(np.linalg.norm(D_tilde.T @ M @ E_tilde) / scale)
    return ConditionCheck(res < tol, res)


def _square(M, what: str, where: str, n: int | None = None) -> np.ndarray:
    M = _check.matrix(M, (n, n), what, where=where)
    if M.shape[0] != M.shape[1]:
        raise ModelError(f"{where}: {what} has shape {M.shape}; it must be square")
    return M


def _nonsingular(C, n: int, name: str, where: str) -> np.ndarray:
    if C is None:
        return np.eye(n)
    C = _check.matrix(np.atleast_2d(C) if isinstance(C, np.ndarray) else C, (None, None), name, where=where)
    if C.shape != (n, n) or (n and abs(np.linalg.det(C)) < 1e-14 * max(1.0, np.abs(C).max()) ** n):
        raise ModelError(f"{name} must be a non-singular {n}x{n} matrix (eq. 37-38), got shape {C.shape}"
                         + ("" if C.shape != (n, n) else f" with determinant {np.linalg.det(C):.3g}")
                         + f" ({where})")
    return C


def method_1(M: np.ndarray, G: np.ndarray, D: np.ndarray, C_c=None, C_f=None):
    """Method 1, D&G eq. (37)-(38): D~ = D C_f and E~ = M^{-1} G^T C_c for non-singular C_c, C_f.

    Returns (E~, D~).  A singular M, a G without full row rank or a D with dependent
    columns raise an :class:`~rfda_teach.errors.RFDAError` naming the argument.


    Examples
    --------
    >>> import numpy as np
    >>> M = np.diag([1.0, 1.0, 0.1]); G = np.array([[1.0, 0, 0.5], [0, 1.0, 0]])
    >>> E, D = null_space_E_D(G)
    >>> Et, Dt = method_1(M, G, D, C_c=[[2.0, 1.0], [0.0, 1.0]], C_f=[[-3.0]])
    >>> condition_1(G, Dt).holds and condition_2(M, Et, Dt).holds
    True
    """
    where = "coordinates.method_1"
    G = _rows(G, "G", where)
    M = _square(M, "M", where, G.shape[1])
    D = _check.matrix(D, (G.shape[1], None), "D", where=where)
    _full_row_rank(G, "G", where)
    _full_column_rank(D, "D", where)
    C_c = _nonsingular(C_c, G.shape[0], "C_c", where)
    C_f = _nonsingular(C_f, D.shape[1], "C_f", where)
    D_tilde = D @ C_f                                           # D&G eq. (37)
    E_tilde = _solve(M, G.T @ C_c, "M", where, err=ModelError,
                     hint="give the body's (positive definite) mass matrix")   # D&G eq. (38)
    return E_tilde, D_tilde


def method_2(M: np.ndarray, E: np.ndarray, D: np.ndarray):
    """Method 2, D&G eq. (42)-(44): A~ = -(D^T M D)^{-1} D^T M E, E~ = E + D A~, D~ = D.

    Returns (E~, D~, A~).  A singular D^T M D (dependent columns of D, or M not
    positive definite on them) raises :class:`~rfda_teach.errors.ConstraintRankError`.

    Examples
    --------
    >>> import numpy as np
    >>> M = np.array([[2.0, 1.0], [1.0, 2.0]]); E = np.array([[1.0], [0.0]]); D = np.array([[0.0], [1.0]])
    >>> Et, Dt, A = method_2(M, E, D)
    >>> A, Et.ravel()                    # E~ = E - D (D^T M D)^-1 D^T M E
    (array([[-0.5]]), array([ 1. , -0.5]))
    >>> method_2(M, E, np.zeros((2, 1)))
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ConstraintRankError: coordinates.method_2: D^T M D of eq. (42) is singular (rank 0 of 1, condition number inf); the columns of D must be independent (a basis of null(G_k), condition 1) and M positive definite
    """
    where = "coordinates.method_2"
    M = _square(M, "M", where)
    E = _check.matrix(E, (M.shape[0], None), "E", where=where)
    D = _check.matrix(D, (M.shape[0], None), "D", where=where)
    DMD = D.T @ M @ D
    A_tilde = -_solve(DMD, D.T @ M @ E, "D^T M D of eq. (42)", where,
                      hint="the columns of D must be independent (a basis of null(G_k), condition 1) and M "
                           "positive definite") if D.shape[1] else np.zeros((0, E.shape[1]))  # D&G eq. (42)
    E_tilde = E + D @ A_tilde                                   # D&G eq. (43)
    return E_tilde, D, A_tilde                                  # D&G eq. (44)


def S_a(G: np.ndarray, Q, E_tilde: np.ndarray, nu=None):
    """S_k = -(G_k E~_k)^{-1} Q_k and a_k = (G_k E~_k)^{-1} nu_k, D&G eq. (22) and (53).

    Q is None for the root (then S is None).  A singular G_k E~_k raises
    :class:`~rfda_teach.errors.ConstraintRankError`.

    Examples
    --------
    >>> import numpy as np
    >>> S, a = S_a(np.array([[1.0, 0.0]]), np.array([[-1.0, 0.0]]), np.array([[1.0], [0.0]]))
    >>> S, a                             # Featherstone: y~_2c = r_x2 follows r_x1
    (array([[ 1., -0.]]), array([0.]))
    """
    where = "coordinates.S_a"
    G = _rows(G, "G", where)
    m, p = G.shape
    E_tilde = _check.matrix(E_tilde, (p, m), "E_tilde", where=where)
    Q = None if Q is None else _check.matrix(Q, (m, None), "Q", where=where)
    nu = None if nu is None else _check.vector(nu, m, "nu", where=where)
    GE = G @ E_tilde
    hint = "E~_k must complete a basis of null(G_k) (Method 1 or 2); check G_k has full row rank"
    S = None if Q is None else -_solve(GE, Q, "G E_tilde (eq. 22)", where, hint=hint)
    a = np.zeros(m) if nu is None else _solve(GE, nu, "G E_tilde (eq. 22)", where, hint=hint)
    return S, a


def appendix_b(T: np.ndarray, M_u: np.ndarray) -> np.ndarray:
    """Mass matrix under a change of coordinates udot = T vdot + e: M_v = T^T M_u T (D&G eq. 64).


    Examples
    --------
    >>> import numpy as np
    >>> T = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])   # D&G eq. (16)
    >>> appendix_b(T, np.diag([1.0, 1.0, 2.0, 2.0]))                   # D&G eq. (17)
    array([[3., 0., 0.],
           [0., 1., 0.],
           [0., 0., 2.]])
    """
    where = "coordinates.appendix_b"
    M_u = _square(M_u, "M_u", where)
    T = _check.matrix(T, (M_u.shape[0], None), "T", where=where)
    return T.T @ M_u @ T


@dataclass(frozen=True, eq=False)
class TwoNode:
    """The two-node construction of §4: S_k, a_k (D&G eq. 22), the transformation of D&G eq. (26),
    its composition with D&G eq. (31) (D&G eq. 48), and the mass matrix of D&G eq. (28)."""

    E_tilde: np.ndarray
    D_tilde: np.ndarray
    S: np.ndarray
    a: np.ndarray
    T26: np.ndarray       # [ydot_j; y~dot_kc; y~dot_kf] = T26 [ydot_j; y~dot_kf] + [0; a; 0]
    T48: np.ndarray       # [ydot_j; ydot_k] = T48 [ydot_j; y~dot_kf] + [0; E~ a]
    M_hat: np.ndarray     # M_j + S^T M~_kc S, the y_j block of D&G eq. (28)
    M_kf: np.ndarray      # D~^T M_k D~
    M28: np.ndarray       # diag(M_hat, M_kf)


def two_node(M_j, M_k, G_k, Q_k, E_tilde, D_tilde, nu_k=None) -> TwoNode:
    """Coordinates of RFDA for a parent j and a terminal child k, D&G eq. (22), (26), (28), (48).


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, coordinates as co
    >>> tn = co.two_node(np.eye(2), 2 * np.eye(2), np.array([[1.0, 0]]), np.array([[-1.0, 0]]),
    ...                  np.array([[1.0], [0]]), np.array([[0.0], [1]]))
    >>> tn.M28                          # D&G eq. (17) with m1 = 1, m2 = 2
    array([[3., 0., 0.],
           [0., 1., 0.],
           [0., 0., 2.]])
    """
    where = "coordinates.two_node"
    M_j = _square(M_j, "M_j", where)
    M_k = _square(M_k, "M_k", where)
    G_k = _rows(G_k, "G_k", where)
    G_k = _check.matrix(G_k, (None, M_k.shape[0]), "G_k", where=where)
    Q_k = _check.matrix(Q_k, (G_k.shape[0], M_j.shape[0]), "Q_k", where=where)
    D_tilde = _check.matrix(D_tilde, (M_k.shape[0], None), "D_tilde", where=where)
    S, a = S_a(G_k, Q_k, E_tilde, nu_k)
    pj, mc, fk = M_j.shape[0], S.shape[0], D_tilde.shape[1]
    E_tilde = np.asarray(E_tilde, float)
    T26 = np.zeros((pj + mc + fk, pj + fk))
    T26[:pj, :pj] = np.eye(pj)                                  # D&G eq. (26)
    T26[pj:pj + mc, :pj] = S
    T26[pj + mc:, pj:] = np.eye(fk)
    T48 = np.zeros((pj + M_k.shape[0], pj + fk))
    T48[:pj, :pj] = np.eye(pj)                                  # D&G eq. (48)
    T48[pj:, :pj] = E_tilde @ S
    T48[pj:, pj:] = D_tilde
    M_kc = E_tilde.T @ M_k @ E_tilde
    M_kf = D_tilde.T @ M_k @ D_tilde
    M_hat = M_j + S.T @ M_kc @ S                                # D&G eq. (28), (29)
    return TwoNode(E_tilde, D_tilde, S, a, T26, T48, M_hat, M_kf, scipy.linalg.block_diag(M_hat, M_kf))


@dataclass(frozen=True, eq=False)
class NodeCoordinates:
    """Coordinates of RFDA [y_j; xi_j] of one node j (D&G eq. 49-57).

    ``members`` are j and its descendants h(j, 1..), ``T`` maps [ydot_j; xidot_j] to
    the stacked absolute velocities of the members (in that order), ``varpi`` is the
    constant term; ``M_hat`` and ``Lambda`` are the two diagonal blocks of D&G eq. (57).
    ``P`` and ``R`` are the blocks of T below the identity: the map of section 6's first property
    (unnumbered in the paper; D&G eq. (49) is the second property's constraint).
    ``child`` maps every child k to (E~_k, D~_k, S_k, a_k).

    Only ``M_hat`` and ``child`` are stored (O(p^2) per node, O(n p^2) for the tree).
    ``T``, ``varpi``, ``Lambda`` and ``members`` are assembled from them on every
    access, root of the subtree to its leaves (D&G eq. 51, 55); they are the size of the
    subtree (T of the root of an n-body chain has about 3n x n entries), so keep the
    ones you need rather than reading them repeatedly.  The columns of xi_j run over
    the subtree in preorder (child k's D~_k block, then k's own xi_k), D&G eq. (54).
    """

    node: int
    M_hat: np.ndarray
    child: dict
    _system: System = field(repr=False)
    _nodes: list = field(repr=False)

    @property
    def p(self) -> int:
        """Size of y_j velocities."""
        return self.M_hat.shape[0]

    @property
    def members(self) -> tuple:
        """j followed by its descendants h(j, 1), h(j, 2), ... (ascending)."""
        return (self.node,) + self._system.topology.descendants(self.node)

    def _preorder(self) -> list:
        """Descendants in the column order of xi_j: each child k, then k's subtree (D&G eq. 54)."""
        out, stack = [], list(reversed(self._system.topology.children(self.node)))
        while stack:
            k = stack.pop()
            out.append(k)
            stack.extend(reversed(self._system.topology.children(k)))
        return out

    def _assemble(self):
        """T and varpi, root to leaves: rows of k = E~_k S_k (rows of P(k)) + D~_k in k's columns."""
        sysm, nodes = self._system, self._nodes
        vs, par = sysm.vel_slices, sysm.parents
        mem = self.members
        row0, r = {}, 0
        for i in mem:
            row0[i] = r
            r += vs[i].stop - vs[i].start
        pre = self._preorder()
        col0, c = {}, self.p
        for k in pre:
            col0[k] = c
            c += nodes[par[k]].child[k][1].shape[1]
        T, varpi = np.zeros((r, c)), np.zeros(r)
        T[:self.p, :self.p] = np.eye(self.p)
        for k in pre:                                   # preorder: P(k) is done before k
            Et, Dt, S, a = nodes[par[k]].child[k]
            rk, rp = row0[k], row0[par[k]]
            pk, pp = vs[k].stop - vs[k].start, vs[par[k]].stop - vs[par[k]].start
            EtS = Et @ S
            T[rk:rk + pk, :col0[k]] = EtS @ T[rp:rp + pp, :col0[k]]            # D&G eq. (51), (55)
            T[rk:rk + pk, col0[k]:col0[k] + Dt.shape[1]] = Dt
            varpi[rk:rk + pk] = EtS @ varpi[rp:rp + pp] + Et @ a
        return T, varpi

    @property
    def T(self) -> np.ndarray:
        """[ydot_j; xidot_j] -> stacked velocities of ``members`` (section 6's first property, D&G eq. 55), assembled on access."""
        return self._assemble()[0]

    @property
    def varpi(self) -> np.ndarray:
        """The constant term varpi_j of section 6's first property (zero for scleronomic joints), assembled on access."""
        return self._assemble()[1]

    @property
    def Lambda(self) -> np.ndarray:
        """Lambda_j of D&G eq. (57): diag of D~_k^T M_hat_k D~_k over the subtree, in the order of xi_j."""
        blocks = []
        for k in self._preorder():
            Dt = self._nodes[self._system.parents[k]].child[k][1]
            blocks.append(Dt.T @ self._nodes[k].M_hat @ Dt)                      # D&G eq. (54): M~_kf
        size = sum(b.shape[0] for b in blocks)
        out, s = np.zeros((size, size)), 0
        for b in blocks:
            out[s:s + b.shape[0], s:s + b.shape[0]] = b
            s += b.shape[0]
        return out

    @property
    def P(self) -> np.ndarray:
        """P_j of the map of section 6's first property."""
        return self.T[self.p:, :self.p]

    @property
    def R(self) -> np.ndarray:
        """R_j of the map of section 6's first property."""
        return self.T[self.p:, self.p:]

    @property
    def mass_matrix(self) -> np.ndarray:
        """diag(M_hat_j, Lambda_j), D&G eq. (57)."""
        return scipy.linalg.block_diag(self.M_hat, self.Lambda)


def _system_arg(system, where: str) -> System:
    return require_tree(_check.instance(system, System, "system", where=where,
                                        hint="build one with rfda_teach.models or rfda_teach.system.System"), where)


def _node(system: System, j, what: str, where: str) -> int:
    j = _check.positive_int(j, what, where=where, minimum=0)
    if j >= system.n:
        raise ModelError(f"{where}: {what} is {j}; system {system.name!r} has bodies 0..{system.n - 1}")
    return j


def members(system: System, j: int) -> tuple:
    """Node j followed by its descendants h(j, 1), h(j, 2), ... (ascending).


    Examples
    --------
    >>> from rfda_teach import models
    >>> members(models.figure1_tree(), 5)
    (5, 10, 11)
    """
    where = "coordinates.members"
    system = _system_arg(system, where)
    j = _node(system, j, "j", where)
    return (j,) + system.topology.descendants(j)


def rfda_coordinates(system: System, state, t: float = 0.0, *, method: str = "method2", C_c=None,
                     C_f=None) -> list:
    """Coordinates of RFDA of every node of a tree, D&G eq. (49)-(57), built leaves to root.

    ``method`` is ``"method1"`` (D&G eq. 37-38; ``C_c``, ``C_f`` optional dicts node -> matrix)
    or ``"method2"`` (D&G eq. 43-44 with E_k, D_k of Appendix A, D&G eq. 60).  Returns a list
    of :class:`NodeCoordinates`, indexed by node.  Memory is O(n p^2): each node keeps
    M_hat_j and (E~_k, D~_k, S_k, a_k) of its children; the dense T, varpi and Lambda
    of a node (the size of its subtree) are assembled only when read.  It is for
    teaching and checking, not the O(n) algorithm.


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, coordinates as co
    >>> sys = models.figure1_tree(); st = models.random_state(sys, seed=1)
    >>> nc = co.rfda_coordinates(sys, st)
    >>> nc[2].members
    (2, 4, 5, 7, 10, 11, 12)
    >>> M_T = nc[2].T.T @ co.subtree_mass_matrix(sys, st, nc[2].members) @ nc[2].T
    >>> bool(np.allclose(M_T, nc[2].mass_matrix))
    True
    """
    where = "coordinates.rfda_coordinates"
    system = _system_arg(system, where)
    _check.choice(method, ("method1", "method2"), "method", where=where)
    for name, C in (("C_c", C_c), ("C_f", C_f)):
        if C is not None:
            _check.instance(C, dict, name, where=where, hint="give a dict node -> matrix (eq. 37-38), or None")
    t = _check.time(t, "t", where=where)
    tr = terms(system, state, t)
    out = [None] * system.n
    for j in reversed(system.topology.order):
        M_hat = tr.M[j].copy()
        childinfo = {}
        for k in system.topology.children(j):
            jt, M_k = tr.joint[k], out[k].M_hat
            if method == "method2":
                E, D = appendix_a(jt.G, jt.G_d)[:2]
                Et, Dt, _ = method_2(M_k, E, D)
            else:
                D = appendix_a(jt.G, jt.G_d)[1]
                Et, Dt = method_1(M_k, jt.G, D, (C_c or {}).get(k), (C_f or {}).get(k))
            S, a = S_a(jt.G, jt.Q, Et, jt.nu)                                  # D&G eq. (53)
            M_hat = M_hat + S.T @ (Et.T @ M_k @ Et) @ S                       # D&G eq. (57)
            childinfo[k] = (Et, Dt, S, a)
        out[j] = NodeCoordinates(j, M_hat, childinfo, system, out)
    return out


def subtree_mass_matrix(system: System, state, nodes) -> np.ndarray:
    """diag(M_i) of D&G eq. (6) for the listed bodies, in that order.


    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.featherstone_sliders(m1=1.0, m2=2.0)
    >>> subtree_mass_matrix(sys, models.random_state(sys), [1])
    array([[2., 0.],
           [0., 2.]])
    """
    where = "coordinates.subtree_mass_matrix"
    system = _system_arg(system, where)
    if nodes is None or isinstance(nodes, (str, bytes)) or not hasattr(nodes, "__iter__"):
        raise ModelError(f"{where}: nodes must be a sequence of body numbers, got {nodes!r}")
    nodes = [_node(system, i, "nodes[]", where) for i in nodes]
    tr = terms(system, state)
    return scipy.linalg.block_diag(*[tr.M[i] for i in nodes])


__all__.append("subtree_mass_matrix")


class MethodComparison(NamedTuple):
    """Method 1 and Method 2 on one joint: both conditions for each, and M_hat_j three ways."""

    method1: tuple          # (condition 1, condition 2) as ConditionCheck
    method2: tuple
    M_hat_method1: np.ndarray
    M_hat_method2: np.ndarray
    M_hat_eq9: np.ndarray

    @property
    def max_difference(self) -> float:
        """Largest |M_hat| difference between the three, relative to |M_hat_eq9|."""
        ref = np.linalg.norm(self.M_hat_eq9)
        return float(max(np.linalg.norm(self.M_hat_method1 - self.M_hat_eq9),
                         np.linalg.norm(self.M_hat_method2 - self.M_hat_eq9)) / ref)


def compare_methods(M_j, M_k, G_k, Q_k, G_kd, *, C_c=None, C_f=None) -> MethodComparison:
    """Run Method 1 (D&G eq. 37-38, with C_c, C_f) and Method 2 (D&G eq. 43-44) on a parent-child pair and
    compare M_hat_j = M_j + S_k^T E~^T M_k E~ S_k (D&G eq. 28) with D&G eq. (9).

    E_k, D_k come from Appendix A (D&G eq. 60).

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models
    >>> from rfda_teach.system import terms
    >>> sys = models.planar_revolute_pair(); tr = terms(sys, models.random_state(sys, seed=0))
    >>> jt = tr.joint[1]
    >>> c = compare_methods(tr.M[0], tr.M[1], jt.G, jt.Q, jt.G_d, C_c=[[2.0, 1.0], [0.0, 1.0]], C_f=[[-3.0]])
    >>> all(ch.holds for ch in c.method1 + c.method2), c.max_difference < 1e-12
    (True, True)
    """
    where = "coordinates.compare_methods"
    M_j = _square(M_j, "M_j", where)
    M_k = _square(M_k, "M_k", where)
    G_k = _check.matrix(_rows(G_k, "G_k", where), (None, M_k.shape[0]), "G_k", where=where)
    Q_k = _check.matrix(Q_k, (G_k.shape[0], M_j.shape[0]), "Q_k", where=where)
    E, D = appendix_a(G_k, G_kd)[:2]
    Et1, Dt1 = method_1(M_k, G_k, D, C_c, C_f)
    Et2, Dt2, _ = method_2(M_k, E, D)
    M_hats = []
    for Et in (Et1, Et2):
        S, _ = S_a(G_k, Q_k, Et)
        M_hats.append(M_j + S.T @ (Et.T @ M_k @ Et) @ S)
    MinvGT = _solve(M_k, G_k.T, "M_k", where, err=ModelError, hint="give a positive definite mass matrix")
    W = _solve(G_k @ MinvGT, np.eye(G_k.shape[0]), "G_k M_k^-1 G_k^T (eq. 9)", where)
    M9 = M_j + Q_k.T @ W @ Q_k                                               # D&G eq. (9)
    return MethodComparison((condition_1(G_k, Dt1), condition_2(M_k, Et1, Dt1)),
                            (condition_1(G_k, Dt2), condition_2(M_k, Et2, Dt2)), M_hats[0], M_hats[1], M9)


__all__ += ["MethodComparison", "compare_methods"]


def loop_integral(W, path) -> np.ndarray:
    """Integrate the rates u' = W(y) y' of a set of (pseudo-)coordinates u along a closed polygon
    ``path`` of configurations y (midpoint rule on each segment, refined 200 times).

    For true coordinates the result is zero; a non-zero result shows that u is a
    pseudo-coordinate (non-integrable, §5.4.1).

    Examples
    --------
    >>> import numpy as np
    >>> loop = [np.zeros(2), np.array([1.0, 0]), np.array([1.0, 1]), np.array([0.0, 1]), np.zeros(2)]
    >>> bool(np.allclose(loop_integral(lambda y: np.eye(2), loop), 0))          # u = y: a coordinate
    True
    >>> float(np.round(loop_integral(lambda y: np.array([[1.0, y[0]]]), loop)[0], 6))   # du = dx + x dy
    1.0
    """
    where = "coordinates.loop_integral"
    if not callable(W):
        raise ModelError(f"{where}: W must be a callable y -> matrix of rates, got {type(W).__name__}")
    if path is None or isinstance(path, (str, bytes)) or not hasattr(path, "__len__") or len(path) < 2:
        raise ModelError(f"{where}: path must be a sequence of at least two configurations, got {path!r}")
    pts = [_check.vector(path[0], None, "path[0]", where=where)]
    pts += [_check.vector(q, pts[0].shape[0], f"path[{i + 1}]", where=where) for i, q in enumerate(path[1:])]
    total = None
    for a, b in zip(pts[:-1], pts[1:]):
        for s in (np.arange(200) + 0.5) / 200:
            y = a + s * (b - a)
            Wy = W(y)
            if total is None:
                Wy = _check.matrix(Wy, (None, y.shape[0]), "W(y)", where=where)
            step = Wy @ ((b - a) / 200)
            total = step if total is None else total + step
    return _check.vector(total, None, "the loop integral", where=where)


__all__ += ["loop_integral"]
