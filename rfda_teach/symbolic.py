"""Sympy twins of the paper's formulas, for derivations shown in the book and for tests.

Nothing here calls the numeric code: constraint Jacobians are obtained by
differentiating the position constraints with sympy (D&G eq. 18 for the planar
revolute pair), so comparing these with :mod:`rfda_teach.joints`,
:mod:`rfda_teach.rfda` and :mod:`rfda_teach.coordinates` is an independent check.

Examples
--------
>>> import sympy as sp
>>> fs = featherstone_sliders()
>>> M_hat, f_hat = lubich(fs.M[0], fs.f[0], [(fs.M[1], fs.f[1], fs.G[1], fs.Q[1], fs.gamma[1])])
>>> M_hat                                   # D&G eq. (15)
Matrix([
[m_1 + m_2,   0],
[        0, m_1]])
>>> f_hat.T
Matrix([[f_x1 + f_x2, f_y1]])
"""

from __future__ import annotations

import numbers
from types import SimpleNamespace

import numpy as np
import sympy as sp

from .errors import ConstraintRankError, ModelError

__all__ = ["lubich", "featherstone", "method_2", "appendix_a", "featherstone_sliders", "planar_revolute_pair",
           "planar_rotation", "M_hat_11_printed", "A_tilde_printed", "E_D_eq36", "rational"]


def _flat(x):
    for e in x:
        if isinstance(e, (list, tuple)):
            yield from _flat(e)
        else:
            yield e


def _mat(x, what: str, where: str, *, rows=None, cols=None, column: bool = False) -> sp.Matrix:
    """A sympy Matrix from a sympy Matrix, a numeric numpy array or a (nested) list of numbers and
    sympy expressions; anything else (strings, None, scalars, dicts) is a ModelError naming ``what``."""
    if isinstance(x, sp.MatrixBase):
        M = sp.Matrix(x)
    elif isinstance(x, np.ndarray) and x.dtype.kind in "iuf" and x.ndim in (1, 2):
        M = sp.Matrix(x)
    elif isinstance(x, (list, tuple)) and len(x) and all(
            isinstance(e, (numbers.Number, sp.Basic)) and not isinstance(e, bool) for e in _flat(x)):
        try:
            M = sp.Matrix(x)
        except (ValueError, TypeError, sp.SympifyError) as exc:
            raise ModelError(f"{where}: {what} is not a rectangular matrix: {x!r}") from exc
    else:
        raise ModelError(f"{where}: {what} must be a sympy Matrix (or a numeric array), got {x!r} "
                         f"({type(x).__name__}); build it with sympy.Matrix(...)")
    if column and M.shape[0] == 1 and M.shape[1] != 1 and rows not in (None, 1):
        M = M.T
    if M.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise ModelError(f"{where}: {what} contains nan or an infinity; every entry must be finite")
    if (rows is not None and M.shape[0] != rows) or (cols is not None and M.shape[1] != cols):
        want = f"{'n' if rows is None else rows}x{'n' if cols is None else cols}"
        raise ModelError(f"{where}: {what} has shape {M.shape}; it must be {want}")
    return M


def _square(x, what: str, where: str, n=None) -> sp.Matrix:
    M = _mat(x, what, where, rows=n, cols=n)
    if M.shape[0] != M.shape[1]:
        raise ModelError(f"{where}: {what} has shape {M.shape}; it must be square")
    return M


def _inv(A: sp.Matrix, what: str, where: str, hint: str, err=ConstraintRankError) -> sp.Matrix:
    try:
        return A.inv()
    except (ValueError, ZeroDivisionError) as exc:           # sympy's NonInvertibleMatrixError is a ValueError
        raise err(f"{where}: {what} is singular (rank {A.rank()} of {A.shape[0]}); {hint}") from exc


