"""Questions and checkers of the book's ``kane`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-kane-count``: the eight-body tree of the notes with body 1 free, revolute joints for the
links on the box (bodies 2, 4, 6, 7) and spherical joints for the links on links (3, 5, 8);
the answer is (kept speeds, unknowns of D&G eq. (7)), counted from the
:class:`~rfda_teach.system.System` of the same bodies and joints (the chapter's
``pinned_system``): kept speeds = speeds - constraint rows, unknowns = speeds + rows.

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-kane-count", None).passed
check_question ex-kane-count: not answered yet (write your answer above and run this cell again)
False
"""

from __future__ import annotations

import numpy as np

from .checking import N_CASES, SEED, Case, CheckResult, options, run_cases
from .questions import question
from .slips import slip

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def _jointed_eight_body(revolute=(1, 3, 5, 6)):
    """The eight-body tree in absolute coordinates with body 1 free, body K + 1 revolute
    (about its own 3-axis) for K in ``revolute``, spherical otherwise; O_K at Q_K."""
    from .. import kane
    from ..joints import Joint
    from ..system import System

    sys8 = kane.eight_body()
    N = sys8.N
    x = sys8.x0.copy()
    x[4 * N + 3:] = 0.0                          # O_K at Q_K for K = 2..8
    free, _ = kane.to_absolute(sys8, x, np.zeros(6 * N))
    joints = [Joint("free")]
    for K in range(1, N):
        J = sys8.L[K] - 1
        pp, cp = sys8.q[K] - sys8.r[J], -sys8.r[K]
        if K in revolute:
            frame = kane.relative_rotation(x[4 * K:4 * K + 4]).T
            joints.append(Joint("revolute", parent_point=pp, child_point=cp, parent_frame=frame))
        else:
            joints.append(Joint("spherical", parent_point=pp, child_point=cp))
    return System(free.parents, free.bodies, tuple(joints), free.gravity)


