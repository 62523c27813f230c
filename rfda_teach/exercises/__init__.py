"""Checkers for the book's implementation exercises.

Each ``check_<name>(student_fn)`` runs the student's function on many random,
seeded cases (random rotations, bodies and states from :mod:`rfda_teach.models`)
against the package's own implementation and prints ONE line:

* ``passed on N cases``, or
* the first failing case's inputs, described by shape and kind (never by the
  expected output), with a hint for the typical mistake it recognises
  (transposed matrix, wrong sign, body instead of global components, a missing
  factor 1/2, ...), or
* ``not implemented yet`` for a stub that returns None or raises
  NotImplementedError (no exception, so an unsolved notebook still runs).

It also returns a :class:`CheckResult` (``passed``, ``n_cases``, ...).

Conventions (those of :mod:`rfda_teach.bodies`, i.e. of Deepak & Ghosal's
spatial bodies): Euler parameters e = (e0, e1, e2, e3), scalar part first;
R = R(e) maps body-frame components to global (inertial) components; the
angular velocity omega is in global components.

Checkers (chapter: function the student writes):

* Rotations: ``check_rotation_from_euler`` (R(e)), ``check_angular_velocity``
  (omega from R and R_dot), ``check_euler_rate_matrix`` (edot = 1/2 E^T omega);
* One rigid body: ``check_gyroscopic_term`` (-omega x J omega),
  ``check_body_mass_matrix`` (M_i of D&G eq. 6);
* Joints: ``check_prismatic_rows`` (G_k and gamma_k of a planar prismatic joint),
  ``check_revolute_rows`` (G_k, Q_k and gamma_k of a planar revolute joint, D&G eq. 18);
* Constrained dynamics: ``check_baumgarte_step`` (D&G eq. 7 with the Baumgarte
  right-hand side gamma - 2 alpha phi_dot - beta^2 phi);
* Spatial vectors: ``check_planar_shift`` (the twist shift of rcr.shift_T),
  ``check_planar_inertia_shift`` (planar spatial inertia about a point);
* One elimination: ``check_lubich_contribution`` (a child's term of D&G eq. 9-10);
* later chapters (see ``CHECKERS`` for the full list): the recursion, DAE,
  methods, Kane, reference-point, closed-loop and humanoid checkers below, and
  one module per chapter of the end of Part I, re-exported here:
  :mod:`rfda_teach.exercises.standard_forms` (``check_featherstone_step``, one
  child's term of D&G eq. 11-12 via Method 2), :mod:`rfda_teach.exercises.seeing`
  (``check_pair_rfda_map``, the velocity map of D&G eq. 48) and
  :mod:`rfda_teach.exercises.general_tree` (``check_subtree_step``,
  ``check_node_map``: one step of the induction of section 6),
  :mod:`rfda_teach.exercises.featherstone` (``check_child_map``) and
  :mod:`rfda_teach.exercises.revolute_pair` (``check_pair_free_force``,
  ``check_m_hat_tilt``).

Short questions with a numerical answer are checked by ``check_question(label, answer)``
(:mod:`rfda_teach.exercises.questions`): the reference is computed here, in the chapter's
module, never in the notebook.  Every student call runs under :data:`~rfda_teach.exercises.checking.TIME_LIMIT`
seconds.

A later chapter adds a checker in a few lines with the shared machinery of
:mod:`rfda_teach.exercises.checking` (re-exported here): build a list of :class:`Case`
records (arguments, a description of them by shape and kind, the reference
answer from the package, and typical wrong answers with their hints) and
return ``run_cases("check_<name>", student_fn, cases)``; the harness adds the
generic hints (transposed, sign, factor 2 or 1/2), the stub handling and the
one-line report.  Register the checker in :data:`CHECKERS` (or, for a new
chapter, in the ``CHECKERS`` of its own module ``rfda_teach/exercises/<chapter>.py``).

Examples
--------
>>> import numpy as np
>>> from rfda_teach import exercises
>>> from rfda_teach.bodies import euler_params_to_matrix
>>> r = exercises.check_rotation_from_euler(euler_params_to_matrix)
check_rotation_from_euler: passed on 40 cases
>>> r.passed, r.n_cases
(True, 40)
>>> r = exercises.check_rotation_from_euler(lambda e: euler_params_to_matrix(e).T)  # doctest: +ELLIPSIS
check_rotation_from_euler: not yet, case 4 of 40 (e: unit Euler parameters, ...): transposed? ...
>>> def stub(e):
...     raise NotImplementedError
>>> exercises.check_rotation_from_euler(stub).passed
check_rotation_from_euler: not implemented yet (fill in the function and run this cell again)
False
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from scipy.spatial.transform import Rotation

from .. import models
from ..bodies import Body, force, mass_matrix, nvel
from ..spatial import (euler_E, euler_G, euler_params_to_matrix, order_permutation, planar_rotation, scalar_first,
                       shift, skew, spatial_inertia)
# the shared machinery (rfda_teach.exercises.checking), re-exported: ex.Case, ex.run_cases, ex.N_CASES, ...
from .checking import (MAX_CASES, N_CASES, RTOL, SEED, TIME_LIMIT, Case, CheckResult, StudentHint, lubich_joints,
                       options, run_cases)  # noqa: F401
from .slips import slip

__all__ = ["CheckResult", "Case", "StudentHint", "run_cases", "check_euler_rate_matrix", "check_rotation_from_euler",
           "check_angular_velocity", "check_gyroscopic_term", "check_body_mass_matrix",
           "check_prismatic_rows", "check_baumgarte_step", "check_revolute_rows", "check_planar_shift",
           "check_planar_inertia_shift", "check_lubich_contribution", "check_crba", "CHECKERS"]


# ----------------------------------------------------------------------------- random inputs

def _unit_euler(rng: np.random.Generator, k: int) -> np.ndarray:
    """Unit Euler parameters: the first cases are special (identity, half turns, e0 < 0)."""
    special = [np.array([1.0, 0, 0, 0]), np.array([0.0, 0, 0, 1]), np.array([0.0, 1, 0, 0]),
               np.array([np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)])]
    if k < len(special):
        return special[k]
    x, y, z, w = Rotation.random(random_state=rng).as_quat()
    e = np.array([w, x, y, z])
    return -e if k % 3 == 0 else e            # both signs of e describe the same rotation


def _angle(e: np.ndarray) -> float:
    return 2.0 * np.arccos(min(1.0, abs(e[0])))


def _spatial_bodies(rng: np.random.Generator, n: int) -> list:
    bodies = []
    seed = int(rng.integers(0, 2 ** 31))
    while len(bodies) < n:
        bodies += list(models.random_tree(8, kind="spatial", seed=seed).bodies)
        seed += 1
    return bodies[:n]


# ----------------------------------------------------------------------------- chapter: rotations

def _edot_matrix(e: np.ndarray) -> np.ndarray:
    """The 4x3 matrix H(e) with edot = H(e) omega (omega global), from the package's integrator."""
    from ..simulate import position_rate
    sys1 = models.random_tree(1, kind="spatial", seed=0)
    y = np.concatenate([np.zeros(3), e])
    cols = [position_rate(sys1, y, np.concatenate([np.zeros(3), w]))[3:] for w in np.eye(3)]
    return np.column_stack(cols)


