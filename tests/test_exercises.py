"""Every checker of rfda_teach.exercises accepts the reference solution, rejects typical wrong
answers with a hint, says "not implemented yet" for a stub, never prints the expected numbers,
and refuses a non-callable with a ModelError."""

import importlib
import os
import pkgutil
import re

import numpy as np
import pytest

from rfda_teach import exercises as ex
from rfda_teach.bodies import skew
from rfda_teach.spatial import euler_params_to_matrix
from rfda_teach.errors import ModelError
from rfda_teach.joints import evaluate


# ----------------------------------------------------------------------------- reference solutions

def rate_matrix(e):
    E = np.column_stack([-e[1:], e[0] * np.eye(3) + skew(e[1:])])
    return 0.5 * E.T


def rate_matrix_body(e):                       # 1/2 G^T: omega in body components
    G = np.column_stack([-e[1:], e[0] * np.eye(3) - skew(e[1:])])
    return 0.5 * G.T


def rotation(e):
    e0, v = e[0], e[1:]
    return (e0 ** 2 - v @ v) * np.eye(3) + 2 * np.outer(v, v) + 2 * e0 * skew(v)


def unskew(W):
    return np.array([W[2, 1], W[0, 2], W[1, 0]])


def angular_velocity(R, Rd):
    return unskew(Rd @ R.T)


def gyroscopic(J_body, R, w):
    return -np.cross(w, R @ J_body @ R.T @ w)


def body_mass_matrix(body, y):
    m = body.mass
    if body.kind == "point2":
        return m * np.eye(2)
    if body.kind == "planar":
        return np.diag([m, m, body.J[0, 0]])
    R = rotation(y[3:])
    return np.block([[m * np.eye(3), np.zeros((3, 3))], [np.zeros((3, 3)), R @ body.J @ R.T]])


def prismatic_rows(jt, yj, ydj, yk, ydk):
    t = evaluate(jt, "planar", yj, ydj, yk, ydk)
    return t.G, t.gamma


def baumgarte(M, C, f, gamma, phi, phi_dot, alpha, beta):
    n, m = M.shape[0], C.shape[0]
    K = np.block([[M, C.T], [C, np.zeros((m, m))]])
    x = np.linalg.solve(K, np.r_[f, gamma - 2 * alpha * phi_dot - beta ** 2 * phi])
    return x[:n], x[n:]


def _baumgarte_with(sign=1.0, two=2.0, power=2):
    def fn(M, C, f, gamma, phi, phi_dot, alpha, beta):
        g = gamma - sign * (two * alpha * phi_dot + beta ** power * phi)
        return baumgarte(M, C, f, g, 0 * phi, 0 * phi_dot, 0.0, 0.0)
    return fn


REFERENCE = {
    "euler_rate_matrix": rate_matrix,
    "rotation_from_euler": rotation,
    "angular_velocity": angular_velocity,
    "gyroscopic_term": gyroscopic,
    "body_mass_matrix": body_mass_matrix,
    "prismatic_rows": prismatic_rows,
    "baumgarte_step": baumgarte,
}


def _transposed_mass(body, y):
    M = body_mass_matrix(body, y)
    if body.kind == "spatial":
        R = rotation(y[3:])
        M[3:, 3:] = R.T @ body.J @ R
    return M


def _unrotated_mass(body, y):
    M = body_mass_matrix(body, y)
    if body.kind == "spatial":
        M[3:, 3:] = body.J
    return M