def _children(children, where: str, names) -> list:
    if children is None or isinstance(children, (str, bytes, dict)) or not hasattr(children, "__iter__"):
        raise ModelError(f"{where}: children must be a list of tuples {tuple(names)}, got {children!r}")
    out = []
    for i, c in enumerate(children):
        if not isinstance(c, (tuple, list)) or len(c) != len(names):
            raise ModelError(f"{where}: children[{i}] must be a tuple {tuple(names)}, got {c!r}")
        out.append(c)
    return out


def _pair(p, where: str):
    if not isinstance(p, SimpleNamespace) or not all(hasattr(p, a) for a in ("s_k", "q_k", "m_k", "J_k", "m_j")):
        raise ModelError(f"{where}: p must be the namespace returned by symbolic.planar_revolute_pair(), "
                         f"got {type(p).__name__}")
    return p



def lubich(M_j, f_j, children):
    """D&G eq. (9)-(10): M_hat_j, f_hat_j from children (M_hat_k, f_hat_k, G_k, Q_k, gamma_k).

    Examples
    --------
    >>> m = sp.Symbol("m", positive=True)
    >>> lubich(sp.eye(1), sp.zeros(1, 1), [(m * sp.eye(1), sp.zeros(1, 1), sp.eye(1), -sp.eye(1),
    ...                                     sp.zeros(1, 1))])[0]
    Matrix([[m + 1]])
    """
    where = "symbolic.lubich"
    M_hat = _square(M_j, "M_j", where)
    p = M_hat.shape[0]
    f_hat = _mat(f_j, "f_j", where, rows=p, cols=1, column=True)
    for i, c in enumerate(_children(children, where, ("M_k", "f_k", "G_k", "Q_k", "gamma_k"))):
        M_k = _square(c[0], f"children[{i}] M_k", where)
        pk = M_k.shape[0]
        f_k = _mat(c[1], f"children[{i}] f_k", where, rows=pk, cols=1, column=True)
        G_k = _mat(c[2], f"children[{i}] G_k", where, cols=pk)
        Q_k = _mat(c[3], f"children[{i}] Q_k", where, rows=G_k.shape[0], cols=p)
        gamma_k = _mat(c[4], f"children[{i}] gamma_k", where, rows=G_k.shape[0], cols=1, column=True)
        Minv = _inv(M_k, f"children[{i}] M_k", where, "a mass matrix must be positive definite", ModelError)
        W = _inv(G_k * Minv * G_k.T, f"children[{i}] G_k M_k^-1 G_k^T (eq. 9)", where,
                 "G_k must have full row rank")
        M_hat += Q_k.T * W * Q_k                                      # D&G eq. (9)
        f_hat += Q_k.T * W * (gamma_k - G_k * Minv * f_k)             # D&G eq. (10)
    return M_hat, f_hat


def featherstone(M_j, f_j, children):
    """D&G eq. (11)-(12): M_hat_j, f_hat_j from children (M_hat_k, f_hat_k, B_k, H_k, d_k).


    Examples
    --------
    >>> fs = featherstone_sliders()
    >>> E, D, B, H = appendix_a(fs.G[1], fs.G_d[1], fs.Q[1], fs.Q_d[1])
    >>> featherstone(fs.M[0], fs.f[0], [(fs.M[1], fs.f[1], B, H, sp.zeros(2, 1))])[0]
    Matrix([
    [m_1 + m_2,   0],
    [        0, m_1]])
    """
    where = "symbolic.featherstone"
    M_hat = _square(M_j, "M_j", where)
    p = M_hat.shape[0]
    f_hat = _mat(f_j, "f_j", where, rows=p, cols=1, column=True)
    for i, c in enumerate(_children(children, where, ("M_k", "f_k", "B_k", "H_k", "d_k"))):
        M_k = _square(c[0], f"children[{i}] M_k", where)
        n = M_k.shape[0]
        f_k = _mat(c[1], f"children[{i}] f_k", where, rows=n, cols=1, column=True)
        B_k = _mat(c[2], f"children[{i}] B_k", where, rows=n, cols=p)
        H_k = _mat(c[3], f"children[{i}] H_k", where, rows=n)
        d_k = _mat(c[4], f"children[{i}] d_k", where, rows=n, cols=1, column=True)
        HMH = _inv(H_k.T * M_k * H_k, f"children[{i}] H_k^T M_k H_k (eq. 11)", where,
                   "the columns of H_k must be independent and M_k positive definite")
        Pk = sp.eye(n) - M_k * H_k * HMH * H_k.T
        M_hat += B_k.T * Pk * M_k * B_k                               # D&G eq. (11)
        f_hat += B_k.T * Pk * (f_k - M_k * d_k)                       # D&G eq. (12)
    return M_hat, f_hat