def check_euler_rate_matrix(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(e) -> H``, the 4x3 matrix with edot = H omega.

    e = (e0, e1, e2, e3), scalar first, unit norm; omega in GLOBAL (inertial) components;
    H = 1/2 E(e)^T with E = [-e_v, e0 I + [e_v]x] (3x4), e_v = (e1, e2, e3).  The package's
    reference is the integrator's rate edot = 1/2 (0, omega) * e of :mod:`rfda_teach.simulate`.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach.bodies import skew
    >>> def my_function(*args):  # the stub of the exercise
    ...     raise NotImplementedError
    >>> check_euler_rate_matrix(my_function).passed
    check_euler_rate_matrix: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_euler_rate_matrix"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    from ..kane import E_hat
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(n_cases):
        e = _unit_euler(rng, k)
        H = _edot_matrix(e)
        R = euler_params_to_matrix(e, check=False)
        wrong = ((H @ R, "body vs global components? omega is given in global (inertial) components; "
                         "1/2 G(e)^T acts on body components"),
                 (_edot_matrix(np.roll(e, 1)), "scalar part first: e = (e0, e1, e2, e3) with e0 = cos(angle/2)"),
                 (0.5 * E_hat(e), "scalar part first: e = (e0, e1, e2, e3) with e0 = cos(angle/2)"),
                 (0.5 * E_hat(np.roll(e, -1)), "this is Kane's Ê'^T: body components and scalar part last; "
                                                 "here omega is global and e0 comes first"))
        cases.append(Case((e,), f"e: unit Euler parameters, shape (4,), rotation angle "
                                f"{np.degrees(_angle(e)):.0f} deg", H, wrong))
    return run_cases(name, student_fn, cases)


def check_rotation_from_euler(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(e) -> R``, the 3x3 rotation matrix of unit Euler parameters.

    e = (e0, e1, e2, e3), scalar first; R maps body-frame components to global components
    (x_global = R x_body).  Reference: :func:`rfda_teach.bodies.euler_params_to_matrix`.
    """
    name = "check_rotation_from_euler"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(n_cases):
        e = _unit_euler(rng, k)
        R = euler_params_to_matrix(e)
        wrong = ((R.T, "transposed? R maps body-frame components to global ones, x = R x'"),
                 (euler_params_to_matrix(np.roll(e, 1), check=False), "scalar part first: e0 = e[0] = cos(angle/2)"),
                 (euler_params_to_matrix(np.roll(e, 1), check=False).T, "scalar part first, and R maps body to global components"))
        cases.append(Case((e,), f"e: unit Euler parameters, shape (4,), rotation angle "
                                f"{np.degrees(_angle(e)):.0f} deg", R, wrong))
    return run_cases(name, student_fn, cases)


def check_angular_velocity(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(R, R_dot) -> omega``, the angular velocity in GLOBAL components.

    [omega]x = R_dot R^T.  The cases build R_dot = [omega]x R from a known omega with the
    package's :func:`rfda_teach.bodies.skew`.
    """
    name = "check_angular_velocity"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(n_cases):
        R = euler_params_to_matrix(_unit_euler(rng, k), check=False)
        w = rng.normal(size=3) * rng.uniform(0.1, 5.0)
        Rd = skew(w, check=False) @ R
        wrong = ((-w, "wrong sign? [omega]x = R_dot R^T, and omega_1 is entry (3, 2) of it"),
                 (R.T @ w, "body vs global components? R^T R_dot gives the body-frame components; "
                           "here omega is global: [omega]x = R_dot R^T"),
                 (-R.T @ w, "R_dot^T R gives minus the body components; use [omega]x = R_dot R^T"))
        cases.append(Case((R, Rd), "R: 3x3 rotation matrix, R_dot: 3x3 matrix", w, wrong))
    return run_cases(name, student_fn, cases)


# ----------------------------------------------------------------------------- chapter: one rigid body

def check_gyroscopic_term(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(J_body, R, omega) -> -omega x (J omega)`` in GLOBAL components.

    J_body is the central inertia J' in body axes, R the rotation body -> global, omega the
    angular velocity in global components and J = R J' R^T.  Reference: the rotational
    part of :func:`rfda_teach.bodies.force` (f_i of D&G eq. 6) without gravity.
    """
    name = "check_gyroscopic_term"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for k, body in enumerate(_spatial_bodies(rng, n_cases)):
        e = _unit_euler(rng, k)
        R = euler_params_to_matrix(e, check=False)
        w = rng.normal(size=3) * rng.uniform(0.1, 5.0)
        y = np.concatenate([rng.normal(size=3), e])
        f = force(body, y, np.concatenate([rng.normal(size=3), w]), np.zeros(3))[3:]
        Jp = body.J
        wrong = ((np.cross(w, R @ Jp @ R.T @ w), "sign of the gyroscopic term? it is MINUS omega x (J omega)"),
                 (-np.cross(w, Jp @ w), "rotate the body-frame inertia to global axes: J = R J' R^T"),
                 (-np.cross(w, R.T @ Jp @ R @ w), "transposed rotation? J = R J' R^T (R maps body to global)"),
                 (R.T @ f, "body vs world components? -omega' x (J' omega') with omega' = R^T omega is the "
                           "body-frame term; the answer is in world (global) components, so rotate it back with R"),
                 (-np.cross(R @ Jp @ R.T @ w, w), "order of the cross product? -omega x (J omega)"))
        cases.append(Case((Jp, R, w), "J_body: 3x3 symmetric positive definite, R: 3x3 rotation, omega: shape "
                                      "(3,)", f, wrong))
    return run_cases(name, student_fn, cases)


def check_body_mass_matrix(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(body, y_i) -> M_i``, the mass matrix of D&G eq. (6).

    ``body`` is a :class:`rfda_teach.bodies.Body` (``body.kind`` in "point2", "planar",
    "spatial"; ``body.mass``; ``body.J`` its central inertia, 1x1 planar, 3x3 in body axes
    spatial); y_i its position coordinates (spatial: r (3) and e (4), scalar first).
    Reference: :func:`rfda_teach.bodies.mass_matrix`.
    """
    name = "check_body_mass_matrix"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    spatial = _spatial_bodies(rng, n_cases)
    planar = list(models.random_tree(max(1, n_cases // 3), kind="planar", seed=seed).bodies)
    cases = []
    for k in range(n_cases):
        kind = ("point2", "planar", "spatial", "spatial")[k % 4]
        if kind == "point2":
            body = Body("point2", rng.uniform(0.5, 3.0))
            y = rng.normal(size=2)
        elif kind == "planar":
            body = planar[k % len(planar)]
            y = np.concatenate([rng.normal(size=2), [rng.uniform(-np.pi, np.pi)]])
        else:
            body = spatial[k]
            y = np.concatenate([rng.normal(size=3), _unit_euler(rng, k)])
        M = mass_matrix(body, y)
        wrong = ()
        if kind == "spatial":
            R = euler_params_to_matrix(y[3:], check=False)
            W = M.copy()
            W[3:, 3:] = body.J
            V = M.copy()
            V[3:, 3:] = R.T @ body.J @ R
            wrong = ((W, "rotate the body-frame inertia to global axes: J = R J' R^T (omega is global)"),
                     (V, "transposed rotation? J = R J' R^T with R from body to global"))
        cases.append(Case((body, y), f"a {kind} body, y_i of shape {y.shape}, M_i of shape "
                                     f"({nvel(kind)}, {nvel(kind)})", M, wrong))
    return run_cases(name, student_fn, cases)


# ----------------------------------------------------------------------------- chapter: joints

def check_prismatic_rows(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(joint, y_j, yd_j, y_k, yd_k) -> (G_k, gamma_k)`` of a planar prismatic joint.

    ``joint`` is a ``"prismatic2d"`` :class:`rfda_teach.joints.Joint` between planar bodies j
    (parent) and k; y = (x, y, phi), yd = (xd, yd, phid).  G_k is the 2x3 Jacobian of the
    constraint with respect to ydot_k and gamma_k the right-hand side of the acceleration
    constraint, D&G eq. (1)-(3).  Reference: :func:`rfda_teach.joints.evaluate`.
    """
    from ..joints import evaluate
    name = "check_prismatic_rows"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    s = seed
    while len(cases) < n_cases:
        sys = models.random_tree(6, kind="planar", seed=s)
        st = models.random_state(sys, seed=s)
        s += 1
        ps, vs = sys.pos_slices, sys.vel_slices
        for k, (jt, j) in enumerate(zip(sys.joints, sys.parents)):
            if jt.type != "prismatic2d" or j < 0 or len(cases) >= n_cases:
                continue
            args = (jt, st.y[ps[j]], st.yd[vs[j]], st.y[ps[k]], st.yd[vs[k]])
            tk = evaluate(jt, "planar", *args[1:])
            wrong = (((tk.G, -tk.gamma), "sign of gamma_k? G_k ydd_k + Q_k ydd_j = gamma_k"),
                     ((-tk.G, -tk.gamma), "sign of the constraint rows? (both G_k and gamma_k flipped)"),
                     ((tk.G, np.zeros_like(tk.gamma)), "gamma_k is not zero: differentiate G_k ydot_k + "
                                                       "Q_k ydot_j once more in time"))
            cases.append(Case(args, "a prismatic2d joint, y_j, yd_j, y_k, yd_k of shape (3,)",
                              (tk.G, tk.gamma), wrong))
    return run_cases(name, student_fn, cases)


# ----------------------------------------------------------------------------- chapter: constrained dynamics

def check_baumgarte_step(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(M, C, f, gamma, phi, phi_dot, alpha, beta) -> (ydd, lam)``: the
    Baumgarte-stabilised accelerations and multipliers of D&G eq. (7).

    Solve M ydd + C^T lam = f, C ydd = gamma - 2 alpha phi_dot - beta^2 phi, with M, C, f,
    gamma of D&G eq. (7) for a random tree (C stacks the rows G_k and Q_k; the sign of lam is the
    paper's, M ydd + C^T lam = f), phi and phi_dot the position and velocity residuals of the
    constraints and alpha, beta >= 0 in 1/s.  Reference: the package's assembled D&G eq. (7)
    (:func:`rfda_teach.dae.assemble`) with the stabilised right-hand side, solved densely.
    """
    import scipy.linalg

    from ..dae import assemble
    name = "check_baumgarte_step"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(n_cases):
        kind = "planar" if k % 2 == 0 else "spatial"
        n = int(rng.integers(1, 5))
        sys = models.random_tree(n, kind=kind, seed=int(rng.integers(0, 2 ** 31)))
        K, rhs = assemble(sys, models.random_state(sys, seed=k))
        nv = sys.n_vel
        M, C, f, gamma = K[:nv, :nv], K[nv:, :nv], rhs[:nv], rhs[nv:]
        m = C.shape[0]
        phi, phi_dot = 1e-2 * rng.normal(size=m), 1e-1 * rng.normal(size=m)
        alpha, beta = (0.0, 0.0) if k == 0 else tuple(rng.uniform(1.0, 20.0, 2))

        def solve(g):
            x = scipy.linalg.solve(K, np.concatenate([f, g]), assume_a="sym")
            return x[:nv], x[nv:]

        ydd, lam = solve(gamma - 2 * alpha * phi_dot - beta ** 2 * phi)
        wrong = ((solve(gamma + 2 * alpha * phi_dot + beta ** 2 * phi),
                  "sign of the correction? it is gamma - 2 alpha phi_dot - beta^2 phi"),
                 (solve(gamma - alpha * phi_dot - beta ** 2 * phi), "missing factor 2 in 2 alpha phi_dot?"),
                 (solve(gamma - 2 * alpha * phi_dot - beta * phi), "beta squared: the term is beta^2 phi"),
                 (solve(gamma), "the correction -2 alpha phi_dot - beta^2 phi is missing"),
                 (solve(gamma - 2 * beta * phi_dot - alpha ** 2 * phi),
                  "alpha and beta swapped? alpha multiplies the velocity residual (2 alpha phi_dot), "
                  "beta the position residual (beta^2 phi)"),
                 ((ydd, -lam), "sign of lambda? eq. (7) reads M ydd + C^T lam = f"))
        cases.append(Case((M, C, f, gamma, phi, phi_dot, alpha, beta),
                          f"a {kind} tree of {n} bodies: M {M.shape[0]}x{M.shape[1]}, C {m}x{nv}, "
                          f"f, gamma, phi, phi_dot vectors, alpha and beta scalars",
                          (ydd, lam), wrong))
    return run_cases(name, student_fn, cases)


# ----------------------------------------------------------------------------- chapter: joints (revolute)

def check_revolute_rows(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(joint, y_j, yd_j, y_k, yd_k) -> (G_k, Q_k, gamma_k)`` of a planar revolute joint.

    ``joint`` is a ``"revolute2d"`` :class:`rfda_teach.joints.Joint` between planar bodies j
    (parent) and k, with the pin at ``joint.parent_point`` s'_j (parent axes) and
    ``joint.child_point`` s'_k (child axes); y = (x, y, phi), yd = (xd, yd, phid).  The rows
    come from the position constraint r_k + A(phi_k) s'_k - r_j - A(phi_j) s'_j = 0 of D&G eq. (18):
    G_k (2x3) multiplies ydot_k, Q_k (2x3) multiplies ydot_j and gamma_k (2,) is the right-hand
    side of the acceleration constraint, D&G eq. (1)-(3).  The states satisfy the joint.
    Reference: :func:`rfda_teach.joints.evaluate`.

    Examples
    --------
    >>> from rfda_teach.joints import evaluate
    >>> def my_function(*args):  # the stub of the exercise
    ...     raise NotImplementedError
    >>> check_revolute_rows(my_function).passed
    check_revolute_rows: not implemented yet (fill in the function and run this cell again)
    False
    """
    from ..joints import evaluate
    name = "check_revolute_rows"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    s = seed
    while len(cases) < n_cases:
        sys = models.random_tree(6, kind="planar", seed=s)
        st = models.random_state(sys, seed=s, speed=2.0)
        s += 1
        ps, vs = sys.pos_slices, sys.vel_slices
        for k, (jt, j) in enumerate(zip(sys.joints, sys.parents)):
            if jt.type != "revolute2d" or j < 0 or len(cases) >= n_cases:
                continue
            args = (jt, st.y[ps[j]], st.yd[vs[j]], st.y[ps[k]], st.yd[vs[k]])
            tk = evaluate(jt, "planar", *args[1:])
            w_j, w_k = args[2][2], args[4][2]
            a_k = planar_rotation(args[3][2]) @ jt.child_point                         # A_k s'_k, D&G eq. (18)
            wrong = (((tk.G, tk.Q, -tk.gamma), "sign of gamma_k? G_k ydd_k + Q_k ydd_j = gamma_k"),
                     ((tk.Q, tk.G, tk.gamma), "G_k and Q_k swapped? G_k multiplies ydot_k of the child, "
                                              "Q_k ydot_j of the parent"),
                     ((tk.G, tk.Q, w_k ** 2 * a_k), "gamma_k has a parent term too: differentiate "
                                                    "A(phi_j) s'_j twice as well"),
                     ((tk.G, tk.Q, w_k ** 2 * jt.child_point - w_j ** 2 * jt.parent_point),
                      "rotate the body-axes vectors into global axes: A(phi) s'"),
                     ((tk.G, tk.Q, np.zeros(2)), "gamma_k is not zero: differentiate G_k ydot_k + "
                                                 "Q_k ydot_j once more in time"))
            cases.append(Case(args, "a revolute2d joint, y_j, yd_j, y_k, yd_k of shape (3,)",
                              (tk.G, tk.Q, tk.gamma), wrong))
    return run_cases(name, student_fn, cases)


# ----------------------------------------------------------------------------- chapter: spatial vectors

def _planar_offsets(rng: np.random.Generator, n_cases: int) -> list:
    """Planar offsets r: the first along the axes (easy to check by hand), then random."""
    special = [np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([-0.5, 0.0])]
    return [special[k] if k < len(special) else rng.normal(size=2) * rng.uniform(0.1, 3.0)
            for k in range(n_cases)]


def check_planar_shift(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(r) -> S``, the 3x3 planar shift of a twist from point A to B = A + r.

    A planar twist is (omega_z, v_x, v_y) (Critchley & Anderson's 3-vectors): the angular
    velocity first, then the velocity of the point, world axes; S maps the twist at A to the
    twist at B, v_B = v_A + omega x r.  Reference: :func:`rfda_teach.rcr.shift_T`.
    """
    from ..rcr import shift_T
    name = "check_planar_shift"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for r in _planar_offsets(rng, n_cases):
        S = shift_T(r)
        P = order_permutation(3)                              # (omega, v_x, v_y) -> (v_x, v_y, omega)
        wrong = ((shift_T(-r), "direction of r? r points from A (where the twist is known) to B"),
                 (S.T, "transposed: this is the matrix that moves a wrench from B back to A"),
                 (P @ S @ P.T, "ordering: the twist is (omega_z, v_x, v_y), the angular velocity first"),
                 (np.eye(3), "the velocity changes from point to point: v_B = v_A + omega x r"))
        cases.append(Case((r,), "r: planar offset, shape (2,)", S, wrong))
    return run_cases(name, student_fn, cases)


def check_planar_inertia_shift(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(m, J, c) -> I_A``, the 3x3 planar spatial inertia about a point A.

    The body has mass m and central moment of inertia J; its mass centre is at A + c.  I_A acts
    on twists (omega_z, v_x, v_y) at A: the kinetic energy is 1/2 V_A^T I_A V_A and
    I_A = X(c)^T diag(J, m, m) X(c) with X(c) = :func:`rfda_teach.rcr.shift_T` (c), the shift of
    :func:`check_planar_shift` (the chapter's letter X).
    Reference: :func:`rfda_teach.rcr.shift_T` and :func:`rfda_teach.rcr.spatial_inertia`.
    """
    from ..rcr import shift_T, spatial_inertia
    name = "check_planar_inertia_shift"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for c in _planar_offsets(rng, n_cases):
        m, J = float(rng.uniform(0.5, 5.0)), float(rng.uniform(0.05, 1.0))
        Ic = spatial_inertia(Body("planar", m, J))
        S = shift_T(c)
        I_A = S.T @ Ic @ S
        wrong = ((S @ Ic @ S.T, "X(c)^T I_c X(c), not X I X^T: the energy is 1/2 V_c^T I_c V_c with "
                                "V_c = X(c) V_A"),
                 (shift_T(-c).T @ Ic @ shift_T(-c), "direction of c? c points from A to the mass centre"),
                 (Ic, "the inertia about A is not the central one: add the parallel-axis terms"),
                 (I_A - np.diag([2 * m * (c @ c), 0, 0]), "parallel axis: I_A[0, 0] = J + m |c|^2"))
        cases.append(Case((m, J, c), "m, J: positive scalars, c: offset A -> mass centre, shape (2,)",
                          I_A, wrong))
    return run_cases(name, student_fn, cases)


# ----------------------------------------------------------------------------- chapter: one elimination

def check_lubich_contribution(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(M_hat_k, f_hat_k, G_k, Q_k, gamma_k) -> (dM, df)``: what child k adds
    to M_hat_j and f_hat_j of its parent in D&G eq. (9)-(10),

        dM = Q_k^T (G_k M_hat_k^-1 G_k^T)^-1 Q_k,
        df = Q_k^T (G_k M_hat_k^-1 G_k^T)^-1 (gamma_k - G_k M_hat_k^-1 f_hat_k).

    The cases are the non-root joints of random planar and spatial trees, with M_hat_k and
    f_hat_k from :func:`rfda_teach.rfda.forward_dynamics`.
    """
    name = "check_lubich_contribution"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    for kind, sys, tr, res, k, j in lubich_joints(seed):
        if len(cases) >= n_cases:
            break
        jt = tr.joint[k]
        Mh, fh, G, Q, g = res.M_hat[k], res.f_hat[k], jt.G, jt.Q, jt.gamma

        def contrib(M, f, gamma=g):
            W = G @ np.linalg.solve(M, G.T)
            return Q.T @ np.linalg.solve(W, Q), Q.T @ np.linalg.solve(W, gamma - G @ np.linalg.solve(M, f))

        dM, df = contrib(Mh, fh)
        W = G @ np.linalg.solve(Mh, G.T)

        def contrib_W(W_, M=Mh, f=fh, gamma=g):
            return Q.T @ np.linalg.solve(W_, Q), Q.T @ np.linalg.solve(W_, gamma - G @ np.linalg.solve(M, f))
        wrong = [((dM, Q.T @ np.linalg.solve(W, -g - G @ np.linalg.solve(Mh, fh))),
                  "sign of gamma_k in eq. (10)? it is gamma_k - G_k M_hat_k^-1 f_hat_k"),
                 ((dM, Q.T @ np.linalg.solve(W, G @ np.linalg.solve(Mh, fh) - g)),
                  "sign of the force term: eq. (10) adds Q_k^T W^-1 (gamma_k - G_k M_hat_k^-1 f_hat_k)"),
                 ((Q.T @ W @ Q, Q.T @ W @ (g - G @ np.linalg.solve(Mh, fh))),
                  "invert W_k = G_k M_hat_k^-1 G_k^T: eq. (9) has (G_k M_hat_k^-1 G_k^T)^-1"),
                 ((Q.T @ W @ Q, df), "invert W_k = G_k M_hat_k^-1 G_k^T: eq. (9) has (G_k M_hat_k^-1 G_k^T)^-1"),
                 (contrib_W(G @ Mh @ G.T), "W_k = G_k M_hat_k^-1 G_k^T holds the INVERSE of M_hat_k "
                                           "(the child's mobility), not M_hat_k itself")]
        if not np.allclose(fh, tr.f[k]):
            wrong.insert(0, (contrib(Mh, tr.f[k]), "f_hat_k, not f_k: the child's own subtree is "
                                                    "already in f_hat_k"))
        if not np.allclose(Mh, tr.M[k]):
            wrong.insert(0, (contrib(tr.M[k], fh), "M_hat_k, not M_k: use the child's articulated "
                                                    "matrix from step 1"))
        cases.append(Case((Mh, fh, G, Q, g), f"a {jt.G.shape[0]}-row joint of a {kind} tree: "
                                              f"M_hat_k {Mh.shape[0]}x{Mh.shape[1]}, G_k, Q_k "
                                              f"{G.shape[0]}x{G.shape[1]}", (dM, df), tuple(wrong)))
    return run_cases(name, student_fn, cases)


#: every checker by exercise name (the book's exercise index)
def _crba_case(system, seed: int) -> Case:
    """One CRBA case on a chain: per body M_k, B_k, H_k (D&G eq. 61) and the reference M_q."""
    from .. import jointspace as js
    from ..coordinates import appendix_a
    from ..system import terms
    tr = terms(system, models.random_state(system, seed=seed))
    M, B, H = [], [], []
    for k, jt in enumerate(tr.joint):
        M.append(tr.M[k].copy())
        b, h = appendix_a(jt.G, jt.G_d, jt.Q, jt.Q_d)[2:4]
        B.append(b)
        H.append(h)
    Mq = js.mass_matrix(system, tr)
    o = np.cumsum([0] + [h.shape[1] for h in H])
    no_composite, diag_only = Mq.copy(), np.zeros_like(Mq)
    for k in range(system.n):
        sl = slice(o[k], o[k + 1])
        no_composite[sl, sl] = H[k].T @ M[k] @ H[k]
        diag_only[sl, sl] = Mq[sl, sl]
    kinds = "-".join(jt.type for jt in system.joints)
    wrong = ((_crba_blocks(M, B, H, outer=True),
              "B_k^T I_k B_k, not B_k I_k B_k^T: the child's composite inertia reaches the parent as "
              "B_k^T I_k B_k (and F = I_k H_k is carried up with B^T)"),
             (no_composite, "the diagonal block needs the composite inertia I_k of the whole subtree, not M_k"),
             (diag_only, "the off-diagonal blocks are missing: carry F = I_k H_k up the chain with B^T"))
    return Case(([m.copy() for m in M], B, H), f"a chain of {system.n} {system.kind} bodies ({kinds})", Mq, wrong)


def _crba_blocks(M, B, H, *, outer: bool = False) -> np.ndarray:
    """The CRBA of a chain from M_k, B_k, H_k; ``outer=True`` makes the slip B I B^T for
    B^T I B (in the composite inertia and in carrying F up the chain)."""
    n = len(M)
    off = np.cumsum([0] + [h.shape[1] for h in H])
    Ic = [np.array(m, dtype=float) for m in M]

    def up(b, x):
        return b @ x if outer else b.T @ x
    for k in range(n - 1, 0, -1):
        Ic[k - 1] = Ic[k - 1] + (B[k] @ Ic[k] @ B[k].T if outer else B[k].T @ Ic[k] @ B[k])
    Mq = np.zeros((off[-1], off[-1]))
    for k in range(n):
        F = Ic[k] @ H[k]
        sk = slice(off[k], off[k + 1])
        Mq[sk, sk] = H[k].T @ F
        for i in range(k, 0, -1):
            F = up(B[i], F)
            si = slice(off[i - 1], off[i])
            Mq[si, sk] = H[i - 1].T @ F
            Mq[sk, si] = Mq[si, sk].T
    return Mq


def check_crba(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(M, B, H) -> M_q``: the joint-space mass matrix of a chain by the
    composite-rigid-body algorithm, from per-body M_k (D&G eq. 6), B_k and H_k (D&G eq. 61; B_0 is None).

    Reference: :func:`rfda_teach.jointspace.mass_matrix`.

    Examples
    --------
    >>> check_crba(lambda M, B, H: None).implemented
    check_crba: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_crba"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    for i in range(n_cases):
        n, kind = 1 + i % 4, ("planar", "spatial")[i % 2]
        system = (models.chain(n, kind) if i < 4 else
                  models.random_tree(n, kind, seed=seed + i, chain_bias=1.0))
        cases.append(_crba_case(system, seed + i))
    return run_cases(name, student_fn, cases)


CHECKERS = {
    "euler_rate_matrix": check_euler_rate_matrix,
    "rotation_from_euler": check_rotation_from_euler,
    "angular_velocity": check_angular_velocity,
    "gyroscopic_term": check_gyroscopic_term,
    "body_mass_matrix": check_body_mass_matrix,
    "prismatic_rows": check_prismatic_rows,
    "baumgarte_step": check_baumgarte_step,
    "revolute_rows": check_revolute_rows,
    "planar_shift": check_planar_shift,
    "planar_inertia_shift": check_planar_inertia_shift,
    "lubich_contribution": check_lubich_contribution,
    "crba": check_crba,
}



# ----------------------------------------------------------------------------- Kane (Part II)

def _kane_partials_case(rng: np.random.Generator, i: int) -> Case:
    """One tree of the Kane chapter: L (1-based, L(1) = 0), relative rotations [^J R_K], and
    the reference [^R omega'_{K,y1}] (N x 3 x 3N) from :func:`rfda_teach.kane.kinematics`."""
    from .. import kane
    N = 1 + i % 6
    if i % 3 == 0:                                     # a chain 0, 1, 2, ...
        L = tuple(range(N))
    else:                                              # any lower-numbered body
        L = (0,) + tuple(int(rng.integers(1, K + 1)) for K in range(1, N))
    eps = np.array([Rotation.random(random_state=rng).as_quat() for _ in range(N)])   # (x, y, z, w)
    x = np.concatenate([eps.ravel(), rng.normal(size=3 * N)])
    y = rng.normal(size=6 * N)
    system = kane.KaneSystem(L, np.ones(N), np.array([np.diag([1.0, 2.0, 2.5])] * N),
                             np.vstack([np.zeros(3), rng.normal(size=(N - 1, 3))]),
                             rng.normal(size=(N, 3)), np.zeros(3), x, y)
    kin = kane.kinematics(system, x, y)

    def rows(R, identity=True, carry=True, reversed_order=False):
        out = np.zeros((N, 3, 3 * N))
        for K in range(N):
            J = L[K] - 1
            if J >= 0 and reversed_order:
                for b in range(N):
                    out[K][:, 3 * b:3 * b + 3] = out[J][:, 3 * b:3 * b + 3] @ R[K]
            elif J >= 0:
                out[K] = R[K] @ out[J] if carry else 0.0
                if not carry:
                    out[K][:, 3 * J:3 * J + 3] = R[K]
            if identity:
                out[K][:, 3 * K:3 * K + 3] = np.eye(3)
        return out

    expected = rows(kin.R_rel)
    for K in range(N):                                 # the package's sparse blocks, densely
        dense = np.zeros((3, 3 * N))
        for b, B in kin.W[K].items():
            dense[:, 3 * b:3 * b + 3] = B
        assert np.allclose(dense, expected[K], atol=1e-12)
    wrong = ((rows(kin.R_rel, reversed_order=True), "order of the product: eq. (14) multiplies the lower "
                                                    "body's row by [^J R_K] from the LEFT, [^J R_K] "
                                                    "[^R omega'_{J,y1}]"),
             (rows([R.T for R in kin.R_rel]), "[^J R_K] turns the lower body's row into body K's frame: "
                                              "use it, not its transpose"),
             (rows(kin.R_rel, identity=False), "body K's own block of speeds is the identity (eq. 15)"),
             (rows(kin.R_rel, carry=False), "carry the lower body's whole row, turned by [^J R_K] (eq. 14), "
                                            "not only the lower body's own block"))
    kind = "chain" if i % 3 == 0 else "tree"
    bodies = "body" if N == 1 else "bodies"
    return Case((L, [R.copy() for R in kin.R_rel]), f"a {kind} of {N} {bodies}, L = {L}", expected, wrong)


def check_kane_partial_angular_velocities(student_fn, *, n_cases: int = N_CASES,
                                          seed: int = SEED) -> CheckResult:
    """Check ``student_fn(L, R_rel) -> W`` (array N x 3 x 3N): the partial angular velocity
    matrices [^R omega'_{K,y1}] of every body by the recursion of Kane eq. (14)-(15).

    ``L`` is the body-connection array (L[K-1] = lower body of body K, 0 for the inertial
    frame), ``R_rel[K-1]`` the relative rotation [^J R_K] of Kane eq. (4).  Reference:
    :func:`rfda_teach.kane.kinematics` (its ``W``, stored there as sparse blocks).

    Examples
    --------
    >>> check_kane_partial_angular_velocities(lambda L, R: None).implemented
    check_kane_partial_angular_velocities: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_kane_partial_angular_velocities"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    return run_cases(name, student_fn, [_kane_partials_case(rng, i) for i in range(n_cases)])


CHECKERS["kane_partial_angular_velocities"] = check_kane_partial_angular_velocities
__all__ += ["check_kane_partial_angular_velocities"]


# ----------------------------------------------------------------------------- chapter: the analysis reference point

def check_equipollent(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(m, J, s, s_dot, omega, F, tau) -> (M_P, Q_P)``: the equipollent mass
    matrix and force of one body at a point P, K&Y eq. (4)-(8).

    ``s`` runs from the centroid to P, ``s_dot`` is its rate, ``J`` the central inertia and every
    vector in world components; ordering (v, omega).  Reference: :func:`rfda_teach.refpoint.equipollent`.

    Examples
    --------
    >>> from rfda_teach import refpoint
    >>> check_equipollent(refpoint.equipollent).passed
    check_equipollent: passed on 40 cases
    True
    """
    from ..refpoint import equipollent
    name = "check_equipollent"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    cases = []
    for k in range(n_cases):
        m = float(rng.uniform(0.5, 5.0))
        A = Rotation.random(random_state=rng).as_matrix()
        J = A @ np.diag(rng.uniform(0.5, 1.0, 3)) @ A.T
        s = np.zeros(3) if k == 0 else rng.normal(size=3)
        sd, w, F, tau = (rng.normal(size=3) for _ in range(4))
        sd = np.zeros(3) if k == 0 else sd
        where = "P = the centroid (s = 0)" if k == 0 else "P away from the centroid"
        M, Q = equipollent(m, J, s, sd, w, F, tau)
        T, Mc = shift(-s), spatial_inertia(m, J)              # K&Y eq. (4) T^P, K&Y eq. (3) M^c = diag(m I, J)
        M_neg, Q_neg = equipollent(m, J, -s, -sd, w, F, tau)
        top = Q[:3]
        wrong = (((M_neg, Q_neg), "direction of s? s runs from the centroid to P, T^P = [[I, [s]x], [0, I]]"),
                 ((M, equipollent(m, J, s, 0 * sd, w, F, tau)[1]),
                  "Q^P lacks -T^T M^c Tdot Y^P: Tdot Y^P = (s_dot x omega, 0)"),
                 ((M, np.r_[top, Q[3:] + 2 * np.cross(s, top)]),
                  "moment about P: T^T puts -s x (force) in the lower half"),
                 ((M - np.block([[np.zeros((3, 3))] * 2, [np.zeros((3, 3)), 2 * m * (s @ s * np.eye(3)
                                                                                   - np.outer(s, s))]]), Q),
                  "parallel axis: the lower-right block is J + m(|s|^2 I - s s^T)"),
                 ((T @ Mc @ T.T, Q), "T^T M^c T, not T M^c T^T: M^P = (T^P)^T M^c T^P, the transposed "
                                     "factor on the LEFT"))
        cases.append(Case((m, J, s, sd, w, F, tau),
                          f"m > 0, J: 3x3 central inertia, s, s_dot, omega, F, tau: shape (3,), {where}",
                          (M, Q), wrong))
    return run_cases(name, student_fn, cases)


__all__ += ["check_equipollent"]
CHECKERS["equipollent"] = check_equipollent


# ----------------------------------------------------------------------------- closed loops (Critchley & Anderson)

def _reduction_cases(n_cases: int, seed: int) -> list:
    """Inward RCR steps (C&A eq. 34, 36) on the loops of the closed-loops chapter, each case one step
    with the R^{k+1} left by the steps before it, at assembled random configurations."""
    from .. import rcr
    rng = np.random.default_rng(seed)
    makers = [(rcr.five_bar, "acs", "five-bar"), (rcr.four_bar, "acs", "four-bar"),
              (lambda: rcr.loop_chain(6, seed=seed), "rcr", "six-joint loop")]
    cases = []
    while len(cases) < n_cases:
        make, method, label = makers[len(cases) % len(makers)]
        model = make()
        topo = rcr.topology(model, method)
        deps = list(topo.deps)
        q = rcr.solve_dependents(model, model.q0 + rng.uniform(-0.05, 0.05, model.n))
        Jc = rcr.closure_jacobian(model, q)
        R = np.eye(3)
        for step, d in enumerate(sorted(deps, reverse=True)):      # inward: the last dependent first
            a = Jc[:, d]
            Q, R_new = rcr.reduction_step(R, a)
            wrong = ((((1.0 / (a @ a)), R_new), "Q^k needs R^{k+1}: eq. (34) is 1 / (a^T R^{k+1} a)"),
                     ((Q, np.eye(3) - Q * np.outer(a, a)),
                      "R^k keeps R^{k+1} on both sides: eq. (36), R^{k+1} (U - a Q a^T R^{k+1})"),
                     ((Q, R - Q * np.outer(a, a)),
                      "project with R^{k+1} a, not with a: R^k = R^{k+1} - Q (R^{k+1} a)(R^{k+1} a)^T"),
                     ((Q, Q * np.outer(R @ a, R @ a)), "R^k is what is left: subtract from R^{k+1}"))
            cases.append(Case((R.copy(), a.copy()),
                              f"{label}, elimination {step + 1} of 3: R_next 3x3, a shape (3,)",
                              (np.array(Q), R_new), wrong, _reduction_props(R.copy(), a.copy())))
            R = R_new
    return cases[:n_cases]


def _reduction_props(R_next: np.ndarray, a: np.ndarray) -> tuple:
    """What R^k must be whatever Q^k is: symmetric, with R^k a = 0, a projector (R^k R^k = R^k),
    inside R^{k+1} (R^{k+1} R^k = R^k); and Q^k > 0.  Each broken property has its own hint."""
    tol = 1e-7

    def bad(x, scale=1.0):
        return not np.allclose(x, 0.0, atol=tol * max(1.0, scale))

    return ((lambda got: bad(got[1] - got[1].T),
             "R^k must be symmetric, like R^{k+1}: subtract Q (R^{k+1} a)(R^{k+1} a)^T, the same vector "
             "on both sides"),
            (lambda got: bad(got[1] @ a, np.abs(a).max()),
             "R^k a must be zero (the step removes the direction of a): check Q^k = 1 / (a^T R^{k+1} a) "
             "of eq. (34), whose denominator has R^{k+1} in it"),
            (lambda got: bad(got[1] @ got[1] - got[1]),
             "R^k must be a projector, R^k R^k = R^k: eq. (36) is R^{k+1} (U - a Q a^T R^{k+1})"),
            (lambda got: bad(R_next @ got[1] - got[1]),
             "R^k projects inside R^{k+1}: R^{k+1} R^k = R^k; start from R^{k+1}, not from U"),
            (lambda got: not float(np.ravel(got[0])[0]) > 0.0,
             "Q^k = 1 / (a^T R^{k+1} a) is positive: check eq. (34)"))


def check_rcr_reduction_step(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(R_next, a) -> (Q, R)``: one inward step of the RCR loop kinematics,
    Q^k of C&A eq. (34) and R^k of C&A eq. (36), from R^{k+1} and the closure column a = (^kS^n)^T P_k^k.

    Reference: :func:`rfda_teach.rcr.reduction_step`.

    Examples
    --------
    >>> check_rcr_reduction_step(lambda R, a: None).implemented
    check_rcr_reduction_step: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_rcr_reduction_step"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    return run_cases(name, student_fn, _reduction_cases(n_cases, seed))


__all__ += ["check_rcr_reduction_step"]
CHECKERS["rcr_reduction_step"] = check_rcr_reduction_step


# ----------------------------------------------------------------------------- the humanoid (Part III)

def _free_flyer_case(rng: np.random.Generator, k: int) -> Case:
    """One free-flying body with a random mass centre offset, at a random Pinocchio (q, v); the
    reference ydot from :func:`rfda_teach.interop.to_state`."""
    from .. import interop
    pin = interop.require_pinocchio()
    model = pin.Model()
    jid = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "base")
    lever = np.zeros(3) if k == 0 else rng.normal(size=3)
    A = Rotation.random(random_state=rng).as_matrix()
    model.appendBodyToJoint(jid, pin.Inertia(float(rng.uniform(1, 5)), lever,
                                             A @ np.diag(rng.uniform(0.5, 1, 3)) @ A.T), pin.SE3.Identity())
    robot = interop.from_pinocchio(model)
    quat = np.array([0.0, 0, 0, 1]) if k == 1 else Rotation.random(random_state=rng).as_quat()
    q = np.r_[rng.normal(size=3), quat]
    v = rng.normal(size=6)
    yd = interop.to_state(robot, q, v).yd
    R = euler_params_to_matrix(scalar_first(quat))                      # Pinocchio's (x, y, z, w)
    vl, wl = v[:3], v[3:]
    wrong = ((np.r_[vl + np.cross(wl, lever), wl], "Pinocchio's v is in base axes: rotate it to world axes with R"),
             (np.r_[R @ vl, R @ wl], "v is the velocity of the joint origin; the mass centre moves by omega x c"),
             (np.r_[R @ (vl - np.cross(wl, lever)), R @ wl], "omega x c, not c x omega"),
             (np.r_[R.T @ (vl + np.cross(wl, lever)), R.T @ wl], "R maps base axes to world axes: R, not R^T"),
             (np.r_[R @ (vl + np.cross(wl, lever)), wl], "the angular velocity too is in base axes"))
    where = "c = 0" if k == 0 else ("R = I" if k == 1 else "random R and c")
    return Case((q[3:].copy(), lever.copy(), v.copy()),
                f"quat: shape (4,), c: shape (3,), v: shape (6,), {where}", yd, wrong)


def check_free_flyer_ydot(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(quat, c, v) -> ydot`` (shape (6,)): the package's velocity of a free-flying
    base body, (mass-centre velocity, angular velocity) in world axes, from Pinocchio's free-flyer
    quaternion ``quat`` = (x, y, z, w) (base axes to world), the mass-centre offset ``c`` from the joint
    origin in base axes, and Pinocchio's velocity ``v`` = (v_lin, omega) of the joint origin in base axes.

    Reference: :func:`rfda_teach.interop.to_state` (needs the extra ``robots``).

    Examples
    --------
    >>> check_free_flyer_ydot(lambda quat, c, v: None).implemented
    check_free_flyer_ydot: not implemented yet (fill in the function and run this cell again)
    False
    """
    name = "check_free_flyer_ydot"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    return run_cases(name, student_fn, [_free_flyer_case(rng, k) for k in range(n_cases)])


__all__ += ["check_free_flyer_ydot"]
CHECKERS["free_flyer_ydot"] = check_free_flyer_ydot


def check_velocity_transformation(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(p_i, p_j, r_j, Bw) -> (B1, B2)``: Kang & Yoon's B_j1 (6x6) and B_j2 (6xn) of
    K&Y eq. (24), Y_j = B_j1 Y_i + B_j2 qdot_j, at reference points p_i (lower body) and p_j (body j),
    joint point r_j, joint matrix Bw (3xn); ordering (v, omega).  Reference:
    :func:`rfda_teach.refpoint.velocity_transformation`.

    Examples
    --------
    >>> from rfda_teach import refpoint
    >>> check_velocity_transformation(refpoint.velocity_transformation).passed
    check_velocity_transformation: passed on 40 cases
    True
    """
    from ..refpoint import velocity_transformation as vt
    name = "check_velocity_transformation"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    kinds = ("IGO (p_i = p_j = 0)", "joint point (p_j = r_j)", "centroid-like points")
    cases = []
    for k in range(n_cases):
        n = 1 + k % 3
        Bw = Rotation.random(random_state=rng).as_matrix()[:, :n]
        r_j, p_i, p_j = (rng.normal(size=3) for _ in range(3))
        kind = kinds[k % 3]
        if k % 3 == 0:
            p_i, p_j = np.zeros(3), np.zeros(3)
        elif k % 3 == 1:
            p_j = r_j.copy()
        B1, B2 = vt(p_i, p_j, r_j, Bw)
        wrong = ((vt(p_j, p_i, r_j, Bw), "direction of the shift? B_j1 carries Y_i from p_i to p_j: "
                                         "-[p_j - p_i]x"),
                 ((B1, vt(p_i, p_j, p_j - (p_j - r_j) * -1, Bw)[1]),
                  "lever of the joint: the top block of B_j2 is -[p_j - r_j]x Bw"),
                 ((B1.T, B2), "transposed B_j1? its top-right block is -[p_j - p_i]x"),
                 ((np.eye(6), B2), "B_j1 is the identity only when p_i = p_j (the IGO)"))
        if k % 3 != 1:
            wrong += (((B1, np.vstack([np.zeros((3, n)), Bw])), "the joint's twist is about r_j: shift it to "
                                                                 "p_j (top block -[p_j - r_j]x Bw)"),)
        cases.append(Case((p_i, p_j, r_j, Bw), f"points p_i, p_j, r_j: shape (3,), Bw: 3x{n}, {kind}",
                          (B1, B2), wrong))
    return run_cases(name, student_fn, cases)


__all__ += ["check_velocity_transformation"]
CHECKERS["velocity_transformation"] = check_velocity_transformation


# ----------------------------------------------------------------------------- Part I: dae and recursion

def check_constraint_jacobian(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(parents, G, Q) -> C``: the constraint Jacobian of D&G eq. (7) in matrix form,
    row block k holding G_k under body k and Q_k under its parent P(k) (zeros elsewhere), from the
    parent array (-1 for the root's parent, the ground), the blocks G[k] (m_k x p_k) and Q[k]
    (m_k x p_P(k), None at the root).  Reference: ``dae.forward_dynamics(...).C``.

    Examples
    --------
    >>> check_constraint_jacobian(lambda parents, G, Q: None).implemented
    check_constraint_jacobian: not implemented yet (fill in the function and run this cell again)
    False
    """
    from .. import dae
    from ..system import terms
    name = "check_constraint_jacobian"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    for i in range(n_cases):
        kind = "planar" if i % 2 == 0 else "spatial"
        sys = models.random_tree(2 + i % 5, kind=kind, seed=seed + i)
        st = models.random_state(sys, seed=seed + i)
        tr = terms(sys, st)
        C = dae.forward_dynamics(sys, st).C
        G = [jt.G for jt in tr.joint]
        Q = [None if j < 0 else jt.Q for jt, j in zip(tr.joint, sys.parents)]
        wrong = [(-C, "signs: C holds +G_k and +Q_k, as in eq. (3)"),
                 (np.abs(C),
                  "signs: copy G_k and Q_k as they are, do not take absolute values")]
        Cs = C.copy()
        for k, j in enumerate(sys.parents):
            if j >= 0:
                Cs[sys.con_slices[k], sys.vel_slices[j]] = 0.0
        wrong.append((Cs, "Q_k belongs in row block k under the parent's columns P(k)"))
        Cq = C.copy()
        for k, j in enumerate(sys.parents):
            if j >= 0:
                Cq[sys.con_slices[k], sys.vel_slices[j]] *= -1.0
        wrong.insert(0, (Cq, "sign of the Q_k block: copy Q_k as it is, +Q_k under the parent's columns "
                             "(G_k ydot_k + Q_k ydot_P(k) = ..., eq. 3); the minus is already inside Q_k"))
        cases.append(Case((tuple(sys.parents), G, Q),
                          f"a {kind} tree of {sys.n} bodies, C {C.shape[0]}x{C.shape[1]}", C, tuple(wrong)))
    return run_cases(name, student_fn, cases)


def check_lubich_step2(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(M_hat_j, f_hat_j, G_j, Q_j, gamma_j, ydd_parent) -> (ydd_j, lam_j)``: step 2
    of the RFDA at a non-root node j, D&G eq. (8) solved for the multipliers and then the accelerations,

        lam_j = (G_j M_hat_j^-1 G_j^T)^-1 (G_j M_hat_j^-1 f_hat_j - gamma_j + Q_j ydd_parent),
        ydd_j = M_hat_j^-1 (f_hat_j - G_j^T lam_j).

    The cases are the non-root joints of random planar and spatial trees, with M_hat_j, f_hat_j and
    the parent's accelerations from :func:`rfda_teach.rfda.forward_dynamics`.
    """
    name = "check_lubich_step2"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    for kind, sys, tr, res, j, i in lubich_joints(seed):
        if len(cases) >= n_cases:
            break
        jt = tr.joint[j]
        Mh, fh, G, Q, g = res.M_hat[j], res.f_hat[j], jt.G, jt.Q, jt.gamma
        a = res.ydd[sys.vel_slices[i]]
        ydd, lam = res.ydd[sys.vel_slices[j]], res.lam[sys.con_slices[j]]

        def solve(lam_):
            return np.linalg.solve(Mh, fh - G.T @ lam_), lam_

        W = G @ np.linalg.solve(Mh, G.T)
        u = G @ np.linalg.solve(Mh, fh)
        wrong = ((solve(np.linalg.solve(W, u - g - Q @ a)), "the parent's term: eq. (8) has "
                                                             "gamma_j - Q_j yddot_P(j)"),
                 (solve(-lam), "sign of lam_j: eq. (8) reads M_hat_j yddot_j + G_j^T lam_j = f_hat_j"),
                 ((np.linalg.solve(Mh, fh), lam), "yddot_j = M_hat_j^-1 (f_hat_j - G_j^T lam_j): "
                                                 "subtract the joint's force"),
                 (solve(np.linalg.solve(W, u - g)), "the parent's accelerations enter through "
                                                     "Q_j yddot_P(j)"),
                 (solve(np.linalg.solve(W, u + g + Q @ a)), "sign of gamma_j: lam_j = W_j^-1 (G_j "
                                                            "M_hat_j^-1 f_hat_j - gamma_j + Q_j "
                                                            "yddot_P(j))"))
        cases.append(Case((Mh, fh, G, Q, g, a), f"a {G.shape[0]}-row joint of a {kind} tree: M_hat_j "
                                                 f"{Mh.shape[0]}x{Mh.shape[1]}, G_j {G.shape[0]}x"
                                                 f"{G.shape[1]}, Q_j {Q.shape[0]}x{Q.shape[1]}",
                          (ydd, lam), wrong))
    return run_cases(name, student_fn, cases)


__all__ += ["check_constraint_jacobian", "check_lubich_step2"]
CHECKERS["constraint_jacobian"] = check_constraint_jacobian
CHECKERS["lubich_step2"] = check_lubich_step2


# ----------------------------------------------------------------------------- chapter: methods

def _without_inverse(student_fn, hint: str) -> Callable:
    """``student_fn`` run with numpy's and scipy's ``inv`` and ``pinv`` replaced by a function that
    raises :class:`StudentHint` (``hint``): an explicit inverse is named, not passed."""
    import scipy.linalg

    targets = ((np.linalg, "inv"), (np.linalg, "pinv"), (scipy.linalg, "inv"), (scipy.linalg, "pinv"))

    def refuse(*args, **kwargs):
        raise StudentHint(hint)

    def guarded(*args):
        saved = [(mod, attr, getattr(mod, attr)) for mod, attr in targets]
        try:
            for mod, attr, _ in saved:
                setattr(mod, attr, refuse)
            return student_fn(*args)
        finally:
            for mod, attr, fn in saved:
                setattr(mod, attr, fn)
    return guarded


def check_method_2(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(M_k, E_k, D_k) -> (E~_k, D~_k)``, Method 2, D&G eq. (42)-(44):

        A~_k = -(D_k^T M_k D_k)^-1 D_k^T M_k E_k,   E~_k = E_k + D_k A~_k,   D~_k = D_k.

    The cases are the non-root joints of random planar and spatial trees, with M_k the child's
    mass matrix and E_k, D_k from Appendix A (:func:`rfda_teach.coordinates.appendix_a`).
    Reference: :func:`rfda_teach.coordinates.method_2`.
    """
    from ..coordinates import appendix_a, method_2
    from ..system import terms
    name = "check_method_2"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    student_fn = _without_inverse(student_fn, "no explicit inverse: the text solves (D_k^T M_k D_k) A~_k = "
                                              "-D_k^T M_k E_k (numpy.linalg.solve) instead of forming "
                                              "(D_k^T M_k D_k)^-1")
    cases = []
    s = seed
    while len(cases) < n_cases:
        kind = "planar" if s % 2 == 0 else "spatial"
        sys = models.random_tree(4, kind=kind, seed=s)
        st = models.random_state(sys, seed=s)
        s += 1
        tr = terms(sys, st)
        for k, j in enumerate(sys.parents):
            jt = tr.joint[k]
            if j < 0 or jt.G.shape[0] == 0 or len(cases) >= n_cases:
                continue
            M = tr.M[k]
            E, D = appendix_a(jt.G, jt.G_d)[:2]
            if D.shape[1] == 0:
                continue
            Et, Dt, A = method_2(M, E, D)
            wrong = [((E, D), "no tilt: condition 2 needs E~ = E + D A~ with A~ of eq. (42)"),
                     ((E - D @ A, D), "sign of A~: eq. (42) has a minus, E~ = E + D A~"),
                     ((E - D @ (D.T @ M @ E), D), "invert D^T M D: A~ = -(D^T M D)^-1 D^T M E"),
                     ((E - D @ np.linalg.solve(D.T @ D, D.T @ E), D),
                      "the mass matrix: condition 2 is D~^T M E~ = 0, weighted by M_k")]
            cases.append(Case((M, E, D), f"a {jt.G.shape[0]}-row joint of a {kind} tree: M_k "
                                         f"{M.shape[0]}x{M.shape[1]}, E_k {E.shape[0]}x{E.shape[1]}, "
                                         f"D_k {D.shape[0]}x{D.shape[1]}", (Et, Dt), tuple(wrong)))
    return run_cases(name, student_fn, cases)


CHECKERS["method_2"] = check_method_2
__all__.append("check_method_2")


# ----------------------------------------------------------------------------- chapter modules
# Later chapters keep their checkers in their own module (rfda_teach/exercises/<chapter>.py),
# each with its own ``__all__`` and ``CHECKERS``; they are re-exported here, so a notebook
# always writes ``from rfda_teach import exercises as ex; ex.check_<name>(...)``.

import importlib  # noqa: E402

from .questions import check_question  # noqa: E402

__all__.append("check_question")

#: the chapters with a module of their own (their later checkers and their questions), in the book's order
CHAPTERS = ("jointspace", "dae", "recursion", "elimination", "featherstone", "revolute_pair", "methods",
            "standard_forms", "seeing", "general_tree", "kane", "refpoint", "closed_loops", "capstone", "humanoid")

for _chapter in CHAPTERS:
    _mod = importlib.import_module(f".{_chapter}", __name__)
    for _name in _mod.__all__:
        globals()[_name] = getattr(_mod, _name)
    __all__ += list(_mod.__all__)
    CHECKERS.update(_mod.CHECKERS)
del _mod, _chapter


# ----------------------------------------------------------------------------- typical slips
# Each checker's typical mistakes, as student functions that make them (rfda_teach.exercises.slips):
# tests/test_exercises_slips.py runs every checker on each and asserts that the hint names it.

@slip("check_euler_rate_matrix", "scalar part last, e = (x, y, z, w)", hint="scalar part first")
def _slip_rate_scalar_last(e):
    return 0.5 * euler_E(scalar_first(e), check=False).T                # 1/2 E^T of (x, y, z, w) read as (w, x, y, z)


@slip("check_euler_rate_matrix", "1/2 G^T: omega in body components", hint="body vs global")
def _slip_rate_body(e):
    return 0.5 * euler_G(np.asarray(e, dtype=float), check=False).T


@slip("check_rotation_from_euler", "R^T: global to body", hint="transposed")
def _slip_rotation_transposed(e):
    return euler_params_to_matrix(e).T


@slip("check_rotation_from_euler", "scalar part last, e = (x, y, z, w)", hint="scalar part first")
def _slip_rotation_scalar_last(e):
    e = np.asarray(e, dtype=float)
    return euler_params_to_matrix(np.r_[e[3], e[:3]], check=False)


def _unskew(W: np.ndarray) -> np.ndarray:
    return np.array([W[2, 1], W[0, 2], W[1, 0]])


@slip("check_angular_velocity", "R^T R_dot: body components", hint="body vs global")
def _slip_omega_body(R, R_dot):
    return _unskew(R.T @ R_dot)


@slip("check_angular_velocity", "R R_dot^T: the sign", hint="wrong sign")
def _slip_omega_sign(R, R_dot):
    return _unskew(R @ R_dot.T)


@slip("check_gyroscopic_term", "the body-frame term -omega' x (J' omega'), not rotated back",
      hint="body vs world components")
def _slip_gyro_body(J_body, R, omega):
    wb = R.T @ omega
    return -np.cross(wb, J_body @ wb)


@slip("check_gyroscopic_term", "J' used in world axes", hint="rotate the body-frame inertia")
def _slip_gyro_unrotated(J_body, R, omega):
    return -np.cross(omega, J_body @ omega)


@slip("check_gyroscopic_term", "plus omega x J omega", hint="sign of the gyroscopic term")
def _slip_gyro_sign(J_body, R, omega):
    return np.cross(omega, R @ J_body @ R.T @ omega)


@slip("check_body_mass_matrix", "J' not rotated to global axes", hint="rotate the body-frame inertia")
def _slip_mass_unrotated(body, y_i):
    M = mass_matrix(body, y_i)
    if body.kind == "spatial":
        M[3:, 3:] = body.J
    return M


@slip("check_body_mass_matrix", "R^T J' R", hint="transposed rotation")
def _slip_mass_transposed(body, y_i):
    M = mass_matrix(body, y_i)
    if body.kind == "spatial":
        R = euler_params_to_matrix(y_i[3:])
        M[3:, 3:] = R.T @ body.J @ R
    return M


def _rows(joint, *args):
    from ..joints import evaluate
    return evaluate(joint, "planar", *args)


@slip("check_prismatic_rows", "gamma with the wrong sign", hint="sign of gamma_k")
def _slip_prismatic_gamma_sign(joint, y_j, yd_j, y_k, yd_k):
    t = _rows(joint, y_j, yd_j, y_k, yd_k)
    return t.G, -t.gamma


@slip("check_prismatic_rows", "gamma = 0", hint="gamma_k is not zero")
def _slip_prismatic_gamma_zero(joint, y_j, yd_j, y_k, yd_k):
    t = _rows(joint, y_j, yd_j, y_k, yd_k)
    return t.G, np.zeros_like(t.gamma)


@slip("check_revolute_rows", "G_k and Q_k swapped", hint="G_k and Q_k swapped")
def _slip_revolute_swapped(joint, y_j, yd_j, y_k, yd_k):
    t = _rows(joint, y_j, yd_j, y_k, yd_k)
    return t.Q, t.G, t.gamma


@slip("check_revolute_rows", "gamma with the wrong sign", hint="sign of gamma_k")
def _slip_revolute_gamma_sign(joint, y_j, yd_j, y_k, yd_k):
    t = _rows(joint, y_j, yd_j, y_k, yd_k)
    return t.G, t.Q, -t.gamma


@slip("check_revolute_rows", "gamma without the parent's term", hint="parent term")
def _slip_revolute_gamma_child_only(joint, y_j, yd_j, y_k, yd_k):
    t = _rows(joint, y_j, yd_j, y_k, yd_k)
    return t.G, t.Q, yd_k[2] ** 2 * (planar_rotation(y_k[2]) @ joint.child_point)


def _baumgarte(M, C, f, g):
    n, m = M.shape[0], C.shape[0]
    x = np.linalg.solve(np.block([[M, C.T], [C, np.zeros((m, m))]]), np.r_[f, g])
    return x[:n], x[n:]


@slip("check_baumgarte_step", "alpha and beta swapped", hint="alpha and beta swapped")
def _slip_baumgarte_swapped(M, C, f, gamma, phi, phi_dot, alpha, beta):
    return _baumgarte(M, C, f, gamma - 2 * beta * phi_dot - alpha ** 2 * phi)


@slip("check_baumgarte_step", "the correction added", hint="sign of the correction")
def _slip_baumgarte_sign(M, C, f, gamma, phi, phi_dot, alpha, beta):
    return _baumgarte(M, C, f, gamma + 2 * alpha * phi_dot + beta ** 2 * phi)


@slip("check_baumgarte_step", "beta not squared", hint="beta squared")
def _slip_baumgarte_beta(M, C, f, gamma, phi, phi_dot, alpha, beta):
    return _baumgarte(M, C, f, gamma - 2 * alpha * phi_dot - beta * phi)


@slip("check_planar_shift", "the transpose (the wrench shift)", hint="transposed")
def _slip_shift_transposed(r):
    from ..rcr import shift_T
    return shift_T(r).T


@slip("check_planar_shift", "r from B to A", hint="direction of r")
def _slip_shift_direction(r):
    from ..rcr import shift_T
    return shift_T(-np.asarray(r, dtype=float))


def _inertia_parts(m, J, c):
    from ..rcr import shift_T, spatial_inertia
    return shift_T(c), spatial_inertia(Body("planar", m, J))


@slip("check_planar_inertia_shift", "X I X^T for X^T I X", hint="X(c)^T I_c X(c)")
def _slip_inertia_outer(m, J, c):
    X, Ic = _inertia_parts(m, J, c)
    return X @ Ic @ X.T


@slip("check_planar_inertia_shift", "the central inertia (no parallel-axis terms)", hint="parallel-axis")
def _slip_inertia_central(m, J, c):
    return _inertia_parts(m, J, c)[1]


@slip("check_lubich_contribution", "W = G M G^T", hint="INVERSE of M_hat_k")
def _slip_lubich_W(M_hat_k, f_hat_k, G_k, Q_k, gamma_k):
    W = G_k @ M_hat_k @ G_k.T
    return (Q_k.T @ np.linalg.solve(W, Q_k),
            Q_k.T @ np.linalg.solve(W, gamma_k - G_k @ np.linalg.solve(M_hat_k, f_hat_k)))


@slip("check_lubich_contribution", "W not inverted", hint="invert W_k")
def _slip_lubich_no_inverse(M_hat_k, f_hat_k, G_k, Q_k, gamma_k):
    W = G_k @ np.linalg.solve(M_hat_k, G_k.T)
    return Q_k.T @ W @ Q_k, Q_k.T @ np.linalg.solve(W, gamma_k - G_k @ np.linalg.solve(M_hat_k, f_hat_k))


@slip("check_lubich_contribution", "the sign of gamma", hint="sign of gamma_k")
def _slip_lubich_gamma(M_hat_k, f_hat_k, G_k, Q_k, gamma_k):
    W = G_k @ np.linalg.solve(M_hat_k, G_k.T)
    return (Q_k.T @ np.linalg.solve(W, Q_k),
            Q_k.T @ np.linalg.solve(W, -gamma_k - G_k @ np.linalg.solve(M_hat_k, f_hat_k)))


@slip("check_crba", "B I B^T for B^T I B", hint="B_k^T I_k B_k, not B_k I_k B_k^T")
def _slip_crba_outer(M, B, H):
    return _crba_blocks(M, B, H, outer=True)


@slip("check_crba", "M_k for the composite inertia", hint="composite inertia")
def _slip_crba_no_composite(M, B, H):
    Mq = _crba_blocks(M, B, H)
    off = np.cumsum([0] + [h.shape[1] for h in H])
    for k in range(len(M)):
        sl = slice(off[k], off[k + 1])
        Mq[sl, sl] = H[k].T @ M[k] @ H[k]
    return Mq


def _kane_rows(L, R_rel, reversed_order=False, transposed=False):
    N = len(L)
    W = np.zeros((N, 3, 3 * N))
    for K in range(N):
        J = L[K] - 1
        R = R_rel[K].T if transposed else R_rel[K]
        if J >= 0:
            W[K] = (np.hstack([W[J][:, 3 * b:3 * b + 3] @ R for b in range(N)]) if reversed_order
                    else R @ W[J])
        W[K][:, 3 * K:3 * K + 3] = np.eye(3)
    return W


@slip("check_kane_partial_angular_velocities", "the lower body's row times [^J R_K] (reversed order)",
      hint="order of the product")
def _slip_kane_reversed(L, R_rel):
    return _kane_rows(L, R_rel, reversed_order=True)


@slip("check_kane_partial_angular_velocities", "[^J R_K]^T", hint="not its transpose")
def _slip_kane_transposed(L, R_rel):
    return _kane_rows(L, R_rel, transposed=True)


def _equipollent_T(s):
    return shift(-np.asarray(s, dtype=float))                            # K&Y eq. (4): T^P = [[I, [s]x], [0, I]]


@slip("check_equipollent", "T M^c T^T for T^T M^c T", hint="T^T M^c T, not T M^c T^T")
def _slip_equipollent_outer(m, J, s, s_dot, omega, F, tau):
    from ..refpoint import equipollent
    T = _equipollent_T(s)
    Mc = spatial_inertia(m, J)
    return T @ Mc @ T.T, equipollent(m, J, s, s_dot, omega, F, tau)[1]


@slip("check_equipollent", "s from P to the centroid", hint="direction of s")
def _slip_equipollent_direction(m, J, s, s_dot, omega, F, tau):
    from ..refpoint import equipollent
    return equipollent(m, J, -s, -s_dot, omega, F, tau)


@slip("check_equipollent", "the Tdot Y term left out", hint="Tdot Y^P")
def _slip_equipollent_no_tdot(m, J, s, s_dot, omega, F, tau):
    from ..refpoint import equipollent
    return equipollent(m, J, s, 0 * s_dot, omega, F, tau)


@slip("check_rcr_reduction_step", "Q = 1 / (a^T a), used in R too", hint="denominator has R^{k+1}")
def _slip_rcr_Q(R_next, a):
    Ra = R_next @ a
    Q = 1.0 / (a @ a)
    return Q, R_next - Q * np.outer(Ra, Ra)


@slip("check_rcr_reduction_step", "R = R_next - Q (R_next a) a^T, not symmetric", hint="must be symmetric")
def _slip_rcr_asymmetric(R_next, a):
    Ra = R_next @ a
    Q = 1.0 / (a @ Ra)
    return Q, R_next - Q * np.outer(Ra, a)


@slip("check_rcr_reduction_step", "project with a, not with R_next a", hint="project with R^{k+1} a")
def _slip_rcr_with_a(R_next, a):
    Q = 1.0 / (a @ R_next @ a)
    return Q, R_next - Q * np.outer(a, a)


def _free_flyer(quat, c, v, *, transposed=False, rotate=True):
    R = euler_params_to_matrix(scalar_first(quat))                      # Pinocchio's (x, y, z, w)
    R = R.T if transposed else R
    lin = np.asarray(v[:3]) + np.cross(v[3:], c)
    return np.r_[R @ lin, R @ v[3:]] if rotate else np.r_[lin, v[3:]]


@slip("check_free_flyer_ydot", "R^T for R", hint="R, not R^T")
def _slip_free_flyer_transposed(quat, c, v):
    return _free_flyer(quat, c, v, transposed=True)


@slip("check_free_flyer_ydot", "base axes, not rotated", hint="rotate it to world axes")
def _slip_free_flyer_base(quat, c, v):
    return _free_flyer(quat, c, v, rotate=False)


@slip("check_velocity_transformation", "the shift from p_j to p_i", hint="direction of the shift")
def _slip_vt_direction(p_i, p_j, r_j, Bw):
    from ..refpoint import velocity_transformation
    return velocity_transformation(p_j, p_i, r_j, Bw)


@slip("check_velocity_transformation", "B_j1 transposed", hint="transposed B_j1")
def _slip_vt_transposed(p_i, p_j, r_j, Bw):
    from ..refpoint import velocity_transformation
    B1, B2 = velocity_transformation(p_i, p_j, r_j, Bw)
    return B1.T, B2


def _jacobian(parents, G, Q, q_sign=1.0, with_Q=True):
    rows = np.cumsum([0] + [g.shape[0] for g in G])
    cols = np.cumsum([0] + [g.shape[1] for g in G])
    C = np.zeros((rows[-1], cols[-1]))
    for k, j in enumerate(parents):
        C[rows[k]:rows[k + 1], cols[k]:cols[k + 1]] = G[k]
        if j >= 0 and with_Q:
            C[rows[k]:rows[k + 1], cols[j]:cols[j + 1]] = q_sign * np.asarray(Q[k])
    return C


@slip("check_constraint_jacobian", "-Q_k under the parent", hint="sign of the Q_k block")
def _slip_jacobian_q_sign(parents, G, Q):
    return _jacobian(parents, G, Q, q_sign=-1.0)


@slip("check_constraint_jacobian", "the Q_k blocks left out", hint="Q_k belongs in row block k")
def _slip_jacobian_no_q(parents, G, Q):
    return _jacobian(parents, G, Q, with_Q=False)


def _step2(M_hat_j, f_hat_j, G_j, Q_j, gamma_j, ydd_parent, g_sign=1.0, p_sign=1.0, lam_sign=1.0):
    W = G_j @ np.linalg.solve(M_hat_j, G_j.T)
    lam = np.linalg.solve(W, G_j @ np.linalg.solve(M_hat_j, f_hat_j) - g_sign * gamma_j
                          + p_sign * Q_j @ ydd_parent)
    return np.linalg.solve(M_hat_j, f_hat_j - lam_sign * G_j.T @ lam), lam_sign * lam


@slip("check_lubich_step2", "+gamma_j", hint="sign of gamma_j")
def _slip_step2_gamma(*args):
    return _step2(*args, g_sign=-1.0)


@slip("check_lubich_step2", "-Q_j ydd_parent", hint="the parent's term")
def _slip_step2_parent(*args):
    return _step2(*args, p_sign=-1.0)


@slip("check_lubich_step2", "the sign of lam_j", hint="sign of lam_j")
def _slip_step2_lam(*args):
    return _step2(*args, lam_sign=-1.0)


@slip("check_method_2", "an explicit inverse of D^T M D", hint="no explicit inverse")
def _slip_method2_inverse(M, E, D):
    return E - D @ np.linalg.inv(D.T @ M @ D) @ (D.T @ M @ E), D


@slip("check_method_2", "+(D^T M D)^-1 D^T M E", hint="sign of A~")
def _slip_method2_sign(M, E, D):
    return E + D @ np.linalg.solve(D.T @ M @ D, D.T @ M @ E), D
