"""rfda_teach.spatial: the one implementation of the small mathematics, against numpy/scipy, its
numba and sympy twins, and the Kane notes' eq. (4) as printed."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, strategies as st_
from scipy.spatial.transform import Rotation

from rfda_teach import fastpath, kane, spatial, symbolic

vec3 = st_.lists(st_.floats(-10, 10), min_size=3, max_size=3).map(np.array)
quat = st_.lists(st_.floats(-1, 1), min_size=4, max_size=4).filter(lambda v: np.linalg.norm(v) > 0.1).map(
    lambda v: np.array(v) / np.linalg.norm(v))


@given(vec3, vec3)
def test_skew_and_cross_are_numpy_cross(a, b):
    assert np.array_equal(spatial.cross(a, b), np.cross(a, b))      # the same bits
    assert np.allclose(spatial.skew(a) @ b, np.cross(a, b), atol=1e-12)
    assert np.array_equal(spatial.skew(a), -spatial.skew(a).T)


@given(quat)
def test_euler_parameters_round_trip_and_scipy(e):
    R = spatial.euler_params_to_matrix(e)
    assert np.allclose(R @ R.T, np.eye(3), atol=1e-12) and np.isclose(np.linalg.det(R), 1.0)
    assert np.allclose(R, Rotation.from_quat(np.r_[e[1:], e[0]]).as_matrix(), atol=1e-12)  # scipy: scalar last
    back = spatial.matrix_to_euler_params(R)
    assert back[0] >= 0 and (np.allclose(back, e, atol=1e-9) or np.allclose(back, -e, atol=1e-9))  # e ~ -e


@given(st_.floats(-7, 7))
def test_planar_and_elementary_rotations(phi):
    A = spatial.planar_rotation(phi)
    assert np.allclose(spatial.elementary_rotation("z", phi)[:2, :2], A)
    assert np.allclose(A @ [1.0, 0.0], [np.cos(phi), np.sin(phi)])
    assert np.allclose(spatial.planar_cross(2.0, A[:, 0]), 2.0 * A[:, 1])        # z x e_1' = e_2'
    for axis, i in (("x", 0), ("y", 1), ("z", 2)):
        R = spatial.elementary_rotation(axis, phi)
        assert np.allclose(R, Rotation.from_rotvec(phi * np.eye(3)[i]).as_matrix(), atol=1e-12)


def test_kane_eq4_as_printed_is_the_transposed_scalar_first_matrix():
    rng = np.random.default_rng(0)
    for _ in range(20):
        e1, e2, e3, e4 = eps = rng.normal(size=4) / 2
        eps /= np.linalg.norm(eps)
        e1, e2, e3, e4 = eps
        printed = np.array([                                     # the notes' eq. (4), scalar last
            [e1 * e1 - e2 * e2 - e3 * e3 + e4 * e4, 2 * (e1 * e2 + e3 * e4), 2 * (e1 * e3 - e2 * e4)],
            [2 * (e1 * e2 - e3 * e4), -e1 * e1 + e2 * e2 - e3 * e3 + e4 * e4, 2 * (e2 * e3 + e1 * e4)],
            [2 * (e1 * e3 + e2 * e4), 2 * (e2 * e3 - e1 * e4), -e1 * e1 - e2 * e2 + e3 * e3 + e4 * e4]])
        assert np.allclose(kane.relative_rotation(eps), printed, rtol=0, atol=1e-15)


def test_numba_and_sympy_twins_equal_spatial():
    rng = np.random.default_rng(1)
    for _ in range(10):
        e = rng.normal(size=4)
        e /= np.linalg.norm(e)
        R = np.empty((3, 3))
        fastpath._quat_R(e, R)                                   # the compiled twin (or its Python fallback)
        assert np.allclose(R, spatial.euler_params_to_matrix(e), atol=1e-15)
        a, b, out = rng.normal(size=3), rng.normal(size=3), np.empty(3)
        fastpath._cross(a, b, out)
        assert np.allclose(out, spatial.cross(a, b), atol=1e-15)
    phi = sp.Symbol("phi")
    A = sp.lambdify(phi, symbolic.planar_rotation(phi))
    for x in (-2.0, 0.3, 1.7):
        assert np.allclose(np.array(A(x), float), spatial.planar_rotation(x))


@pytest.mark.parametrize("mod", ["bodies", "models", "kane", "loops", "rcr", "refpoint"])
def test_one_gravity_and_one_tolerance(mod):
    import importlib
    m = importlib.import_module(f"rfda_teach.{mod}")
    for name in ("G0", "EULER_TOL"):
        if hasattr(m, name):
            assert getattr(m, name) is getattr(spatial, name)


# ----------------------------------------------------------------------------- issue 22: rates, shifts, inertia

def _rng_quat(rng):
    e = rng.normal(size=4)
    return e / np.linalg.norm(e)


@given(quat)
def test_scalar_order_and_axis_angle_against_scipy(e):
    q = spatial.scalar_last(e)                                        # (x, y, z, w) as scipy
    assert np.array_equal(spatial.scalar_first(q), e)
    assert np.allclose(spatial.euler_params_to_matrix(spatial.scalar_first(q)), Rotation.from_quat(q).as_matrix(),
                       atol=1e-12)
    rotvec = Rotation.from_quat(q).as_rotvec()
    angle = np.linalg.norm(rotvec)
    if angle > 1e-6:
        back = spatial.axis_angle_to_euler_params(rotvec, angle)
        assert np.allclose(back, e, atol=1e-9) or np.allclose(back, -e, atol=1e-9)


def test_euler_params_product_composes_rotations_as_scipy():
    rng = np.random.default_rng(3)
    for _ in range(20):
        a, b = _rng_quat(rng), _rng_quat(rng)
        ab = spatial.euler_params_product(a, b)
        R = spatial.euler_params_to_matrix
        assert np.allclose(R(ab), R(a) @ R(b), atol=1e-12)
        ref = (Rotation.from_quat(spatial.scalar_last(a)) * Rotation.from_quat(spatial.scalar_last(b))).as_quat()
        assert np.allclose(ab, spatial.scalar_first(ref), atol=1e-12) or np.allclose(ab, -spatial.scalar_first(ref),
                                                                                      atol=1e-12)


def test_E_and_G_haug_identities():
    rng = np.random.default_rng(4)
    for _ in range(20):
        e = _rng_quat(rng)
        E, G, R = spatial.euler_E(e), spatial.euler_G(e), spatial.euler_params_to_matrix(e)
        assert np.allclose(E @ G.T, R, atol=1e-14)                    # R = E G^T
        assert np.allclose(E @ E.T, np.eye(3), atol=1e-14) and np.allclose(G @ G.T, np.eye(3), atol=1e-14)
        assert np.allclose(E @ e, 0, atol=1e-15) and np.allclose(G @ e, 0, atol=1e-15)
        assert np.allclose(G, R.T @ E, atol=1e-14)                    # omega' = R^T omega
        v = np.r_[0.0, rng.normal(size=3)]                            # (0, w) * e = E^T w, e * (0, w) = G^T w
        assert np.allclose(spatial.euler_params_product(v, e), E.T @ v[1:], atol=1e-14)
        assert np.allclose(spatial.euler_params_product(e, v), G.T @ v[1:], atol=1e-14)


@pytest.mark.parametrize("frame", ["global", "body"])
def test_euler_params_rate_by_finite_differences(frame):
    """The motion at a constant angular velocity w (global) or w' (body): R(t) = exp([w] t) R0 or
    R0 exp([w'] t), differentiated numerically (scipy's rotation vectors, an independent route)."""
    rng = np.random.default_rng(5)
    for _ in range(10):
        e, w = _rng_quat(rng), rng.normal(size=3)
        R0 = Rotation.from_quat(spatial.scalar_last(e))

        def e_at(t):
            turn = Rotation.from_rotvec(w * t)
            q = spatial.scalar_first(((turn * R0) if frame == "global" else (R0 * turn)).as_quat())
            return q if q @ e > 0 else -q
        h = 1e-6
        fd = (e_at(h) - e_at(-h)) / (2 * h)
        rate = spatial.euler_params_rate(e, w, frame=frame)
        assert np.allclose(rate, fd, atol=1e-8)
        M = spatial.euler_E(e) if frame == "global" else spatial.euler_G(e)
        assert np.allclose(2 * M @ rate, w, atol=1e-13)                # omega = 2 E e_dot, omega' = 2 G e_dot


def test_kane_E_hat_is_G_transposed_reordered_and_eq44_as_printed():
    rng = np.random.default_rng(6)
    for _ in range(10):
        eps = _rng_quat(rng)
        e1, e2, e3, e4 = eps
        printed = np.array([[e4, -e3, e2], [e3, e4, -e1], [-e2, e1, e4], [-e1, -e2, -e3]])   # eq. (44)
        assert np.array_equal(kane.E_hat(eps), printed)
        G = spatial.euler_G(spatial.scalar_first(eps))
        assert np.array_equal(kane.E_hat(eps), spatial.scalar_last(G.T, check=False))


def test_numba_quaternion_twin_of_pinocchio_order_equals_spatial():
    rng = np.random.default_rng(7)
    for _ in range(10):
        q = spatial.scalar_last(_rng_quat(rng))
        R = np.empty((3, 3))
        fastpath._pin_quat_R(q, 0, R)                                    # Eigen's toRotationMatrix, (x, y, z, w)
        assert np.allclose(R, spatial.euler_params_to_matrix(spatial.scalar_first(q)), atol=1e-15)


def test_shifts_move_twists_and_wrenches():
    rng = np.random.default_rng(8)
    for _ in range(20):
        r, r2, v, w, f, n = rng.normal(size=(6, 3))
        X = spatial.shift(r)
        assert np.allclose(X @ np.r_[v, w], np.r_[v + np.cross(w, r), w])            # v_B = v_A + w x r
        assert np.allclose(spatial.shift(r + r2), spatial.shift(r2) @ X)
        assert np.allclose(np.linalg.inv(X), spatial.shift(-r))
        Xf = spatial.force_shift(r)
        assert np.allclose(Xf @ np.r_[f, n], np.r_[f, n - np.cross(r, f)])          # n_B = n_A - r x f
        assert np.allclose(Xf, np.linalg.inv(X).T)
        assert np.isclose((Xf @ np.r_[f, n]) @ (X @ np.r_[v, w]), np.r_[f, n] @ np.r_[v, w])   # same power
        # planar: the spatial shift restricted to (v_x, v_y, omega_z)
        keep = [0, 1, 5]
        for fn in (spatial.shift, spatial.force_shift):
            assert np.allclose(fn(r[:2]), fn(np.r_[r[:2], 0.0])[np.ix_(keep, keep)])


def test_order_permutation_gives_the_angular_first_forms_of_rcr():
    from rfda_teach import rcr
    from rfda_teach.bodies import Body
    P3, P6 = spatial.order_permutation(3), spatial.order_permutation(6)
    assert np.array_equal(P6 @ np.arange(6.0), [3, 4, 5, 0, 1, 2]) and np.array_equal(P3 @ [9.0, 1, 2], [1, 2, 9])
    assert np.array_equal(P3 @ P3.T, np.eye(3)) and np.array_equal(P6 @ P6.T, np.eye(6))
    rng = np.random.default_rng(9)
    for _ in range(10):
        r = rng.normal(size=2)
        assert np.array_equal(rcr.shift_T(r), P3.T @ spatial.shift(r) @ P3)
        m, J = rng.uniform(0.5, 3.0), rng.uniform(0.05, 1.0)
        assert np.array_equal(rcr.spatial_inertia(Body("planar", m, J)), P3.T @ spatial.spatial_inertia(m, J) @ P3)


def _cloud(rng, n=7):
    """Point masses: mass, central inertia (from the points themselves) and mass centre."""
    mi, xi = rng.uniform(0.2, 2.0, n), rng.normal(size=(n, 3))
    m, c = mi.sum(), (mi[:, None] * xi).sum(axis=0) / mi.sum()

    def about(p):
        return sum(mk * ((x - p) @ (x - p) * np.eye(3) - np.outer(x - p, x - p)) for mk, x in zip(mi, xi))
    return mi, xi, m, c, about


def test_parallel_axis_rotated_and_spatial_inertia_against_point_masses():
    rng = np.random.default_rng(10)
    for _ in range(10):
        mi, xi, m, c, about = _cloud(rng)
        A = rng.normal(size=3)
        Jc = about(c)
        assert np.allclose(spatial.parallel_axis(m, Jc, c - A), about(A), atol=1e-12)
        R = Rotation.random(random_state=rng).as_matrix()            # the cloud turned about its mass centre
        turned = (xi - c) @ R.T + c
        J_turned = sum(mk * ((x - c) @ (x - c) * np.eye(3) - np.outer(x - c, x - c)) for mk, x in zip(mi, turned))
        assert np.allclose(spatial.rotate_inertia(Jc, R), J_turned, atol=1e-12)
        # kinetic energy of the rigid motion (v_A, w): sum of 1/2 m_k |v_A + w x (x_k - A)|^2
        v, w = rng.normal(size=(2, 3))
        T = sum(0.5 * mk * np.sum((v + np.cross(w, x - A)) ** 2) for mk, x in zip(mi, xi))
        V = np.r_[v, w]
        assert np.isclose(0.5 * V @ spatial.spatial_inertia(m, Jc, c - A) @ V, T, rtol=1e-12)
    # planar: a bar of 2 kg and 1 m about its end (J + m |c|^2), and the same energy check
    assert np.isclose(spatial.parallel_axis(2.0, 1 / 6, [0.5, 0.0]), 2 / 3)
    I_A = spatial.spatial_inertia(2.0, 1 / 6, [0.5, 0.0])
    V = np.array([0.3, -0.2, 1.5])                                    # (v_x, v_y, omega) at the end
    vc = V[:2] + spatial.planar_cross(V[2], [0.5, 0.0])
    assert np.isclose(0.5 * V @ I_A @ V, 0.5 * 2.0 * vc @ vc + 0.5 / 6 * V[2] ** 2)


def test_refpoint_equipollent_mass_matrix_is_the_spatial_inertia():
    from rfda_teach import refpoint
    rng = np.random.default_rng(11)
    for _ in range(5):
        _, _, m, _, about = _cloud(rng)
        J, s = about(np.zeros(3)), rng.normal(size=3)
        M, _ = refpoint.equipollent(m, J, s, np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3))
        assert np.allclose(M, spatial.spatial_inertia(m, J, -s), atol=1e-13)   # s: centroid -> P


def test_planar_transform_and_bodies_mass_matrix():
    from rfda_teach import bodies, models
    F = spatial.planar_transform([1.0, -2.0], 0.7)
    assert np.allclose(F[:2, :2], spatial.planar_rotation(0.7)) and np.allclose(F[:2, 2], [1.0, -2.0])
    b = models.random_tree(2, kind="spatial", seed=3).bodies[1]
    e = spatial.axis_angle_to_euler_params([1.0, 2.0, -1.0], 0.9)
    M = bodies.mass_matrix(b, np.r_[np.zeros(3), e])
    R = spatial.euler_params_to_matrix(e)
    assert np.allclose(M[3:, 3:], spatial.rotate_inertia(b.J, R)) and np.allclose(M[:3, :3], b.mass * np.eye(3))