def appendix_a(G, G_d, Q, Q_d):
    """D&G eq. (60)-(61): E, D = columns of [G; G_d]^{-1}, B = -(E Q + D Q_d), H = D.


    Examples
    --------
    >>> appendix_a(sp.Matrix([[1, 0]]), sp.Matrix([[0, 1]]), sp.Matrix([[-1, 0]]), sp.Matrix([[0, -1]]))[2]
    Matrix([
    [1, 0],
    [0, 1]])
    """
    where = "symbolic.appendix_a"
    G = _mat(G, "G", where)
    m, p = G.shape
    G_d = _mat(G_d, "G_d", where, rows=p - m, cols=p)
    Q = _mat(Q, "Q", where, rows=m)
    Q_d = _mat(Q_d, "Q_d", where, rows=p - m, cols=Q.shape[1])
    inv = _inv(G.col_join(G_d), "[G; G_d] of eq. (60)", where,
               "the constrained rows G and the free rows G_d must together span every velocity direction")
    E, D = inv[:, :m], inv[:, m:]
    return E, D, -(E * Q + D * Q_d), D


def method_2(M, E, D):
    """D&G eq. (42)-(44): A~, E~, D~.


    Examples
    --------
    >>> m = sp.Symbol("m", positive=True)
    >>> method_2(sp.diag(m, m), sp.Matrix([1, 0]), sp.Matrix([0, 1]))[0]
    Matrix([[0]])
    """
    where = "symbolic.method_2"
    M = _square(M, "M", where)
    E = _mat(E, "E", where, rows=M.shape[0])
    D = _mat(D, "D", where, rows=M.shape[0])
    A = -_inv(D.T * M * D, "D^T M D (eq. 42)", where,
              "the columns of D must be independent (condition 1) and M positive definite") * D.T * M * E
    return A, E + D * A, D


def planar_rotation(phi):
    """A(phi) of §3.2.1.


    Examples
    --------
    >>> planar_rotation(sp.pi / 2)
    Matrix([
    [0, -1],
    [1,  0]])
    """
    if isinstance(phi, (bool, str, bytes)) or not isinstance(phi, (numbers.Real, np.floating, np.integer, sp.Expr)):
        raise ModelError(f"symbolic.planar_rotation: phi must be a real number or a sympy expression, got {phi!r} "
                         f"({type(phi).__name__})")
    phi = sp.sympify(phi)
    if phi.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise ModelError(f"symbolic.planar_rotation: phi is {phi}; give a finite angle")
    return sp.Matrix([[sp.cos(phi), -sp.sin(phi)], [sp.sin(phi), sp.cos(phi)]])


def featherstone_sliders():
    """Symbols and matrices of D&G eq. (13)-(14); body index 0 is the paper's body 1.

    Constraint Jacobians come from differentiating r_y1 = 0 and r_x2 - r_x1 = 0.

    Examples
    --------
    >>> featherstone_sliders().Q[1]
    Matrix([[-1, 0]])
    """
    m1, m2 = sp.symbols("m_1 m_2", positive=True)
    fx1, fy1, fx2, fy2 = sp.symbols("f_x1 f_y1 f_x2 f_y2")
    rx1, ry1, rx2, ry2 = sp.symbols("r_x1 r_y1 r_x2 r_y2")
    y1, y2 = sp.Matrix([rx1, ry1]), sp.Matrix([rx2, ry2])
    phi1 = sp.Matrix([ry1])
    phi2 = sp.Matrix([rx2 - rx1])
    return SimpleNamespace(
        m=(m1, m2), M=[m1 * sp.eye(2), m2 * sp.eye(2)], f=[sp.Matrix([fx1, fy1]), sp.Matrix([fx2, fy2])],
        G=[phi1.jacobian(y1), phi2.jacobian(y2)], Q=[None, phi2.jacobian(y1)],
        gamma=[sp.zeros(1, 1), sp.zeros(1, 1)], y=(y1, y2),
        G_d=[sp.Matrix([[1, 0]]), sp.Matrix([[0, 1]])], Q_d=[None, sp.Matrix([[0, -1]])],
        T16=sp.Matrix([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]]))