#: (checker, wrong solution, a word the hint must contain)
WRONG = [
    ("euler_rate_matrix", lambda e: rate_matrix(e).T, "transpose"),
    ("euler_rate_matrix", lambda e: -rate_matrix(e), "sign"),
    ("euler_rate_matrix", lambda e: 2 * rate_matrix(e), "1/2"),
    ("euler_rate_matrix", rate_matrix_body, "body vs global"),
    ("euler_rate_matrix", lambda e: rate_matrix(np.roll(e, 1)), "scalar part first"),
    ("rotation_from_euler", lambda e: rotation(e).T, "transposed"),
    ("rotation_from_euler", lambda e: rotation(np.roll(e, 1)), "scalar part first"),
    ("rotation_from_euler", lambda e: 2 * rotation(e), "1/2"),
    ("angular_velocity", lambda R, Rd: unskew(R.T @ Rd), "body vs global"),
    ("angular_velocity", lambda R, Rd: -angular_velocity(R, Rd), "sign"),
    ("angular_velocity", lambda R, Rd: 2 * angular_velocity(R, Rd), "1/2"),
    ("gyroscopic_term", lambda J, R, w: -gyroscopic(J, R, w), "sign of the gyroscopic term"),
    ("gyroscopic_term", lambda J, R, w: -np.cross(w, J @ w), "rotate"),
    ("gyroscopic_term", lambda J, R, w: -np.cross(w, R.T @ J @ R @ w), "transposed"),
    ("body_mass_matrix", _transposed_mass, "transposed"),
    ("body_mass_matrix", _unrotated_mass, "rotate"),
    ("body_mass_matrix", lambda b, y: -body_mass_matrix(b, y), "sign"),
    ("prismatic_rows", lambda *a: (prismatic_rows(*a)[0], -prismatic_rows(*a)[1]), "sign of gamma"),
    ("prismatic_rows", lambda *a: (-prismatic_rows(*a)[0], -prismatic_rows(*a)[1]), "sign"),
    ("prismatic_rows", lambda *a: (prismatic_rows(*a)[0], 0 * prismatic_rows(*a)[1]), "gamma_k is not zero"),
    ("baumgarte_step", lambda *a: (baumgarte(*a)[0], -baumgarte(*a)[1]), "sign of lambda"),
    ("baumgarte_step", _baumgarte_with(sign=-1.0), "sign of the correction"),
    ("baumgarte_step", _baumgarte_with(two=1.0), "missing factor 2"),
    ("baumgarte_step", _baumgarte_with(power=1), "beta squared"),
    ("baumgarte_step", _baumgarte_with(sign=0.0), "correction"),
]


# ----------------------------------------------------------------------------- the planar revolute joint (eq. 18)

def revolute_rows(jt, yj, ydj, yk, ydk):
    """G_k, Q_k, gamma_k typed from eq. (18), independent of joints.evaluate."""
    def A(p):
        return np.array([[np.cos(p), -np.sin(p)], [np.sin(p), np.cos(p)]])
    a_j, a_k = A(yj[2]) @ jt.parent_point, A(yk[2]) @ jt.child_point
    perp = lambda a: np.array([-a[1], a[0]])          # noqa: E731  d(A a')/dphi
    G = np.column_stack([np.eye(2), perp(a_k)])
    Q = np.column_stack([-np.eye(2), -perp(a_j)])
    return G, Q, ydk[2] ** 2 * a_k - ydj[2] ** 2 * a_j


REFERENCE["revolute_rows"] = revolute_rows
WRONG += [
    ("revolute_rows", lambda *a: (revolute_rows(*a)[1], revolute_rows(*a)[0], revolute_rows(*a)[2]), "swapped"),
    ("revolute_rows", lambda *a: (*revolute_rows(*a)[:2], -revolute_rows(*a)[2]), "sign of gamma"),
    ("revolute_rows", lambda *a: (*revolute_rows(*a)[:2], revolute_rows(a[0], a[1], 0 * a[2], a[3], a[4])[2]),
     "parent term"),
    ("revolute_rows", lambda *a: (*revolute_rows(*a)[:2], 0 * revolute_rows(*a)[2]), "gamma_k is not zero"),
]


# ----------------------------------------------------------------------------- spatial vectors, one elimination

def planar_shift(r):
    return np.array([[1.0, 0.0, 0.0], [-r[1], 1.0, 0.0], [r[0], 0.0, 1.0]])


def planar_inertia_shift(m, J, c):
    S = planar_shift(c)
    return S.T @ np.diag([J, m, m]) @ S


def lubich_contribution(M, f, G, Q, g):
    W = G @ np.linalg.solve(M, G.T)
    return Q.T @ np.linalg.solve(W, Q), Q.T @ np.linalg.solve(W, g - G @ np.linalg.solve(M, f))


REFERENCE["planar_shift"] = planar_shift
REFERENCE["planar_inertia_shift"] = planar_inertia_shift
REFERENCE["lubich_contribution"] = lubich_contribution