@question("ex-kane-count",
          hint="(a) a joint keeps as many speeds as the motions it allows; "
               "(b) count accelerations and multipliers",
          slips=[(lambda ref: (ref[0], (ref[0] + ref[1]) // 2),
                  "(b) eq. (7) solves for the multipliers too, not only for the accelerations"),
                 (lambda ref: (ref[0] - 6, ref[1]),
                  "(a) body 1 is free: it keeps all six of its speeds"),
                 (lambda ref: (ref[0], (ref[0] + ref[1]) // 2 + ref[0]),
                  "(b) a joint adds one multiplier per constraint row, i.e. per motion it "
                  "forbids, not per motion it allows")])
def _ex_kane_count():
    mixed = _jointed_eight_body()
    return (mixed.n_vel - mixed.n_constraints, mixed.n_vel + mixed.n_constraints)


# ----------------------------------------------------------------------------- ex-kane-A: [A] of Kane eq. (40)

def _random_kane_state(sys8, rng: np.random.Generator):
    """A random state of the eight-body tree: unit relative Euler parameters, offsets, speeds."""
    N = sys8.N
    eps = rng.normal(size=(N, 4))
    eps /= np.linalg.norm(eps, axis=1, keepdims=True)
    s = 0.1 * rng.normal(size=(N, 3))
    x = np.concatenate([eps.ravel(), s.ravel()])
    y = rng.normal(size=6 * N)
    return x, y


def _dense(blocks: dict, N: int) -> np.ndarray:
    out = np.zeros((3, 6 * N))
    for b, B in blocks.items():
        out[:, 3 * b:3 * b + 3] = B
    return out


def _mass_matrix_case(rng: np.random.Generator, i: int):
    from .. import kane

    sys8 = kane.eight_body()
    N = sys8.N
    x, y = (sys8.x0, sys8.y0) if i == 0 else _random_kane_state(sys8, rng)
    kin = kane.kinematics(sys8, x, y)
    VG = [_dense(kin.VG[k], N) for k in range(N)]
    W = [_dense(kin.W[k], N) for k in range(N)]
    masses, inertias = [float(m) for m in sys8.mass], [np.array(I, float) for I in sys8.inertia]
    A = kane.mass_matrix_and_forcing(sys8, x, y)[0]
    trans = sum(m * V.T @ V for m, V in zip(masses, VG))
    rot = sum(Wk.T @ I @ Wk for I, Wk in zip(inertias, W))
    wrong = ((rot, "the translational term m_K [v'_G,y]^T [v'_G,y] of eq. (40) is missing"),
             (trans, "the rotational term [omega'_y]^T [I'] [omega'_y] of eq. (40) is missing"),
             (trans + sum(m * Wk.T @ I @ Wk for m, I, Wk in zip(masses, inertias, W)),
              "the mass m_K multiplies the translational term only; the rotational term carries "
              "the inertia [I'_G] alone"),
             (trans + sum(Wk.T @ (np.trace(I) * np.eye(3) - I) @ Wk for I, Wk in zip(inertias, W)),
              "use the central inertia matrix [I'_G] itself (not tr(I) 1 - I)"))
    what = "the notes' initial state" if i == 0 else "a random state"
    return Case((masses, inertias, VG, W), f"the eight-body tree at {what}: 8 masses, 8 3x3 inertias, "
                "8 3x48 partial velocities and 8 3x48 partial angular velocities", A, wrong)


def check_kane_mass_matrix(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(masses, inertias, VG, W) -> A``, the generalized mass matrix of Kane eq. (40)
    of the Kane notes, from each body's mass ``masses[K]``, central inertia ``inertias[K]`` (3x3,
    body axes), partial velocities of its mass centre ``VG[K]`` and partial angular velocities
    ``W[K]`` (both 3 x 6N, body-K components, as dense matrices).

    Reference: :func:`rfda_teach.kane.mass_matrix_and_forcing` on the eight-body tree at its
    initial state and at random states.

    Examples
    --------
    >>> import numpy as np
    >>> def stub(masses, inertias, VG, W):
    ...     raise NotImplementedError
    >>> check_kane_mass_matrix(stub).passed
    check_kane_mass_matrix: not implemented yet (fill in the function and run this cell again)
    False
    >>> r = check_kane_mass_matrix(lambda m, I, V, W: sum(Wk.T @ Ik @ Wk for Ik, Wk in zip(I, W)))
    check_kane_mass_matrix: not yet, case 1 of 40 (the eight-body tree at the notes' initial state: 8 masses, 8 3x3 inertias, 8 3x48 partial velocities and 8 3x48 partial angular velocities): the translational term m_K [v'_G,y]^T [v'_G,y] of eq. (40) is missing
    """
    name = "check_kane_mass_matrix"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    rng = np.random.default_rng(seed)
    return run_cases(name, student_fn, [_mass_matrix_case(rng, i) for i in range(n_cases)])


__all__ += ["check_kane_mass_matrix"]
CHECKERS["kane_mass_matrix"] = check_kane_mass_matrix


@slip("check_kane_mass_matrix", "the rotational term left out", hint="rotational term")
def _slip_no_rotation(masses, inertias, VG, W):
    return sum(m * V.T @ V for m, V in zip(masses, VG))


@slip("check_kane_mass_matrix", "the mass multiplied into the rotational term", hint="mass m_K multiplies")
def _slip_mass_in_rotation(masses, inertias, VG, W):
    return sum(m * (V.T @ V + Wk.T @ I @ Wk) for m, I, V, Wk in zip(masses, inertias, VG, W))


@slip("check_kane_mass_matrix", "V V^T instead of V^T V", hint="shape")
def _slip_outer(masses, inertias, VG, W):
    return sum(m * V @ V.T + Wk @ Wk.T for m, V, Wk in zip(masses, VG, W))