def planar_revolute_pair():
    """Symbols and matrices of §3.2.1: G_k, Q_k, gamma_k from the constraint D&G eq. (18) by differentiation.


    Examples
    --------
    >>> p = planar_revolute_pair()
    >>> p.G_k[:, :2]
    Matrix([
    [1, 0],
    [0, 1]])
    """
    m_j, J_j, m_k, J_k = sp.symbols("m_j J_j m_k J_k", positive=True)
    x_j, y_j, phi_j, x_k, y_k, phi_k = sp.symbols("x_j y_j phi_j x_k y_k phi_k", real=True)
    xd_j, yd_j, w_j, xd_k, yd_k, w_k = sp.symbols("xdot_j ydot_j omega_j xdot_k ydot_k omega_k", real=True)
    sjx, sjy, skx, sky = sp.symbols("s_jx s_jy s_kx s_ky", real=True)
    qj, qk = sp.Matrix([x_j, y_j, phi_j]), sp.Matrix([x_k, y_k, phi_k])
    vj, vk = sp.Matrix([xd_j, yd_j, w_j]), sp.Matrix([xd_k, yd_k, w_k])
    s_j, s_k = sp.Matrix([sjx, sjy]), sp.Matrix([skx, sky])
    Phi = (sp.Matrix([x_k, y_k]) + planar_rotation(phi_k) * s_k
           - sp.Matrix([x_j, y_j]) - planar_rotation(phi_j) * s_j)            # D&G eq. (18)
    Q_k, G_k = Phi.jacobian(qj), Phi.jacobian(qk)
    Cv = Q_k * vj + G_k * vk
    gamma_k = -(Cv.jacobian(qj) * vj + Cv.jacobian(qk) * vk)                  # D&G eq. (3)
    return SimpleNamespace(
        m_j=m_j, J_j=J_j, m_k=m_k, J_k=J_k, q_j=qj, q_k=qk, v_j=vj, v_k=vk, s_j=s_j, s_k=s_k, Phi=Phi,
        M_j=sp.diag(m_j, m_j, J_j), M_k=sp.diag(m_k, m_k, J_k), Q_k=Q_k, G_k=G_k, gamma_k=gamma_k,
        G_kd=sp.Matrix([[0, 0, 1]]), Q_kd=sp.Matrix([[0, 0, -1]]),
        symbols=dict(m_j=m_j, J_j=J_j, m_k=m_k, J_k=J_k, phi_j=phi_j, phi_k=phi_k, s_jx=sjx, s_jy=sjy,
                     s_kx=skx, s_ky=sky))


def M_hat_11_printed(p):
    """M_hat_j(1,1) exactly as printed in §3.2.1 of the paper.


    Examples
    --------
    >>> p = planar_revolute_pair()
    >>> sp.simplify(M_hat_11_printed(p).subs(p.s_k[0], 0).subs(p.s_k[1], 0))    # pin at k's centre
    m_j + m_k
    """
    p = _pair(p, "symbolic.M_hat_11_printed")
    m_j, J_k, m_k = p.m_j, p.J_k, p.m_k
    sx, sy, phi = p.s_k[0], p.s_k[1], p.q_k[2]
    num = (-2 * m_k ** 2 * sx * sy * sp.sin(2 * phi) + m_k ** 2 * sx ** 2 * sp.cos(2 * phi) + m_k ** 2 * sx ** 2
           + 2 * m_j * J_k + 2 * m_k * J_k + 2 * m_j * m_k * sx ** 2 + 2 * m_j * m_k * sy ** 2
           + m_k ** 2 * sy ** 2 - m_k ** 2 * sy ** 2 * sp.cos(2 * phi))
    return num / (2 * J_k + 2 * m_k * sy ** 2 + 2 * m_k * sx ** 2)