def crba(M, B, H):
    """CRBA for a chain, written independently of rfda_teach.jointspace."""
    n = len(M)
    off = np.cumsum([0] + [h.shape[1] for h in H])
    comp = [m.copy() for m in M]
    for k in range(n - 1, 0, -1):
        comp[k - 1] = comp[k - 1] + B[k].T @ comp[k] @ B[k]
    Mq = np.zeros((off[-1], off[-1]))
    for k in range(n):
        F = comp[k] @ H[k]
        sk = slice(off[k], off[k + 1])
        Mq[sk, sk] = H[k].T @ F
        for i in range(k, 0, -1):
            F = B[i].T @ F
            si = slice(off[i - 1], off[i])
            Mq[si, sk] = H[i - 1].T @ F
            Mq[sk, si] = Mq[si, sk].T
    return Mq


REFERENCE["crba"] = crba


# ----------------------------------------------------------------------------- Kane (Part II)

def kane_partial_angular_velocities(L, R):
    """Eq. (14)-(15) of the Kane notes, densely: row K = [^J R_K] row J, identity in block K."""
    N = len(L)
    W = np.zeros((N, 3, 3 * N))
    for K in range(N):
        if L[K] > 0:
            W[K] = R[K] @ W[L[K] - 1]
        W[K][:, 3 * K:3 * K + 3] = np.eye(3)
    return W


REFERENCE["kane_partial_angular_velocities"] = kane_partial_angular_velocities


def test_crba_without_composite_inertia_gets_its_hint(capsys):
    def no_composite(M, B, H):
        Mq = crba(M, B, H)
        off = np.cumsum([0] + [h.shape[1] for h in H])
        for k in range(len(M)):
            sl = slice(off[k], off[k + 1])
            Mq[sl, sl] = H[k].T @ M[k] @ H[k]
        return Mq
    r = ex.check_crba(no_composite)
    assert not r.passed and "composite inertia" in capsys.readouterr().out
WRONG += [
    ("planar_shift", lambda r: planar_shift(-r), "direction of r"),
    ("planar_shift", lambda r: planar_shift(r).T, "wrench"),
    ("planar_shift", lambda r: np.eye(3), "v_B = v_A + omega x r"),
    ("planar_inertia_shift", lambda m, J, c: np.diag([J, m, m]), "parallel-axis"),
    ("planar_inertia_shift", lambda m, J, c: planar_shift(c) @ np.diag([J, m, m]) @ planar_shift(c).T, "X(c)^T I_c X(c)"),
    ("planar_inertia_shift", lambda m, J, c: planar_inertia_shift(m, J, -c), "direction of c"),
    ("lubich_contribution", lambda M, f, G, Q, g: (lubich_contribution(M, f, G, Q, g)[0],
                                                   lubich_contribution(M, f, G, Q, -g)[1]), "sign of gamma_k"),
    ("lubich_contribution", lambda M, f, G, Q, g: (Q.T @ G @ np.linalg.solve(M, G.T) @ Q,
                                                   lubich_contribution(M, f, G, Q, g)[1]), "invert W_k"),
    ("lubich_contribution", lambda M, f, G, Q, g: tuple(-x for x in lubich_contribution(M, f, G, Q, g)),
     "sign"),
]


def test_lubich_contribution_names_f_for_f_hat(capsys):
    """The misprint of eq. (12) has a twin here: f_k where f_hat_k belongs."""
    from rfda_teach import models, rfda
    from rfda_teach.system import terms
    cache = {}

    def fn(M, f, G, Q, g):
        # look up f_k of the same node: find it by M_hat among cached runs
        for key, (Mh, fk) in cache.items():
            if np.array_equal(M, Mh):
                return lubich_contribution(M, fk, G, Q, g)
        return lubich_contribution(M, f, G, Q, g)
    s = ex.SEED
    for s in range(ex.SEED, ex.SEED + 20):
        sys = models.random_tree(5, kind="planar" if s % 2 == 0 else "spatial", seed=s)
        st = models.random_state(sys, seed=s)
        tr, res = terms(sys, st), rfda.forward_dynamics(sys, st)
        for k in range(sys.n):
            cache[(s, k)] = (res.M_hat[k], tr.f[k])
    r = ex.check_lubich_contribution(fn)
    out = capsys.readouterr().out
    assert not r.passed and "f_hat_k, not f_k" in out, out


# ----------------------------------------------------------------------------- the analysis reference point

