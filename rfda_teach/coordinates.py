"""The coordinates of RFDA: E and D, conditions 1 and 2, Methods 1 and 2 (§4-§6, Appendix A-B).

For a joint k with constraint rows G_k (eq. 1) a change of velocity coordinates
of body k, ydot_k = [E~_k D~_k] [y~dot_kc; y~dot_kf] (eq. 31), splits the body's
motion into a part fixed by the parent (y~_kc) and a free part (y~_kf) when

* condition 1: the columns of D~_k are a basis of the null space of G_k, and
* condition 2: D~_k^T M_k E~_k = 0 (the mass matrix eq. 33 is block diagonal).

Method 1 (eq. 37-38): D~ = D C_f, E~ = M^{-1} G^T C_c.
Method 2 (eq. 41-44): D~ = D, E~ = E + D A~, A~ = -(D^T M D)^{-1} D^T M E.

Composed with S_k, a_k (eq. 22, 53) they give the coordinates of RFDA
[y_j; xi_j] of every node, eq. (49)-(57), in which the mass matrix of node j
and all its descendants is diag(M_hat_j, Lambda_j) and the y_j rows are the
equations of RFDA, eq. (8).

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

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.linalg

from .errors import ConstraintRankError, ModelError, RFDAError
from .system import System, terms

__all__ = ["appendix_a", "null_space_E_D", "condition_1", "condition_2", "ConditionCheck", "method_1",
           "method_2", "S_a", "appendix_b", "TwoNode", "two_node", "NodeCoordinates", "rfda_coordinates",
           "members"]


def appendix_a(G: np.ndarray, G_d: np.ndarray, Q=None, Q_d=None, gamma=None, gamma_d=None):
    """E_k, D_k of eq. (60) and B_k, H_k, d_k of eq. (61) and (5).

    [E_k D_k] = [G_k; G_kd]^{-1};  B_k = -(E_k Q_k + D_k Q_kd);  H_k = D_k;
    d_k = E_k gamma_k + D_k gamma_kd (second derivative of eq. 59).  B_k is None
    when Q is None (the root).


    Examples
    --------
    >>> import numpy as np
    >>> E, D, B, H, d = appendix_a(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]),
    ...                            Q=np.array([[-1.0, 0.0]]), Q_d=np.array([[0.0, -1.0]]))
    >>> B + 0.0                            # Featherstone's slider 2 moves with slider 1 when q2 is held
    array([[1., 0.],
           [0., 1.]])
    """
    m = G.shape[0]
    A = np.vstack([G, G_d])
    try:
        inv = np.linalg.inv(A)
    except np.linalg.LinAlgError:
        raise ConstraintRankError(f"[G_k; G_kd] of eq. (60) is singular (rank {np.linalg.matrix_rank(A)} of "
                                  f"{A.shape[0]}); the joint's constrained and free rows must span every direction") from None
    E, D = inv[:, :m], inv[:, m:]                               # eq. (60)
    B = None if Q is None else -(E @ Q + D @ Q_d)               # eq. (61)
    d = None
    if gamma is not None:
        d = E @ gamma + D @ gamma_d                             # eq. (5) via eq. (59)
    return E, D, B, D, d


def _full_row_rank(G: np.ndarray, what: str = "G_k") -> None:
    G = np.atleast_2d(G)
    if G.shape[0] == 0:
        return
    r = np.linalg.matrix_rank(G)
    if r < G.shape[0]:
        raise ConstraintRankError(f"{what} has {G.shape[0]} rows but rank {r}; the paper assumes G_k of full "
                                  "row rank (§2): remove the dependent constraint rows")


def null_space_E_D(G: np.ndarray):
    """E_k, D_k from a null-space basis (eq. 35): D = orthonormal basis of null(G), E = G^T (G G^T)^{-1}.

    [E D] is non-singular and G E = I, G D = 0, so condition 1 holds for D.


    Examples
    --------
    >>> import numpy as np
    >>> E, D = null_space_E_D(np.array([[1.0, 0.0]]))
    >>> E.ravel(), np.abs(D.ravel())
    (array([1., 0.]), array([0., 1.]))
    """
    G = np.atleast_2d(np.asarray(G, float))
    _full_row_rank(G)
    D = scipy.linalg.null_space(G) if G.shape[0] else np.eye(G.shape[1])
    E = G.T @ np.linalg.inv(G @ G.T) if G.shape[0] else np.zeros((G.shape[1], 0))
    return E, D


class ConditionCheck(NamedTuple):
    """Result of a condition check: whether it holds and the relative residual."""

    holds: bool
    residual: float


def condition_1(G: np.ndarray, D_tilde: np.ndarray, tol: float = 1e-10) -> ConditionCheck:
    """Condition 1 (§5.1): columns of D~_k are a basis of the null space of G_k.

    Checks G D~ = 0 (relative to |G| |D~|), that D~ has p_k - p_kc columns, and full column rank.

    Examples
    --------
    >>> import numpy as np
    >>> condition_1(np.array([[1.0, 0.0]]), np.array([[0.0], [2.0]])).holds
    True
    """
    G = np.atleast_2d(G)
    p, m = G.shape[1], G.shape[0]
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
    if E_tilde.size == 0 or D_tilde.size == 0:
        return ConditionCheck(True, 0.0)
    scale = max(np.linalg.norm(D_tilde) * np.linalg.norm(M) * np.linalg.norm(E_tilde), 1e-300)
    res = float(np.linalg.norm(D_tilde.T @ M @ E_tilde) / scale)
    return ConditionCheck(res < tol, res)


def _nonsingular(C, n: int, name: str) -> np.ndarray:
    C = np.eye(n) if C is None else np.atleast_2d(np.asarray(C, float))
    if C.shape != (n, n) or (n and abs(np.linalg.det(C)) < 1e-14 * max(1.0, np.abs(C).max()) ** n):
        raise ModelError(f"{name} must be a non-singular {n}x{n} matrix (eq. 37-38), got shape {C.shape}"
                         + ("" if C.shape != (n, n) else f" with determinant {np.linalg.det(C):.3g}"))
    return C


def method_1(M: np.ndarray, G: np.ndarray, D: np.ndarray, C_c=None, C_f=None):
    """Method 1, eq. (37)-(38): D~ = D C_f and E~ = M^{-1} G^T C_c for non-singular C_c, C_f.

    Returns (E~, D~).


    Examples
    --------
    >>> import numpy as np
    >>> M = np.diag([1.0, 1.0, 0.1]); G = np.array([[1.0, 0, 0.5], [0, 1.0, 0]])
    >>> E, D = null_space_E_D(G)
    >>> Et, Dt = method_1(M, G, D, C_c=[[2.0, 1.0], [0.0, 1.0]], C_f=[[-3.0]])
    >>> condition_1(G, Dt).holds and condition_2(M, Et, Dt).holds
    True
    """
    G = np.atleast_2d(G)
    _full_row_rank(G)
    C_c = _nonsingular(C_c, G.shape[0], "C_c")
    C_f = _nonsingular(C_f, D.shape[1], "C_f")
    D_tilde = D @ C_f                                           # eq. (37)
    E_tilde = np.linalg.solve(M, G.T @ C_c)                     # eq. (38)
    return E_tilde, D_tilde


def method_2(M: np.ndarray, E: np.ndarray, D: np.ndarray):
    """Method 2, eq. (42)-(44): A~ = -(D^T M D)^{-1} D^T M E, E~ = E + D A~, D~ = D.

    Returns (E~, D~, A~).

    Examples
    --------
    >>> import numpy as np
    >>> M = np.array([[2.0, 1.0], [1.0, 2.0]]); E = np.array([[1.0], [0.0]]); D = np.array([[0.0], [1.0]])
    >>> Et, Dt, A = method_2(M, E, D)
    >>> A, Et.ravel()                    # E~ = E - D (D^T M D)^-1 D^T M E
    (array([[-0.5]]), array([ 1. , -0.5]))
    """
    DMD = D.T @ M @ D
    A_tilde = -np.linalg.solve(DMD, D.T @ M @ E) if D.shape[1] else np.zeros((0, E.shape[1]))  # eq. (42)
    E_tilde = E + D @ A_tilde                                   # eq. (43)
    return E_tilde, D, A_tilde                                  # eq. (44)


def S_a(G: np.ndarray, Q, E_tilde: np.ndarray, nu=None):
    """S_k = -(G_k E~_k)^{-1} Q_k and a_k = (G_k E~_k)^{-1} nu_k, eq. (22) and (53).

    Q is None for the root (then S is None).

    Examples
    --------
    >>> import numpy as np
    >>> S, a = S_a(np.array([[1.0, 0.0]]), np.array([[-1.0, 0.0]]), np.array([[1.0], [0.0]]))
    >>> S, a                             # Featherstone: y~_2c = r_x2 follows r_x1
    (array([[ 1., -0.]]), array([0.]))
    """
    GE = G @ E_tilde
    S = None if Q is None else -np.linalg.solve(GE, Q)
    a = np.zeros(G.shape[0]) if nu is None else np.linalg.solve(GE, nu)
    return S, a


def appendix_b(T: np.ndarray, M_u: np.ndarray) -> np.ndarray:
    """Mass matrix under a change of coordinates udot = T vdot + e: M_v = T^T M_u T (eq. 64).


    Examples
    --------
    >>> import numpy as np
    >>> T = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]])   # eq. (16)
    >>> appendix_b(T, np.diag([1.0, 1.0, 2.0, 2.0]))                   # eq. (17)
    array([[3., 0., 0.],
           [0., 1., 0.],
           [0., 0., 2.]])
    """
    return T.T @ M_u @ T


@dataclass(frozen=True, eq=False)
class TwoNode:
    """The two-node construction of §4: S_k, a_k (eq. 22), the transformation of eq. (26),
    its composition with eq. (31) (eq. 48), and the mass matrix of eq. (28)."""

    E_tilde: np.ndarray
    D_tilde: np.ndarray
    S: np.ndarray
    a: np.ndarray
    T26: np.ndarray       # [ydot_j; y~dot_kc; y~dot_kf] = T26 [ydot_j; y~dot_kf] + [0; a; 0]
    T48: np.ndarray       # [ydot_j; ydot_k] = T48 [ydot_j; y~dot_kf] + [0; E~ a]
    M_hat: np.ndarray     # M_j + S^T M~_kc S, the y_j block of eq. (28)
    M_kf: np.ndarray      # D~^T M_k D~
    M28: np.ndarray       # diag(M_hat, M_kf)


def two_node(M_j, M_k, G_k, Q_k, E_tilde, D_tilde, nu_k=None) -> TwoNode:
    """Coordinates of RFDA for a parent j and a terminal child k, eq. (22), (26), (28), (48).


    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, coordinates as co
    >>> tn = co.two_node(np.eye(2), 2 * np.eye(2), np.array([[1.0, 0]]), np.array([[-1.0, 0]]),
    ...                  np.array([[1.0], [0]]), np.array([[0.0], [1]]))
    >>> tn.M28                          # eq. (17) with m1 = 1, m2 = 2
    array([[3., 0., 0.],
           [0., 1., 0.],
           [0., 0., 2.]])
    """
    S, a = S_a(G_k, Q_k, E_tilde, nu_k)
    pj, mc, fk = M_j.shape[0], E_tilde.shape[1], D_tilde.shape[1]
    T26 = np.zeros((pj + mc + fk, pj + fk))
    T26[:pj, :pj] = np.eye(pj)                                  # eq. (26)
    T26[pj:pj + mc, :pj] = S
    T26[pj + mc:, pj:] = np.eye(fk)
    T48 = np.zeros((pj + M_k.shape[0], pj + fk))
    T48[:pj, :pj] = np.eye(pj)                                  # eq. (48)
    T48[pj:, :pj] = E_tilde @ S
    T48[pj:, pj:] = D_tilde
    M_kc = E_tilde.T @ M_k @ E_tilde
    M_kf = D_tilde.T @ M_k @ D_tilde
    M_hat = M_j + S.T @ M_kc @ S                                # eq. (28), (29)
    return TwoNode(E_tilde, D_tilde, S, a, T26, T48, M_hat, M_kf, scipy.linalg.block_diag(M_hat, M_kf))


@dataclass(frozen=True, eq=False)
class NodeCoordinates:
    """Coordinates of RFDA [y_j; xi_j] of one node j (eq. 49-57).

    ``members`` are j and its descendants h(j, 1..), ``T`` maps [ydot_j; xidot_j] to
    the stacked absolute velocities of the members (in that order), ``varpi`` is the
    constant term; ``M_hat`` and ``Lambda`` are the two diagonal blocks of eq. (57).
    ``P`` and ``R`` are the blocks of T below the identity (eq. 49, property 1).
    ``child`` maps every child k to (E~_k, D~_k, S_k, a_k).
    """

    node: int
    members: tuple
    T: np.ndarray
    varpi: np.ndarray
    M_hat: np.ndarray
    Lambda: np.ndarray
    child: dict

    @property
    def p(self) -> int:
        """Size of y_j velocities."""
        return self.M_hat.shape[0]

    @property
    def P(self) -> np.ndarray:
        """P_j of property 1 (eq. 49)."""
        return self.T[self.p:, :self.p]

    @property
    def R(self) -> np.ndarray:
        """R_j of property 1 (eq. 49)."""
        return self.T[self.p:, self.p:]

    @property
    def mass_matrix(self) -> np.ndarray:
        """diag(M_hat_j, Lambda_j), eq. (57)."""
        return scipy.linalg.block_diag(self.M_hat, self.Lambda)


def members(system: System, j: int) -> tuple:
    """Node j followed by its descendants h(j, 1), h(j, 2), ... (ascending).


    Examples
    --------
    >>> from rfda_teach import models
    >>> members(models.figure1_tree(), 5)
    (5, 10, 11)
    """
    return (j,) + system.topology.descendants(j)


def rfda_coordinates(system: System, state, t: float = 0.0, *, method: str = "method2", C_c=None,
                     C_f=None) -> list:
    """Coordinates of RFDA of every node of a tree, eq. (49)-(57), built leaves to root.

    ``method`` is ``"method1"`` (eq. 37-38; ``C_c``, ``C_f`` optional dicts node -> matrix)
    or ``"method2"`` (eq. 43-44 with E_k, D_k of Appendix A, eq. 60).  Returns a list
    of :class:`NodeCoordinates`, indexed by node.  This builds dense matrices the size
    of each subtree: it is for teaching and checking, not the O(n) algorithm.


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
    if method not in ("method1", "method2"):
        raise ModelError(f"method={method!r} is not known; use 'method1' (eq. 37-38) or 'method2' (eq. 43-44)")
    tr = terms(system, state, t)
    out = [None] * system.n
    for j in reversed(system.topology.order):
        M_hat = tr.M[j].copy()
        pj = M_hat.shape[0]
        mem = members(system, j)
        row_of = {}
        r = 0
        for i in mem:
            row_of[i] = r
            r += system.vel_slices[i].stop - system.vel_slices[i].start
        cols_xi, Lambdas, childinfo, pieces = 0, [], {}, []
        for k in system.topology.children(j):
            jt, ck = tr.joint[k], out[k]
            if method == "method2":
                E, D = appendix_a(jt.G, jt.G_d)[:2]
                Et, Dt, _ = method_2(ck.M_hat, E, D)
            else:
                D = appendix_a(jt.G, jt.G_d)[1]
                Et, Dt = method_1(ck.M_hat, jt.G, D, (C_c or {}).get(k), (C_f or {}).get(k))
            S, a = S_a(jt.G, jt.Q, Et, jt.nu)                                  # eq. (53)
            M_hat = M_hat + S.T @ (Et.T @ ck.M_hat @ Et) @ S                  # eq. (57)
            Lambdas += [Dt.T @ ck.M_hat @ Dt, ck.Lambda]                      # eq. (54): M~_kf
            childinfo[k] = (Et, Dt, S, a)
            pieces.append((k, ck, Et, Dt, S, a, cols_xi))
            cols_xi += Dt.shape[1] + ck.Lambda.shape[0]
        T = np.zeros((r, pj + cols_xi))
        varpi = np.zeros(r)
        T[:pj, :pj] = np.eye(pj)
        for k, ck, Et, Dt, S, a, c0 in pieces:
            fk = Dt.shape[1]
            Ty = ck.T[:, :ck.p]                                               # subtree of k moved by ydot_k
            rows = np.concatenate([np.arange(row_of[i], row_of[i] + system.vel_slices[i].stop
                                             - system.vel_slices[i].start) for i in ck.members])
            T[rows, :pj] = Ty @ Et @ S                                        # eq. (51), (55)
            T[rows, pj + c0:pj + c0 + fk] = Ty @ Dt
            T[rows, pj + c0 + fk:pj + c0 + fk + ck.T.shape[1] - ck.p] = ck.T[:, ck.p:]
            varpi[rows] = Ty @ Et @ a + ck.varpi
        Lam = scipy.linalg.block_diag(*Lambdas) if Lambdas else np.zeros((0, 0))
        out[j] = NodeCoordinates(j, mem, T, varpi, M_hat, Lam, childinfo)
    return out


