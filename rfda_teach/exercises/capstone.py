"""Questions and checkers of the book's ``capstone`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

``ex-cap-rows``: the spatial five-bar with arm (:func:`rfda_teach.compare.five_bar_arm`, kind
"spatial") closed by a full spatial prismatic cut joint instead of its two-row custom cut; the
answer is how many of that joint's five rows depend on the rest of D&G eq. (7) (the tree's rows
and the other cut rows): five rows less the rank they add to the constraint Jacobian.

* ``check_cut_multipliers(student_fn)`` (exercise ``ex-cap-impl``): the last step of the
  loop-multiplier technique, (C Y) mu = gamma - C a_0 and ydd = a_0 + Y mu; reference:
  :func:`rfda_teach.compare.multiplier_accelerations` on closed mechanisms of the package.

>>> from rfda_teach.exercises.questions import check_question
>>> check_question("ex-cap-rows", None).passed
check_question ex-cap-rows: not answered yet (write your answer above and run this cell again)
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


# ----------------------------------------------------------------------------- ex-cap-rows

def _redundant_rows() -> int:
    """Rows of a full spatial prismatic cut of the spatial five-bar that depend on the others."""
    from .. import compare, dae
    from ..joints import Joint
    from ..system import Cut, System, terms

    s = compare.five_bar_arm("spatial")
    c = s.cuts[0].joint
    x_to_z = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])   # the slide along the guide
    full = Joint("prismatic", parent_point=c.parent_point, child_point=c.child_point,
                 parent_frame=c.parent_frame @ x_to_z, child_frame=c.child_frame @ x_to_z)
    tree = System(s.parents, s.bodies, s.joints, s.gravity)
    closed = System(s.parents, s.bodies, s.joints, s.gravity, cuts=(Cut(3, -1, full),))
    state = compare.five_bar_arm_state(s, seed=0)
    K, _ = dae.assemble(tree, state)
    C_tree = K[tree.n_vel:, :tree.n_vel]
    C_all = np.vstack([C_tree, dae.cut_rows(closed, terms(closed, state, check=False))[0]])
    added = np.linalg.matrix_rank(C_all) - np.linalg.matrix_rank(C_tree)
    return int(full.n_constraints - added)


@question("ex-cap-rows",
          hint="a row is redundant when the tree's parallel axes already keep what it asks for",
          slips=[(lambda ref: 5 - ref, "that is the number of rows the cut must keep; the question asks "
                                       "for the rows that repeat the tree"),
                 (lambda ref: 5, "not every row of the slider repeats the tree: the loop would not be closed")])
def _ex_cap_rows():
    return _redundant_rows()


# ----------------------------------------------------------------------------- ex-cap-impl

def _final_step(C, gamma, a0, Y, *, rhs_sign=1.0, y_sign=1.0, schur="CY", free=True):
    """(mu, ydd) of the multiplier technique's last step, with one thing altered (for the slips)."""
    S = C @ Y if schur == "CY" else C @ C.T
    mu = np.linalg.solve(S, gamma - rhs_sign * (C @ a0))
    return mu, (a0 if free else 0.0) + y_sign * (Y @ mu)


def _closed_mechanisms(seed: int):
    """(label, system, state) of closed mechanisms, with random states, in turn (no end)."""
    from .. import compare, loopref, loops, rcr
    rng = np.random.default_rng(seed)
    fours = loops.four_bar()
    k = 0
    while True:
        which = k % 3
        if which < 2:
            kind = ("planar", "spatial")[which]
            s = compare.five_bar_arm(kind, mass_ratio=float(10.0 ** rng.integers(0, 4)))
            yield f"five-bar with arm ({kind})", s, compare.five_bar_arm_state(s, int(rng.integers(1 << 30)))
        else:
            q = rcr.solve_dependents(fours, fours.q0 + np.r_[rng.uniform(-0.3, 0.3), 0.0, 0.0, 0.0])
            qd = rcr.dependent_velocities(fours, q, rng.normal(size=4))
            yield "four-bar (planar)", loopref.to_system(fours), loopref.chain_state(fours, q, qd)
        k += 1