def equipollent(m, J, s, s_dot, omega, F, tau):
    """Eq. (8) of Kang & Yoon written out block by block (independent of refpoint.equipollent)."""
    S = np.array([[0, -s[2], s[1]], [s[2], 0, -s[0]], [-s[1], s[0], 0]])
    M = np.block([[m * np.eye(3), m * S], [-m * S, J - m * S @ S]])
    top = F - m * np.cross(s_dot, omega)
    return M, np.r_[top, tau - np.cross(omega, J @ omega) - np.cross(s, top)]


REFERENCE["equipollent"] = equipollent
WRONG += [
    ("equipollent", lambda m, J, s, sd, w, F, t: equipollent(m, J, -s, -sd, w, F, t), "direction of s"),
    ("equipollent", lambda m, J, s, sd, w, F, t: equipollent(m, J, s, 0 * sd, w, F, t), "Tdot Y^P"),
    ("equipollent", lambda m, J, s, sd, w, F, t: (equipollent(m, J, s, sd, w, F, t)[0],
                                                  np.r_[equipollent(m, J, s, sd, w, F, t)[1][:3],
                                                        equipollent(m, J, s, sd, w, F, t)[1][3:]
                                                        + 2 * np.cross(s, F - m * np.cross(sd, w))]),
     "moment about P"),
    ("equipollent", lambda m, J, s, sd, w, F, t: (equipollent(m, J, s, sd, w, F, t)[0]
                                                  - np.block([[np.zeros((3, 6))], [np.zeros((3, 3)), 2 * m * (
                                                      s @ s * np.eye(3) - np.outer(s, s))]]),
                                                  equipollent(m, J, s, sd, w, F, t)[1]), "parallel axis"),
]


# ----------------------------------------------------------------------------- closed loops: one RCR inward step

def rcr_reduction_step(R, a):
    Ra = R @ a
    Q = 1.0 / (a @ Ra)
    return Q, R - Q * np.outer(Ra, Ra)


REFERENCE["rcr_reduction_step"] = rcr_reduction_step
WRONG += [
    ("rcr_reduction_step", lambda R, a: (1.0 / (a @ a), rcr_reduction_step(R, a)[1]), "R^{k+1}"),
    ("rcr_reduction_step", lambda R, a: (rcr_reduction_step(R, a)[0],
                                         np.eye(3) - rcr_reduction_step(R, a)[0] * np.outer(a, a)),
     "eq. (36)"),
]


def velocity_transformation(p_i, p_j, r_j, Bw):
    """B_j1 and B_j2 of eq. (24) from v_j = v_i + omega_i x (p_j - p_i) + (Bw qd) x (p_j - r_j)."""
    def sk(a):
        return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    B1 = np.block([[np.eye(3), sk(p_i - p_j)], [np.zeros((3, 3)), np.eye(3)]])
    return B1, np.vstack([sk(r_j - p_j) @ Bw, Bw])


REFERENCE["velocity_transformation"] = velocity_transformation
WRONG += [
    ("velocity_transformation", lambda pi, pj, rj, Bw: velocity_transformation(pj, pi, rj, Bw), "direction"),
    ("velocity_transformation", lambda pi, pj, rj, Bw: (velocity_transformation(pi, pj, rj, Bw)[0],
                                                        np.vstack([0 * Bw, Bw])), "shift it to p_j"),
    ("velocity_transformation", lambda pi, pj, rj, Bw: (np.eye(6), velocity_transformation(pi, pj, rj, Bw)[1]),
     "identity only"),
]