def subtree_mass_matrix(system: System, state, nodes) -> np.ndarray:
    """diag(M_i) of eq. (6) for the listed bodies, in that order.


    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.featherstone_sliders(m1=1.0, m2=2.0)
    >>> subtree_mass_matrix(sys, models.random_state(sys), [1])
    array([[2., 0.],
           [0., 2.]])
    """
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
    """Run Method 1 (eq. 37-38, with C_c, C_f) and Method 2 (eq. 43-44) on a parent-child pair and
    compare M_hat_j = M_j + S_k^T E~^T M_k E~ S_k (eq. 28) with eq. (9).

    E_k, D_k come from Appendix A (eq. 60).

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
    E, D = appendix_a(G_k, G_kd)[:2]
    Et1, Dt1 = method_1(M_k, G_k, D, C_c, C_f)
    Et2, Dt2, _ = method_2(M_k, E, D)
    M_hats = []
    for Et in (Et1, Et2):
        S, _ = S_a(G_k, Q_k, Et)
        M_hats.append(M_j + S.T @ (Et.T @ M_k @ Et) @ S)
    W = np.linalg.inv(G_k @ np.linalg.solve(M_k, G_k.T))
    M9 = M_j + Q_k.T @ W @ Q_k                                               # eq. (9)
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
    total = None
    for a, b in zip(path[:-1], path[1:]):
        a, b = np.asarray(a, float), np.asarray(b, float)
        for s in (np.arange(200) + 0.5) / 200:
            y = a + s * (b - a)
            step = W(y) @ ((b - a) / 200)
            total = step if total is None else total + step
    return total


__all__ += ["loop_integral"]