def E_D_eq36(p):
    """E_k and D_k of D&G eq. (36).


    Examples
    --------
    >>> E, D = E_D_eq36(planar_revolute_pair())
    >>> E.shape, D.shape
    ((3, 2), (3, 1))
    """
    p = _pair(p, "symbolic.E_D_eq36")
    sx, sy, phi = p.s_k[0], p.s_k[1], p.q_k[2]
    E = sp.Matrix([[1, 0], [0, 1], [0, 0]])
    D = sp.Matrix([sx * sp.sin(phi) + sy * sp.cos(phi), -sx * sp.cos(phi) + sy * sp.sin(phi), 1])
    return E, D


def A_tilde_printed(p):
    """A~_k of D&G eq. (47) as printed.


    Examples
    --------
    >>> A_tilde_printed(planar_revolute_pair()).shape
    (1, 2)
    """
    p = _pair(p, "symbolic.A_tilde_printed")
    m_k, J_k = p.m_k, p.J_k
    sx, sy, phi = p.s_k[0], p.s_k[1], p.q_k[2]
    den = J_k + m_k * (sx ** 2 + sy ** 2)
    return sp.Matrix([[-m_k * (sp.sin(phi) * sx + sp.cos(phi) * sy) / den,
                       m_k * (sp.cos(phi) * sx - sp.sin(phi) * sy) / den]])


def rational(*matrices):
    """The matrices as sympy ``DomainMatrix`` objects over one field of rational functions
    QQ(x_1, ..., x_r) of all their symbols, for derivations that must end in an exact zero.

    In that field every entry is kept as one reduced fraction of polynomials, so sums, products,
    inverses (``.inv()``) and transposes (``.transpose()``; ``*`` is the matrix product) stay in
    canonical form and a difference that is zero is recognised at once (``.is_zero_matrix``),
    where ``sp.simplify`` on nested inverses would take seconds.  ``.to_Matrix()`` turns a result
    back into a sympy Matrix for display.  Every entry must be a rational function of its
    symbols: replace trigonometric entries by symbols first (a ModelError says which entry).

    Examples
    --------
    >>> import sympy as sp
    >>> m, J, g = sp.symbols("m J g", positive=True)
    >>> M, G = rational(sp.diag(m, m, J), sp.Matrix([[1, 0, g]]))
    >>> W = G * M.inv() * G.transpose()
    >>> W.to_Matrix()
    Matrix([[(J + g**2*m)/(J*m)]])
    >>> (W * W.inv() - W.inv() * W).is_zero_matrix
    True
    """
    from sympy.polys.matrices import DomainMatrix
    from sympy.polys.polyerrors import CoercionFailed
    where = "symbolic.rational"
    if not matrices:
        raise ModelError(f"{where}: give at least one matrix")
    mats = [_mat(M, f"matrix {i + 1}", where) for i, M in enumerate(matrices)]
    syms = sorted(set().union(*(M.free_symbols for M in mats)), key=str)
    K = sp.QQ.frac_field(*syms) if syms else sp.QQ
    out = []
    for i, M in enumerate(mats):
        for e in M:
            try:
                K.from_sympy(e)
            except (CoercionFailed, ValueError, TypeError) as exc:
                raise ModelError(f"{where}: entry {e} of matrix {i + 1} is not a rational function of "
                                 f"its symbols; replace it by a symbol (and map it back with subs)") from exc
        out.append(DomainMatrix.from_Matrix(M).convert_to(K))
    return out