def _numbers(text):
    return [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", text)]


# the later chapters' tables live in tests/exercise_refs/<chapter>.py
_REFS = [importlib.import_module(f"exercise_refs.{m.name}")
         for m in pkgutil.iter_modules([os.path.join(os.path.dirname(__file__), "exercise_refs")])]
for _t in _REFS:
    assert not set(_t.REFERENCE) & set(REFERENCE), _t.__name__
    REFERENCE.update(_t.REFERENCE)
    WRONG += _t.WRONG


def test_every_checker_has_a_reference_here():
    assert set(ex.CHECKERS) == set(REFERENCE)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_reference_solution_passes(name, capsys):
    r = ex.CHECKERS[name](REFERENCE[name])
    out = capsys.readouterr().out
    assert r.passed and r.implemented and r.n_cases == ex.N_CASES
    assert out.strip() == f"check_{name}: passed on {ex.N_CASES} cases"
    assert out.count("\n") == 1


@pytest.mark.parametrize("name,fn,word", WRONG, ids=[f"{n}-{w}" for n, _, w in WRONG])
def test_typical_wrong_answer_is_rejected_with_a_hint(name, fn, word, capsys):
    r = ex.CHECKERS[name](fn)
    out = capsys.readouterr().out
    assert not r.passed and r.implemented
    assert out.count("\n") == 1 and out.startswith(f"check_{name}: not yet, case ")
    assert word in out, out


def _perturbed(fn):
    """The reference plus 1e-3: wrong, but close enough that its numbers would show in a leak."""
    def wrong(*args):
        out = fn(*args)
        if isinstance(out, tuple):
            return tuple(np.asarray(o) + 1e-3 for o in out)
        return np.asarray(out) + 1e-3
    return wrong


@pytest.mark.parametrize("name", sorted(REFERENCE))
@pytest.mark.parametrize("how", ["perturbed", "wrong shape"])
def test_output_never_contains_the_expected_numbers(name, how, capsys):
    """A failing line names shapes and kinds: no array, no decimal number of the reference."""
    fn = _perturbed(REFERENCE[name]) if how == "perturbed" else (lambda *a: np.full((7, 7), 0.5))
    r = ex.CHECKERS[name](fn)
    out = capsys.readouterr().out
    assert not r.passed and out.count("\n") == 1
    assert "array(" not in out and not re.search(r"\[\s*-?\d", out), out
    assert not _numbers(out), f"decimal numbers in {out!r}"


@pytest.mark.parametrize("name", sorted(REFERENCE))
@pytest.mark.parametrize("stub", ["none", "raise"])
def test_stub_is_not_implemented_yet_without_exception(name, stub, capsys):
    def fn(*args):
        if stub == "raise":
            raise NotImplementedError
        return None
    r = ex.CHECKERS[name](fn)
    out = capsys.readouterr().out
    assert not r.passed and not r.implemented and r.n_cases == 0
    assert "not implemented yet" in out and out.count("\n") == 1


@pytest.mark.parametrize("name", sorted(REFERENCE))
@pytest.mark.parametrize("bad", [None, 3, "rotation", np.eye(3)])
def test_non_callable_is_refused(name, bad):
    with pytest.raises(ModelError, match="must be a function"):
        ex.CHECKERS[name](bad)


def test_a_student_bug_is_reported_not_raised(capsys):
    r = ex.check_rotation_from_euler(lambda e: e[7])
    out = capsys.readouterr().out
    assert not r.passed and "raised IndexError" in out


def test_wrong_shape_is_named(capsys):
    ex.check_gyroscopic_term(lambda J, R, w: np.zeros(4))
    assert "shape (4,)" in capsys.readouterr().out


def test_a_list_answer_is_accepted(capsys):
    assert ex.check_angular_velocity(lambda R, Rd: list(angular_velocity(R, Rd))).passed


def test_run_cases_is_the_harness_for_new_checkers(capsys):
    cases = [ex.Case((np.array([k, 1.0]),), "x: shape (2,)", np.array([2.0 * k, 2.0]),
                     ((np.array([k, 1.0]), "forgot to double?"),)) for k in range(3)]
    assert ex.run_cases("check_double", lambda x: 2 * x, cases).passed
    r = ex.run_cases("check_double", lambda x: x, cases)
    assert not r.passed and "forgot to double?" in capsys.readouterr().out.splitlines()[-1]
    assert not bool(r)


def test_cases_are_deterministic(capsys):
    a = ex.check_euler_rate_matrix(lambda e: rate_matrix(e) + (abs(e[0]) < 0.3) * 1.0)
    b = ex.check_euler_rate_matrix(lambda e: rate_matrix(e) + (abs(e[0]) < 0.3) * 1.0)
    assert a.message == b.message and a.n_cases == b.n_cases and not a.passed
    c = ex.check_euler_rate_matrix(rate_matrix, n_cases=5, seed=1)
    assert c.passed and c.n_cases == 5
    assert np.allclose(euler_params_to_matrix(np.array([1.0, 0, 0, 0])), np.eye(3))



KANE_WRONG = [
    (lambda L, R: kane_partial_angular_velocities(L, [r.T for r in R]), "transpose"),
    (lambda L, R: np.array([kane_partial_angular_velocities(L, R)[K] - np.kron(np.eye(len(L))[K], np.eye(3))
                            for K in range(len(L))]), "identity"),
    (lambda L, R: np.array([np.concatenate([R[K] if L[K] - 1 == j else (np.eye(3) if j == K else np.zeros((3, 3)))
                                            for j in range(len(L))], axis=1) for K in range(len(L))]),
     "whole row"),
]


@pytest.mark.parametrize("fn,word", KANE_WRONG, ids=[w for _, w in KANE_WRONG])
def test_kane_partial_angular_velocities_wrong_answers_get_their_hint(fn, word, capsys):
    r = ex.check_kane_partial_angular_velocities(fn)
    out = capsys.readouterr().out
    assert not r.passed and r.implemented and out.count("\n") == 1
    assert out.startswith("check_kane_partial_angular_velocities: not yet, case ") and word in out, out


# ----------------------------------------------------------------------------- the humanoid: free-flyer velocity

def free_flyer_ydot(quat, c, v):
    from scipy.spatial.transform import Rotation
    R = Rotation.from_quat(quat).as_matrix()
    return np.r_[R @ (v[:3] + np.cross(v[3:], c)), R @ v[3:]]


REFERENCE["free_flyer_ydot"] = free_flyer_ydot
FREE_FLYER_WRONG = [
    (lambda qu, c, v: np.r_[v[:3] + np.cross(v[3:], c), v[3:]], "rotate it to world axes"),
    (lambda qu, c, v: free_flyer_ydot(qu, np.zeros(3), v), "omega x c"),
    (lambda qu, c, v: free_flyer_ydot(qu, -c, v), "not c x omega"),
]


@pytest.mark.parametrize("fn,word", FREE_FLYER_WRONG, ids=[w for _, w in FREE_FLYER_WRONG])
def test_free_flyer_ydot_wrong_answers_get_their_hint(fn, word, capsys):
    r = ex.check_free_flyer_ydot(fn)
    out = capsys.readouterr().out
    assert not r.passed and r.implemented and out.count("\n") == 1
    assert out.startswith("check_free_flyer_ydot: not yet, case ") and word in out, out


def test_free_flyer_ydot_reference_passes_and_stub_and_leak(capsys):
    """The parametrized tests above were collected before this reference was added: the same checks here."""
    r = ex.check_free_flyer_ydot(free_flyer_ydot)
    assert r.passed and r.n_cases == ex.N_CASES
    assert ex.check_free_flyer_ydot(lambda *a: None).implemented is False
    capsys.readouterr()
    ex.check_free_flyer_ydot(_perturbed(free_flyer_ydot))
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and not _numbers(out) and "array(" not in out


# ----------------------------------------------------------------------------- Part I: dae and recursion

def constraint_jacobian(parents, G, Q):
    vo = np.cumsum([0] + [g.shape[1] for g in G])
    co = np.cumsum([0] + [g.shape[0] for g in G])
    C = np.zeros((co[-1], vo[-1]))
    for k, j in enumerate(parents):
        C[co[k]:co[k + 1], vo[k]:vo[k + 1]] = G[k]
        if j >= 0:
            C[co[k]:co[k + 1], vo[j]:vo[j + 1]] = Q[k]
    return C


def lubich_step2(M, f, G, Q, g, a):
    W = G @ np.linalg.solve(M, G.T)
    lam = np.linalg.solve(W, G @ np.linalg.solve(M, f) - g + Q @ a)
    return np.linalg.solve(M, f - G.T @ lam), lam


REFERENCE["constraint_jacobian"] = constraint_jacobian
REFERENCE["lubich_step2"] = lubich_step2
PART1_WRONG = [
    (ex.check_constraint_jacobian, lambda p, G, Q: -constraint_jacobian(p, G, Q), "signs"),
    (ex.check_lubich_step2, lambda M, f, G, Q, g, a: lubich_step2(M, f, G, -Q, g, a), "Q_j"),
    (ex.check_lubich_step2, lambda M, f, G, Q, g, a: (np.linalg.solve(M, f), lubich_step2(M, f, G, Q, g, a)[1]),
     "subtract the joint's force"),
]


@pytest.mark.parametrize("check,fn,word", PART1_WRONG, ids=[w for _, _, w in PART1_WRONG])
def test_part1_wrong_answers_get_their_hint(check, fn, word, capsys):
    r = check(fn)
    out = capsys.readouterr().out
    assert not r.passed and r.implemented and out.count("\n") == 1 and word in out, out


@pytest.mark.parametrize("check,ref", [(ex.check_constraint_jacobian, constraint_jacobian),
                                       (ex.check_lubich_step2, lubich_step2)])
def test_part1_reference_passes_stub_and_leak(check, ref, capsys):
    assert check(ref).passed
    assert check(lambda *a: None).implemented is False
    capsys.readouterr()
    check(_perturbed(ref))
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and not _numbers(out) and "array(" not in out


# ----------------------------------------------------------------------------- chapter: methods

def method_2(M, E, D):
    A = -np.linalg.solve(D.T @ M @ D, D.T @ M @ E)
    return E + D @ A, D


REFERENCE["method_2"] = method_2

METHOD2_WRONG = [
    (lambda M, E, D: (E, D), "no tilt"),
    (lambda M, E, D: (2 * E - method_2(M, E, D)[0], D), "sign of A~"),
    (lambda M, E, D: (E - D @ (D.T @ M @ E), D), "invert D^T M D"),
]


@pytest.mark.parametrize("fn,word", METHOD2_WRONG, ids=[w for _, w in METHOD2_WRONG])
def test_method_2_wrong_answers_get_their_hint(fn, word, capsys):
    r = ex.check_method_2(fn)
    out = capsys.readouterr().out
    assert not r.passed and r.implemented and out.count("\n") == 1 and word in out, out


def test_method_2_reference_passes_stub_and_leak(capsys):
    assert ex.check_method_2(method_2).passed
    assert ex.check_method_2(lambda *a: None).implemented is False
    capsys.readouterr()
    ex.check_method_2(_perturbed(method_2))
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and not _numbers(out) and "array(" not in out


def test_a_student_function_that_never_returns_is_stopped(monkeypatch, capsys):
    """Each student call runs under a time limit: an endless loop is reported, not waited for."""
    import time

    from rfda_teach import exercises as ex

    monkeypatch.setattr(ex.checking, "TIME_LIMIT", 0.5)   # run_cases reads the limit where it lives

    def loops(e):
        while True:
            time.sleep(0.01)

    t0 = time.perf_counter()
    r = ex.check_rotation_from_euler(loops)
    assert not r.passed and time.perf_counter() - t0 < 5
    assert "took longer than 0.5 s" in capsys.readouterr().out


def test_the_package_exports_no_reference_solution():
    """A student's notebook imports rfda_teach.exercises: apart from the checkers and the harness
    it exports nothing, so no reference answer is one attribute away (a chapter module once
    exported its references velocity_shift and sliding_transformation)."""
    harness = {"CHECKERS", "Case", "CheckResult", "StudentHint", "run_cases"}
    extra = sorted(n for n in ex.__all__ if not n.startswith("check_") and n not in harness)
    assert not extra, f"exercises exports more than checkers and the harness: {extra}"
    for chapter in ex.CHAPTERS:
        mod = importlib.import_module(f"rfda_teach.exercises.{chapter}")
        extra = [n for n in mod.__all__ if not n.startswith("check_")]
        assert not extra, f"rfda_teach.exercises.{chapter} exports {extra}"


def test_a_complex_answer_is_not_passed(capsys):
    """numpy would drop an imaginary part with only a ComplexWarning: a checker says what is wrong
    instead of passing (issue 23); a complex array whose imaginary parts are all zero is its real part."""
    from rfda_teach.exercises import Case, run_cases
    cases = [Case((np.eye(2) * k,), f"A: 2x2 matrix, case {k}", 2 * np.eye(2) * k) for k in (1, 2)]
    res = run_cases("check_double", lambda A: 2 * A + 1e-3j, cases)
    assert not res.passed and "complex entries" in res.message
    res = run_cases("check_double", lambda A: (2 * A).astype(complex), cases)
    assert res.passed
    res = run_cases("check_double", lambda A: (2 * A, 1j), [Case((np.eye(2),), "A", (2 * np.eye(2), 0.0))])
    assert not res.passed and "complex entries" in res.message