def _multiplier_cases(n_cases: int, seed: int) -> list:
    from .. import compare
    cases = []
    mechanisms = _closed_mechanisms(seed)
    for _ in range(n_cases):
        label, s, state = next(mechanisms)
        C, gamma, a0, Y = compare.multiplier_terms(s, state)
        args = (C, gamma, a0, Y)
        ref = _final_step(*args)
        wrong = ((_final_step(*args, rhs_sign=-1.0),
                  "the right-hand side is what the free motion leaves undone: gamma - C a_0, "
                  "not gamma + C a_0"),
                 (_final_step(*args, y_sign=-1.0),
                  "the cut forces C^T mu act on the tree like applied forces: ydd = a_0 + Y mu, "
                  "with the sign of Y mu that (C Y) mu = gamma - C a_0 assumes"),
                 (_final_step(*args, schur="CC"),
                  "the small matrix is C Y = C M^-1 C^T, the cut rows seen through the tree's "
                  "response, not C C^T"),
                 (_final_step(*args, free=False),
                  "ydd is the tree's free motion a_0 plus the response to the cut forces"))
        m, N = C.shape
        cases.append(Case(args, f"{label}: C {m}x{N}, gamma ({m},), a0 ({N},), Y {N}x{m}", ref, wrong))
    return cases


def check_cut_multipliers(student_fn, *, n_cases: int = N_CASES, seed: int = SEED) -> CheckResult:
    """Check ``student_fn(C, gamma, a0, Y) -> (mu, ydd)``: the cut multipliers mu of the loop-multiplier
    technique, from (C Y) mu = gamma - C a_0, and the accelerations ydd = a_0 + Y mu, given the
    cut rows ``C`` (m x N), their right-hand side ``gamma`` (m), the tree's free accelerations ``a0``
    (N) and its responses ``Y`` (N x m) to the unit forces C_i^T.

    Reference: :func:`rfda_teach.compare.multiplier_terms` and the last step of
    :func:`rfda_teach.compare.multiplier_accelerations`, on the planar and the spatial five-bar with arm
    (random light links and states) and a planar four-bar.

    Examples
    --------
    >>> def stub(C, gamma, a0, Y):
    ...     raise NotImplementedError
    >>> check_cut_multipliers(stub).passed
    check_cut_multipliers: not implemented yet (fill in the function and run this cell again)
    False
    >>> check_cut_multipliers(_slip_plus_free, n_cases=3).passed  # doctest: +ELLIPSIS
    check_cut_multipliers: not yet, case 1 of 3 (five-bar with arm (planar): C 2x18, ...): the right-hand side ...
    False
    """
    name = "check_cut_multipliers"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    return run_cases(name, student_fn, _multiplier_cases(n_cases, seed))


__all__ += ["check_cut_multipliers"]
CHECKERS["cut_multipliers"] = check_cut_multipliers


@slip("check_cut_multipliers", "gamma + C a_0", hint="gamma - C a_0")
def _slip_plus_free(C, gamma, a0, Y):
    return _final_step(C, gamma, a0, Y, rhs_sign=-1.0)


@slip("check_cut_multipliers", "ydd = a_0 - Y mu", hint="a_0 + Y mu")
def _slip_minus_response(C, gamma, a0, Y):
    return _final_step(C, gamma, a0, Y, y_sign=-1.0)


@slip("check_cut_multipliers", "C C^T for the Schur complement", hint="not C C^T")
def _slip_cct(C, gamma, a0, Y):
    return _final_step(C, gamma, a0, Y, schur="CC")


@slip("check_cut_multipliers", "the free motion left out of ydd", hint="free motion a_0")
def _slip_no_free(C, gamma, a0, Y):
    return _final_step(C, gamma, a0, Y, free=False)
