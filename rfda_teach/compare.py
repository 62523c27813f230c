"""One mechanism, every formulation: a registry of the book's forward-dynamics formulations run
on one :class:`~rfda_teach.system.System` and compared (the capstone chapter).

Every formulation is a plain function ``(system, state) -> ydd``, the System's absolute
accelerations in the layout of :func:`rfda_teach.dae.forward_dynamics`, with its name, its paper
and equations, what it applies to (a tree or a system with cut joints; planar or spatial bodies)
and what it asks of the modeller (:class:`Formulation`, :data:`FORMULATIONS`).

* D&G eq. (7) solved densely (:mod:`rfda_teach.dae`), the reference, with the cut joints' rows;
* the RFDA in the Lubich form, D&G eq. (9)-(10), and in the Featherstone / Bae-Haug form,
  D&G eq. (11)-(12) (:mod:`rfda_teach.rfda`, trees);
* CRBA + RNEA + Cholesky in joint coordinates (:mod:`rfda_teach.jointspace`, trees), the joint
  accelerations mapped to ydd by D&G eq. (61) differentiated;
* the loop-multiplier technique (:func:`multiplier_accelerations`): the RFDA of the spanning tree
  for the free motion and for the response to each cut row, then the small Schur system for the
  cut multipliers;
* Pinocchio's ABA (:func:`rfda_teach.interop.to_pinocchio`) and MuJoCo
  (:func:`rfda_teach.interop.to_mjcf`) on spatial trees of revolute and prismatic joints, when
  installed;
* Kane's equations (:mod:`rfda_teach.kane`), the reference-point recursion at its three points
  (:mod:`rfda_teach.refpoint`) and RCR with ACS or GCL on the planar loop (:mod:`rfda_teach.rcr`),
  registered when those modules offer ``system_accelerations``.

The one mechanism of the capstone chapter is :func:`five_bar_arm` (the five-bar of C&A §6 carrying a
two-link arm; planar or spatial, closed or cut open), with :func:`five_bar_arm_state`.  It lives here,
not in :mod:`rfda_teach.models`, because it is built from :func:`rfda_teach.loops.five_bar`, and
:mod:`rfda_teach.loops` imports :mod:`rfda_teach.models`.

:func:`run` runs every formulation that applies and returns a :class:`Comparison` (plain data,
shown as a table in a notebook): the largest relative difference of its ydd to D&G eq. (7), and
its counted multiplications where the formulation counts them.  :func:`timings` measures time per
call (never asserted).  :func:`reference_accelerations` solves the float64 data of D&G eq. (7)
in 50-digit :mod:`mpmath` arithmetic, and :func:`mass_ratio_sweep` measures every formulation's
error against it as a light link gets lighter (:func:`five_bar_arm`).

Examples
--------
>>> from rfda_teach import compare
>>> closed = compare.five_bar_arm()
>>> table = compare.run(closed, compare.five_bar_arm_state(closed, seed=0))
>>> "multipliers" in table.names and "lubich" not in table.names      # the recursions need a tree
True
>>> bool(max(table.difference) < 1e-9)
True
"""

from __future__ import annotations

import time
import warnings
from functools import lru_cache
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from . import _check, count as _count, dae, interop, jointspace, kane, loops, models, rcr, refpoint, rfda
from . import system as _s
from .bodies import Body, rotation
from .errors import ConstraintRankError, ModelError, RFDAError, RFDAWarning
from .summary import html_table
from .joints import Joint
from .spatial import G0, elementary_rotation
from .system import Cut, State, System

__all__ = ["Formulation", "FORMULATIONS", "Comparison", "SweepResult", "applicable", "refusal", "accelerations",
           "count_multiplications", "run", "timings", "relative_difference", "reference_accelerations",
           "mass_ratio_sweep", "multiplier_accelerations", "five_bar_arm_state", "joint_coordinates",
           "pinocchio_accelerations", "mujoco_accelerations", "MultiplierTerms", "multiplier_terms", "five_bar_arm"]


# ----------------------------------------------------------------------------- the registry

@dataclass(frozen=True)
class Formulation:
    """One forward-dynamics formulation: ``run(system, state) -> ydd`` and what it is.

    ``structure`` is a tuple of "tree" and/or "closed" (a System with cut joints), ``kinds`` a
    tuple of body kinds it takes; ``refuse(system)`` returns why it cannot take a system (a
    sentence) or "" when it can, on top of ``structure`` and ``kinds``; ``count(system, state)``
    returns its scalar multiplications or is None ("not counted").  ``asks`` says what the
    modeller must write for it; ``paper`` names the paper and equations.

    Examples
    --------
    >>> FORMULATIONS["featherstone"].paper
    'Deepak & Ghosal (2008), eq. (11)-(12)'
    """

    name: str
    title: str
    paper: str
    structure: tuple
    kinds: tuple
    asks: str
    run: Callable
    count: Callable | None = None
    refuse: Callable | None = None
    view: bool = False


def _tree_terms(system, state):
    return _s.terms(system, state)


def _eq7(system, state):
    return dae.forward_dynamics(system, state).ydd


def _rfda(form):
    def run(system, state):
        return rfda.forward_dynamics(system, state, form=form).ydd
    return run


def _jointspace(system, state):
    tr = _s.terms(system, state)
    return jointspace.absolute_accelerations(system, tr, jointspace.solve(system, tr).qdd)


def _js_count(method):
    def count(system, state):
        return jointspace.count_multiplications(system, method, state=state)
    return count


def _multiplier_count(system, state):
    t = _count.Tally()
    multiplier_accelerations(system, state, tally=t)
    return t.total


def _axis_joints(system):
    """'' if every joint is a revolute or prismatic joint numbered after its parent, else why not."""
    for k, (jt, j) in enumerate(zip(system.joints, system.parents)):
        if jt.type not in ("revolute", "prismatic", "revolute2d", "prismatic2d"):
            return f"joint {k} is a {jt.type} joint; it takes revolute and prismatic joints only"
        if j >= k:
            return f"body {k} is numbered before its parent {j}"
    return ""


def _mujoco_refuse(system):
    try:
        import mujoco  # noqa: F401
    except ImportError:                                      # pragma: no cover - depends on the extra
        return "MuJoCo is not installed (pip install mujoco)"
    return _axis_joints(system)


_ALL_KINDS = ("point2", "planar", "spatial")
_EQ7_ASKS = "bodies, joints and cut joints as constraint rows; nothing else (O(n^3) dense solve)"
_TREE_ASKS = "a tree: cut every loop; joints whose [G_k; G_kd] is invertible (Appendix A)"

#: every formulation of the book, by name (:func:`run` runs those that apply, in this order)
FORMULATIONS = {
    "eq7": Formulation("eq7", "D&G eq. (7), dense", "Deepak & Ghosal (2008), eq. (7)", ("tree", "closed"),
                       _ALL_KINDS, _EQ7_ASKS, _eq7),
    "lubich": Formulation("lubich", "RFDA, Lubich form", "Deepak & Ghosal (2008), eq. (9)-(10)", ("tree",),
                          _ALL_KINDS, _TREE_ASKS, _rfda("lubich"), _js_count("lubich")),
    "featherstone": Formulation("featherstone", "RFDA, Featherstone / Bae-Haug form",
                                "Deepak & Ghosal (2008), eq. (11)-(12)", ("tree",), _ALL_KINDS,
                                _TREE_ASKS, _rfda("featherstone"), _js_count("featherstone")),
    "crba": Formulation("crba", "CRBA + RNEA + Cholesky", "Deepak & Ghosal (2008), eq. (60)-(61); Featherstone "
                        "(2008) ch. 6", ("tree",), _ALL_KINDS,
                        "a tree in joint coordinates q (one per joint speed); O(n^3) in the worst case",
                        _jointspace, _js_count("joint_space_fd")),
    "multipliers": Formulation(
        "multipliers", "loop multipliers on the RFDA", "Deepak & Ghosal (2008), eq. (7), (11)-(12); "
        "Featherstone (2008) ch. 8", ("closed",), _ALL_KINDS,
        "a spanning tree and cut joints whose rows are independent (no redundant rows of a planar loop)",
        lambda system, state: multiplier_accelerations(system, state), _multiplier_count),
    "pinocchio": Formulation(
        "pinocchio", "Pinocchio ABA", "Featherstone (2008) ch. 7 (Carpentier et al. 2019)", ("tree",),
        ("spatial",), "a spatial tree in joint coordinates (URDF-like joint placements); revolute and "
        "prismatic joints here", lambda system, state: pinocchio_accelerations(system, state),
        None, _axis_joints),
    "mujoco": Formulation(
        "mujoco", "MuJoCo", "Todorov et al. (2012)", ("tree",), ("spatial",),
        "an MJCF tree (bodies nested in joint order); hinges and slides here",
        lambda system, state: mujoco_accelerations(system, state), None, _mujoco_refuse),
}


def _view_count(module, **option):
    """A count function for a view module with ``from_system`` and ``count_multiplications(record,
    ...)``: refpoint's count takes the point as its second argument, rcr's the method as a keyword."""
    def count(system, state):
        try:
            record = module.from_system(system)
            if "point" in option:
                return module.count_multiplications(record, option["point"])
            return module.count_multiplications(record, **option)
        except (RFDAError, TypeError, ValueError):      # a view whose record or count takes other arguments
            return None
    return count


def _view_refusal(module) -> Callable:
    """``refuse(system)`` of a view: the ModelError message of ``module.from_system(system)`` (the
    paper's own vocabulary decides what it takes), "" when the record can be built."""
    def refuse(system):
        try:
            module.from_system(system)
        except RFDAError as err:
            return str(err)
        return ""
    return refuse


def _register_views():
    """Register the formulations of the other papers' views of the one model: Kane's equations, the
    reference-point recursion at its three points, RCR with ACS and GCL.  Each refuses what its
    ``from_system`` refuses (e.g. K&Y's recursion a prismatic joint, RCR a body off the loop)."""
    FORMULATIONS["kane"] = Formulation(
        "kane", "Kane, relative Euler parameters", "Kane's notes, eq. (1)-(44)", ("tree",),
        ("planar", "spatial"), "a tree of rotating bodies; relative Euler parameters, the speeds each "
        "joint leaves free (partial velocities)",
        lambda system, state: kane.system_accelerations(system, state), refuse=_view_refusal(kane), view=True)
    for point in ("centroid", "joint", "origin"):
        FORMULATIONS[f"refpoint {point}"] = Formulation(
            f"refpoint {point}", f"reference point at the {point}", "Kang & Yoon (2003)",
            ("tree", "closed"), ("spatial",),
            "a spatial tree of revolute, universal and spherical joints about joint points, cut joints "
            "of basic constraints (K&Y Tables 1-4)",
            (lambda p: lambda system, state: refpoint.system_accelerations(system, state, point=p))(point),
            _view_count(refpoint, point=point), _view_refusal(refpoint), view=True)
    for method in ("acs", "gcl"):
        FORMULATIONS[f"rcr {method}"] = Formulation(
            f"rcr {method}", f"RCR, {method.upper()}", "Critchley & Anderson, §4" if method == "acs" else
            "Critchley & Anderson, §5", ("closed",), ("planar",),
            "one planar loop of one-dof joints; a choice of independent coordinates (ACS) or a re-rooted "
            "tree (GCL)",
            (lambda m: lambda system, state: rcr.system_accelerations(system, state, method=m))(method),
            _view_count(rcr, method=method), _view_refusal(rcr), view=True)


_register_views()


def refusal(name: str, system: System) -> str:
    """Why formulation ``name`` cannot take ``system`` (a sentence), or "" when it can.

    Examples
    --------
    >>> from rfda_teach import models
    >>> refusal("lubich", five_bar_arm())
    'lubich needs a tree; five-bar with arm (planar) has cut joints: cut=False, or use eq7 or multipliers'
    >>> refusal("eq7", five_bar_arm())
    ''
    """
    f = _formulation(name, "compare.refusal")
    system = _check.instance(system, System, "system", where="compare.refusal",
                             hint="build one with rfda_teach.models or compare.five_bar_arm()")
    structure = "closed" if system.cuts else "tree"
    if structure not in f.structure:
        if structure == "closed":
            return (f"{name} needs a tree; {system.name} has cut joints: cut=False, or use eq7 or "
                    "multipliers")
        return f"{name} needs cut joints (a closed loop); {system.name} is a tree: use eq7 or a recursion"
    if system.kind not in f.kinds:
        return f"{name} takes {' or '.join(f.kinds)} bodies; {system.name} has {system.kind} bodies"
    if system.forces and name in ("pinocchio", "mujoco"):
        return f"{name}: the export holds no force elements"
    why = f.refuse(system) if f.refuse is not None else ""
    return f"{name}: {why}" if why else ""


def applicable(system: System) -> list:
    """The names of the formulations that take ``system``, in :data:`FORMULATIONS` order.

    Examples
    --------
    >>> from rfda_teach import models
    >>> applicable(five_bar_arm("planar", cut=False))
    ['eq7', 'lubich', 'featherstone', 'crba', 'kane']
    """
    return [n for n in FORMULATIONS if not refusal(n, system)]


def _formulation(name, where) -> Formulation:
    if not isinstance(name, str) or name not in FORMULATIONS:
        raise ModelError(f"{where}: unknown formulation {name!r}; use one of {list(FORMULATIONS)}")
    return FORMULATIONS[name]


def accelerations(name: str, system: System, state) -> np.ndarray:
    """ydd of ``system`` at ``state`` by formulation ``name`` (see :data:`FORMULATIONS`).

    A formulation that cannot take the system raises :class:`~rfda_teach.errors.ModelError` saying
    why and what to use instead.

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = models.chain(3); st = models.random_state(s, seed=1)
    >>> bool(np.allclose(accelerations("crba", s, st), accelerations("eq7", s, st)))
    True
    >>> accelerations("crba", five_bar_arm(), None)
    Traceback (most recent call last):
    ...
    rfda_teach.errors.ModelError: compare.accelerations: crba needs a tree; five-bar with arm (planar) has cut joints: cut=False, or use eq7 or multipliers
    """
    f = _formulation(name, "compare.accelerations")
    why = refusal(name, system)
    if why:
        raise ModelError(f"compare.accelerations: {why}")
    return np.asarray(f.run(system, state), float)


def count_multiplications(name: str, system: System, state=None):
    """Scalar multiplications of one evaluation by formulation ``name``, counted as it runs
    (:mod:`rfda_teach.count`), or None for a formulation that does not count them (D&G eq. (7)'s dense
    LAPACK solve, Pinocchio, MuJoCo, Kane's view); the reference-point and RCR views count with
    their modules' ``count_multiplications`` on the record ``from_system`` builds.

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = models.chain(8)
    >>> count_multiplications("lubich", s) < count_multiplications("crba", s), count_multiplications("eq7", s)
    (True, None)
    """
    f = _formulation(name, "compare.count_multiplications")
    why = refusal(name, system)
    if why:
        raise ModelError(f"compare.count_multiplications: {why}")
    if f.count is None:
        return None
    if state is None:
        if system.cuts:
            raise ModelError("compare.count_multiplications: a system with cut joints needs a state that closes "
                             "its loops (e.g. compare.five_bar_arm_state)")
        state = models.state_from_joints(system, jointspace.split_q(system, jointspace.neutral_q(system)),
                                         [np.zeros(jt.n_dof) for jt in system.joints])
    c = f.count(system, state)
    return None if c is None else int(c)


# ----------------------------------------------------------------------------- one table

def relative_difference(a, b) -> float:
    """max |a - b| / max |b| (max |a - b| when b = 0): how far ydd ``a`` is from the reference ``b``.

    Examples
    --------
    >>> relative_difference([1.0, 2.0 + 2e-12], [1.0, 2.0]) < 1.1e-12
    True
    """
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    if a.shape != b.shape:
        raise ModelError(f"compare.relative_difference: shapes {a.shape} and {b.shape} differ; compare the ydd "
                         "of one system")
    scale = float(np.abs(b).max()) if b.size else 0.0
    d = float(np.abs(a - b).max()) if a.size else 0.0
    return d / scale if scale > 0 else d


class Comparison(NamedTuple):
    """The result of :func:`run`: per formulation (``names``, ``titles``) its ydd (``ydd``), the
    relative difference to D&G eq. (7) (``difference``) and its multiplications (``counts``, None:
    not counted); ``refused`` maps the other formulations to why they do not apply."""

    system_name: str
    names: tuple
    titles: tuple
    ydd: tuple
    difference: tuple
    counts: tuple
    refused: dict

    def rows(self) -> list:
        """(name, title, relative difference, multiplications or "not counted") per formulation.

        Examples
        --------
        >>> from rfda_teach import models
        >>> s = models.chain(2); c = run(s, models.random_state(s, seed=0))
        >>> c.rows()[0][:2]
        ('eq7', 'D&G eq. (7), dense')
        """
        return [(n, t, f"{d:.1e}", "not counted" if c is None else c)
                for n, t, d, c in zip(self.names, self.titles, self.difference, self.counts)]

    def __repr__(self) -> str:
        """One line per formulation.

        Examples
        --------
        >>> from rfda_teach import models
        >>> s = models.chain(2); print(repr(run(s, models.random_state(s, seed=0))).splitlines()[1])
          eq7                 0.0e+00  not counted
        """
        head = f"Comparison on {self.system_name!r}: {len(self.names)} formulations ({len(self.refused)} refused)"
        return "\n".join([head] + [f"  {n:<18} {d:>8}  {c}" for n, _, d, c in self.rows()])

    def _repr_html_(self) -> str:
        return html_table(repr(self).splitlines()[0], ("formulation", "what", "max rel. difference to eq. (7)",
                                                        "multiplications"), self.rows(),
                          "ydd of every formulation against D&G eq. (7)")


def run(system: System, state, *, names=None) -> Comparison:
    """Every applicable formulation (or those in ``names``) on one system and state, against D&G eq. (7).

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = five_bar_arm("planar", cut=False)
    >>> c = run(s, five_bar_arm_state(s, seed=1))
    >>> c.names, bool(max(c.difference) < 1e-12)
    (('eq7', 'lubich', 'featherstone', 'crba', 'kane'), True)
    """
    where = "compare.run"
    system = _check.instance(system, System, "system", where=where,
                             hint="build one with rfda_teach.models or compare.five_bar_arm()")
    state = _s.check_state(system, state)
    if names is None:
        names = applicable(system)
    else:
        names = [_formulation(n, where).name for n in names]
    ref = _eq7(system, state)
    out, refused = [], {n: refusal(n, system) for n in FORMULATIONS if n not in names}
    for n in names:
        try:
            ydd = accelerations(n, system, state)
        except RFDAError as err:
            if not FORMULATIONS[n].view:
                raise
            refused[n] = f"{n}: {err}"                    # a view's own refusal (e.g. RCR: one loop only)
            continue
        try:
            c = count_multiplications(n, system, state)
        except RFDAError:
            c = None
        out.append((n, FORMULATIONS[n].title, ydd, relative_difference(ydd, ref), c))
    return Comparison(system.name, *map(tuple, zip(*out)), refused) if out else \
        Comparison(system.name, (), (), (), (), (), refused)


def timings(system: System, state, *, names=None, repeat: int = 5, number: int = 0) -> dict:
    """Seconds per call of every applicable formulation (best of ``repeat``; ``number`` calls per
    repeat, 0: enough for about 20 ms).  Wall-clock numbers: shown, never asserted.

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = models.chain(3); t = timings(s, models.random_state(s, seed=0), repeat=1, number=1)
    >>> sorted(t) == sorted(applicable(s)), all(v > 0 for v in t.values())
    (True, True)
    """
    where = "compare.timings"
    repeat = _check.positive_int(repeat, "repeat", where=where)
    number = _check.positive_int(number, "number", where=where, minimum=0)
    given = names is not None
    names = applicable(system) if names is None else [_formulation(n, where).name for n in names]
    out = {}
    for n in names:
        try:
            accelerations(n, system, state)                 # refusals and first-call costs out of the timing
        except RFDAError:
            if given or not FORMULATIONS[n].view:
                raise
            continue
        k = number
        if k == 0:
            t0 = time.perf_counter()
            accelerations(n, system, state)
            k = max(1, int(0.02 / max(time.perf_counter() - t0, 1e-6)))
        best = np.inf
        for _ in range(repeat):
            t0 = time.perf_counter()
            for _ in range(k):
                accelerations(n, system, state)
            best = min(best, (time.perf_counter() - t0) / k)
        out[n] = best
    return out


# ----------------------------------------------------------------------------- the loop-multiplier technique

class MultiplierTerms(NamedTuple):
    """What the loop-multiplier technique needs (:func:`multiplier_terms`): the cut rows ``C`` and
    ``gamma`` (C ydd = gamma), the tree's free accelerations ``a0`` and its responses ``Y`` (one
    column per cut row) to the unit generalized forces C_i^T."""

    C: np.ndarray
    gamma: np.ndarray
    a0: np.ndarray
    Y: np.ndarray


def multiplier_terms(system: System, state, *, form: str = "featherstone", tally=None) -> MultiplierTerms:
    """The tree solves of the loop-multiplier technique: a_0 and Y of :func:`multiplier_accelerations`.

    a_0 is the spanning tree's ydd (the system without its cuts; the RFDA in ``form``, by default
    D&G eq. (11)-(12)); column i of Y is the tree's ydd under the generalized force C_i^T alone
    (no gravity, no velocity terms, no joint gamma): one more RFDA solve per cut row.

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = five_bar_arm(); t = multiplier_terms(s, five_bar_arm_state(s, seed=0))
    >>> t.C.shape, t.Y.shape                        # the cut's 2 rows; 6 bodies x 3 speeds
    ((2, 18), (18, 2))
    >>> bool(np.allclose(t.C @ t.Y, (t.C @ t.Y).T))  # C P C^T is symmetric
    True
    """
    where = "compare.multiplier_terms"
    system = _check.instance(system, System, "system", where=where,
                             hint="a System with cut joints, e.g. compare.five_bar_arm()")
    form = _check.choice(form, rfda.FORMS, "form", where=where)
    tally = _count.check(tally, where=where)
    trx = _s.terms(system, state)
    tree = System(system.parents, system.bodies, system.joints, system.gravity, name=system.name,
                  forces=system.forces)
    tr = trx._replace(cut=())
    C, g = dae.cut_rows(system, trx)
    a0 = rfda.solve(tree, tr, form, tally=tally).ydd               # the free motion of the tree
    zero = [jt._replace(gamma=np.zeros_like(jt.gamma), gamma_d=np.zeros_like(jt.gamma_d)) for jt in tr.joint]
    Y = np.empty((system.n_vel, C.shape[0]))
    for i, c in enumerate(C):                                      # response to the unit force C_i^T
        Y[:, i] = rfda.solve(tree, _s.Terms(tr.M, [c[vs] for vs in system.vel_slices], zero), form,
                             tally=tally).ydd
    return MultiplierTerms(C, g, a0, Y)


def multiplier_accelerations(system: System, state, *, form: str = "featherstone", tally=None) -> np.ndarray:
    """ydd of a System with cut joints by the loop-multiplier technique on the RFDA of its spanning tree.

    D&G eq. (7) with the cut rows C ydd = gamma_x and their forces C^T mu on the bodies splits, by
    linearity of the tree's forward dynamics in the applied forces, into

        ydd = a_0 + Y mu,   (C Y) mu = gamma_x - C a_0,

    where a_0 is the tree's ydd (the RFDA, D&G eq. (11)-(12) in the default ``form``) and column i of
    Y the tree's response to the unit generalized force C_i^T alone (:func:`multiplier_terms`).
    C Y = C P C^T (P the tree's constrained inverse) is minus the Schur complement of the tree block
    of D&G eq. (7), symmetric, positive definite when the rows [tree rows; C] are independent;
    mu = -lam_x.  Cost: (m + 1) tree solves, C Y (dense here: n m^2), an m x m Cholesky:
    O(n m^2 + m^3) (Featherstone 2008, ch. 8;
    :func:`rfda_teach.loopref.series_multiplier_accelerations` on loop records).  ``tally``
    (:class:`~rfda_teach.count.Tally`) counts the multiplications as they run.

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = five_bar_arm(); st = five_bar_arm_state(s, seed=2)
    >>> relative_difference(multiplier_accelerations(s, st), dae.forward_dynamics(s, st).ydd) < 1e-12
    True
    """
    where = "compare.multiplier_accelerations"
    tally = _count.check(tally, where=where)
    C, g, a0, Y = multiplier_terms(system, state, form=form, tally=tally)
    if not C.shape[0]:
        return a0
    _count.set_step(tally, "cut multipliers")
    S = _count.mm(tally, C, Y)                                     # C P C^T: minus the Schur complement
    try:
        fac = _count.chol(tally, 0.5 * (S + S.T))
    except np.linalg.LinAlgError as exc:
        raise ConstraintRankError(f"{where}: the cut joints' rows of {system.name!r} are dependent here (C Y is "
                                  "singular): redundant cut rows, as a spatial cut of a planar loop has, or a "
                                  "singular position; give independent cut rows or use dae.forward_dynamics") \
            from exc
    mu = _count.solve(tally, fac, g - _count.mm(tally, C, a0))
    return a0 + _count.mm(tally, Y, mu)


# ----------------------------------------------------------------------------- the capstone's mechanism

#: a spatial joint frame whose z axis is the planar joint frame's x axis (a slide along x in the plane)
_X_TO_Z = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def _arm_joint(kind: str, jtype: str, pp, cp, pa: float, ca: float, name: str) -> Joint:
    """One planar one-dof joint of the five-bar-with-arm as a planar or a spatial joint.

    Spatial revolute joints turn about the joint frames' z axes (all parallel to the global z),
    spatial prismatic joints slide along the joint frame's z axis, which ``_X_TO_Z`` lays along the
    planar joint frame's x axis."""
    if kind == "planar":
        return Joint(jtype + "2d", parent_point=pp, child_point=cp, parent_frame=pa, child_frame=ca, name=name)
    Rp, Rc = elementary_rotation("z", pa, check=False), elementary_rotation("z", ca, check=False)
    if jtype == "prismatic":
        Rp, Rc = Rp @ _X_TO_Z, Rc @ _X_TO_Z
    return Joint(jtype, parent_point=(*pp, 0.0), child_point=(*cp, 0.0), parent_frame=Rp, child_frame=Rc,
                 name=name)


def five_bar_arm(kind: str = "planar", *, mass_ratio: float = 1.0, cut: bool = True, arm: bool = True,
                 sleeve: bool = True, gravity: float = G0) -> System:
    """The capstone's one mechanism: the five-bar of Critchley & Anderson §6 carrying a two-link arm.

    Bodies 0-3 are bars 1-4 of :func:`rfda_teach.loops.five_bar` (thin rods, m = 1 kg, L = 1 m,
    J = 1/12 kg m^2), joined in a chain from the ground by its joints q1 (revolute at the ground
    pivot), q2, q3 (revolute) and q4 (prismatic: bar 3 telescopes in the sleeve, bar 4), with the
    paper's geometry.  The loop is closed, as in :func:`rfda_teach.loopref.to_system`, by its last
    joint q5 as a :class:`~rfda_teach.system.Cut` (the sleeve slides on a horizontal ground guide:
    a prismatic joint between body 3 and the ground).  Bodies 4 and 5 are a two-link arm hung
    from the mass centre of bar 2 (body 1) by revolute joints: links of 0.5 m, the first of mass
    ``1 / mass_ratio``, the second (a payload) of mass 1, J = m L^2 / 12: a light body between
    heavy ones, the case where the Lubich form loses digits.

    ``kind="planar"`` uses planar bodies and joints; ``kind="spatial"`` the same mechanism as a
    spatial one: revolute joints about parallel z axes, prismatic joints along the planar slide
    directions, rods with J' = diag(J / 10, J, J), gravity -g along y.  Its cut cannot be a
    spatial prismatic joint: three of that joint's five rows (no slide along z, no tilt about x
    or y) repeat what the parallel axes of the tree already enforce, and D&G eq. (7) refuses
    dependent rows.  It is a "custom" joint with only the two in-plane rows of the slider (no
    slide across the guide, no turn about z), in the guide's joint frame.  ``cut=False`` gives the
    open-tree variant (the loop cut at q5 and left open), ``arm=False`` the five-bar alone
    (for ``kind="planar"`` with ``cut=True`` the same System as ``loopref.to_system(loops.five_bar())``),
    ``sleeve=False`` (with ``cut=False``) the open tree without the sleeve and its slider q4: bars
    1-3 and the arm on revolute joints only, for a formulation that takes no prismatic joint.

    A state that closes the loop: :func:`five_bar_arm_state`.

    Examples
    --------
    >>> s = five_bar_arm()
    >>> s.n, s.n_dof - s.n_cut_constraints, s.cuts[0].joint.type
    (6, 4, 'prismatic2d')
    >>> sp = five_bar_arm("spatial", cut=False)
    >>> sp.kind, [jt.type for jt in sp.joints]
    ('spatial', ['revolute', 'revolute', 'revolute', 'prismatic', 'revolute', 'revolute'])
    """
    where = "compare.five_bar_arm"
    kind = _check.choice(kind, ("planar", "spatial"), "kind", where=where)
    mass_ratio = _check.scalar(mass_ratio, "mass_ratio", where=where, positive=True)
    cut = _check.flag(cut, "cut", where=where)
    arm = _check.flag(arm, "arm", where=where)
    sleeve = _check.flag(sleeve, "sleeve", where=where)
    if cut and not sleeve:
        raise ModelError(f"{where}: sleeve=False removes the sleeve (bar 4) that the cut joint q5 holds; "
                         "give cut=False with it (the open tree on revolute joints only)")
    gravity = _check.scalar(gravity, "gravity", where=where)
    fb = loops.five_bar(gravity=gravity)

    def body(m: float, L: float, name: str) -> Body:
        J = m * L ** 2 / 12.0
        if kind == "planar":
            return Body("planar", m, J, name=name)
        return Body("spatial", m, np.diag([J / 10.0, J, J]), name=name)

    nb = 4 if sleeve else 3
    bodies = [body(b.mass, 1.0, b.name) for b in fb.bodies[:nb]]
    joints = [_arm_joint(kind, lj.kind, lj.parent_point, lj.child_point, lj.parent_angle, lj.child_angle,
                         lj.name) for lj in fb.joints[:nb]]
    parents = [-1, 0, 1, 2][:nb]
    if arm:
        bodies += [body(1.0 / mass_ratio, 0.5, "arm link 1"), body(1.0, 0.5, "arm link 2")]
        joints += [_arm_joint(kind, "revolute", (0.0, 0.0), (-0.25, 0.0), 0.0, 0.0, "arm 1"),
                   _arm_joint(kind, "revolute", (0.25, 0.0), (-0.25, 0.0), 0.0, 0.0, "arm 2")]
        parents += [1, nb]
    cuts = ()
    if cut:
        lj = fb.joints[-1]
        if kind == "planar":
            cj = _arm_joint(kind, lj.kind, lj.parent_point, lj.child_point, lj.parent_angle, lj.child_angle,
                            lj.name)
        else:
            e = np.eye(6)
            cj = Joint("custom", kind="spatial", parent_point=(*lj.parent_point, 0.0),
                       child_point=(*lj.child_point, 0.0),
                       parent_frame=elementary_rotation("z", lj.parent_angle, check=False),
                       child_frame=elementary_rotation("z", lj.child_angle, check=False),
                       Phi=e[[1, 5]], Psi=e[[0, 2, 3, 4]], name=lj.name)
        cuts = (Cut(3, -1, cj, name=lj.name),)
    g = (0.0, -gravity) if kind == "planar" else (0.0, -gravity, 0.0)
    name = ("five-bar" + (" with arm" if arm else "") + ("" if cut else " (cut open)")
            + ("" if sleeve else " without sleeve") + f" ({kind})")
    return System(tuple(parents), tuple(bodies), tuple(joints), g, name=name, cuts=cuts)


# ----------------------------------------------------------------------------- states and joint coordinates

def five_bar_arm_state(system: System, seed=0, *, speed: float = 1.0, spread: float = 0.15) -> State:
    """A state of :func:`five_bar_arm` (any variant) that closes the loop.

    The loop's independent coordinates q1 and q4 (C&A §6) move from q0 by up to ``spread`` (uniform),
    the dependents q2, q3, q5 follow by Newton's method on the closure
    (:func:`rfda_teach.rcr.solve_dependents`); joint speeds are normal with standard deviation
    ``speed``, the dependent ones from the velocity-level closure
    (:func:`rfda_teach.rcr.dependent_velocities`); the arm's angles are uniform in (-pi, pi].  The
    same seed gives the same joint coordinates for every variant (planar or spatial, closed or
    open), so the open tree is the closed mechanism cut at q5 in the same state.

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = five_bar_arm("spatial")
    >>> st = five_bar_arm_state(s, seed=3)
    >>> st.y.shape, st.yd.shape
    ((42,), (36,))
    """
    where = "compare.five_bar_arm_state"
    system = _check.instance(system, System, "system", where=where, hint="build it with compare.five_bar_arm()")
    if not system.name.startswith("five-bar") or system.n not in (3, 4, 5, 6):
        raise ModelError(f"{where}: system {system.name!r} is not a compare.five_bar_arm(); for a tree use "
                         "models.random_state")
    sleeve = any(b.name == "bar 4" for b in system.bodies)
    arm = any(b.name.startswith("arm") for b in system.bodies)
    speed = _check.scalar(speed, "speed", where=where, nonneg=True)
    spread = _check.scalar(spread, "spread", where=where, nonneg=True)
    rng = np.random.default_rng(_check.seed(seed, where=where))
    fb = rcr.five_bar()
    q = fb.q0.copy()
    q[[0, 3]] += rng.uniform(-spread, spread, 2)
    q = rcr.solve_dependents(fb, q)
    qd = rcr.dependent_velocities(fb, q, speed * rng.normal(size=5))
    qa, qda = rng.uniform(-np.pi, np.pi, 2), speed * rng.normal(size=2)
    nb = 4 if sleeve else 3
    qs = list(q[:nb]) + (list(qa) if arm else [])
    qds = list(qd[:nb]) + (list(qda) if arm else [])
    return models.state_from_joints(system, [np.array([v]) for v in qs], [np.array([v]) for v in qds])


def joint_coordinates(system: System, state) -> tuple:
    """(q, qd): the joint angle or slide and the joint speed of every joint of a tree of revolute and
    prismatic joints (planar or spatial), read from the absolute state: the relative rotation about,
    or the separation along, the joint axis; qdot_k = Q_kd ydot_j + G_kd ydot_k (D&G eq. 59).

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = models.chain(3, "spatial")
    >>> st = models.state_from_joints(s, [[0.1], [0.2], [-0.3]], [[1.0], [0.0], [2.0]])
    >>> q, qd = joint_coordinates(s, st)
    >>> np.round(q, 12) + 0.0, np.round(qd, 12) + 0.0
    (array([ 0.1,  0.2, -0.3]), array([1., 0., 2.]))
    """
    where = "compare.joint_coordinates"
    system = _check.instance(system, System, "system", where=where)
    why = _axis_joints(system)
    if why:
        raise ModelError(f"{where}: {why}")
    state = _s.check_state(system, state)
    tr = _s.terms(system, state, check=False)
    ps, vs, kind = system.pos_slices, system.vel_slices, system.kind
    d = 2 if kind == "planar" else 3
    q, qd = np.zeros(system.n), np.zeros(system.n)
    for k, (jt, j) in enumerate(zip(system.joints, system.parents)):
        yk = state.y[ps[k]]
        Rj = np.eye(d) if j < 0 else rotation(kind, state.y[ps[j]], check=False)
        rj = np.zeros(d) if j < 0 else state.y[ps[j]][:d]
        RJ = Rj @ jt.parent_frame
        Rrel = RJ.T @ rotation(kind, yk, check=False) @ jt.child_frame
        sep = yk[:d] + rotation(kind, yk, check=False) @ jt.child_point - rj - Rj @ jt.parent_point
        if jt.type.startswith("revolute"):
            q[k] = np.arctan2(Rrel[1, 0], Rrel[0, 0])
        else:
            q[k] = (RJ.T @ sep)[0 if kind == "planar" else 2]
        t = tr.joint[k]
        qd[k] = (t.G_d @ state.yd[vs[k]] + (0.0 if j < 0 else t.Q_d @ state.yd[vs[j]]))[0]
    return q, qd


# ----------------------------------------------------------------------------- peers: Pinocchio, MuJoCo

def _tree_ydd(system, state, qdd):
    return jointspace.absolute_accelerations(system, _s.terms(system, state), qdd)


@lru_cache(maxsize=16)
def _pin_model(system):
    return interop.to_pinocchio(system)


@lru_cache(maxsize=16)
def _mj_model(system):
    import mujoco
    mj = mujoco.MjModel.from_xml_string(interop.to_mjcf(interop.from_pinocchio(_pin_model(system))))
    adr = [mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_JOINT, f"j{k}") for k in range(system.n)]
    return mj, [int(mj.jnt_qposadr[a]) for a in adr], [int(mj.jnt_dofadr[a]) for a in adr]


def pinocchio_accelerations(system: System, state) -> np.ndarray:
    """ydd by Pinocchio's ABA (``pinocchio.aba``) on :func:`rfda_teach.interop.to_pinocchio` of a spatial
    tree of revolute and prismatic joints; its qddot mapped to ydd by D&G eq. (61) differentiated.

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = five_bar_arm("spatial", cut=False); st = five_bar_arm_state(s, seed=0)
    >>> relative_difference(pinocchio_accelerations(s, st), dae.forward_dynamics(s, st).ydd) < 1e-12
    True
    """
    pin = interop.require_pinocchio()
    model = _pin_model(system) if isinstance(system, System) else interop.to_pinocchio(system)
    q, qd = joint_coordinates(system, state)
    qdd = pin.aba(model, model.createData(), q, qd, np.zeros(model.nv))
    return _tree_ydd(system, state, np.asarray(qdd))


def mujoco_accelerations(system: System, state) -> np.ndarray:
    """ydd by MuJoCo (``mujoco.mj_forward``) on the MJCF of :func:`rfda_teach.interop.to_mjcf` of the
    same Pinocchio model, for a spatial tree of revolute and prismatic joints (both models are
    built once per System and kept).

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = five_bar_arm("spatial", cut=False); st = five_bar_arm_state(s, seed=0)
    >>> relative_difference(mujoco_accelerations(s, st), dae.forward_dynamics(s, st).ydd) < 1e-9
    True
    """
    try:
        import mujoco
    except ImportError as exc:                                  # pragma: no cover - depends on the extra
        raise ModelError("compare.mujoco_accelerations: needs MuJoCo (pip install mujoco)") from exc
    if not isinstance(system, System):
        interop.to_pinocchio(system)                        # its refusal, with the message
    mj, qadr, dadr = _mj_model(system)
    data = mujoco.MjData(mj)
    q, qd = joint_coordinates(system, state)
    data.qpos[qadr] = q
    data.qvel[dadr] = qd
    mujoco.mj_forward(mj, data)
    return _tree_ydd(system, state, data.qacc[dadr].copy())


# ----------------------------------------------------------------------------- the 50-digit reference

def reference_accelerations(system: System, state, *, dps: int = 50) -> np.ndarray:
    """ydd from the float64 data (K, rhs) of D&G eq. (7) (:func:`rfda_teach.dae.assemble`, cut rows
    included) solved in ``dps``-digit :mod:`mpmath` arithmetic: the exact solution of those data
    (to about ``dps`` digits), against which every formulation's rounding error is measured.

    Gaussian elimination with partial pivoting over the non-zero entries only (D&G eq. (7) is sparse:
    this is some 70 times faster than ``mpmath.lu_solve`` on the dense matrix, with the same answer).

    Examples
    --------
    >>> from rfda_teach import models
    >>> s = models.chain(3); st = models.random_state(s, seed=0)
    >>> relative_difference(dae.forward_dynamics(s, st).ydd, reference_accelerations(s, st)) < 1e-13
    True
    """
    import mpmath
    where = "compare.reference_accelerations"
    dps = _check.positive_int(dps, "dps", where=where, minimum=16, maximum=1000)
    K, rhs = dae.assemble(system, state)
    n = len(rhs)
    with mpmath.workdps(dps):
        rows = [{j: mpmath.mpf(v) for j, v in enumerate(r) if v != 0.0} for r in K]
        b = [mpmath.mpf(v) for v in rhs]
        for c in range(n):                                  # eliminate column c below the pivot
            p = max(range(c, n), key=lambda i: abs(rows[i].get(c, 0)))
            rows[c], rows[p], b[c], b[p] = rows[p], rows[c], b[p], b[c]
            piv = rows[c].get(c, 0)
            if piv == 0:
                raise ConstraintRankError(f"{where}: D&G eq. (7) of {system.name!r} is singular (dependent "
                                          "constraint rows); dae.forward_dynamics names them")
            for i in range(c + 1, n):
                a = rows[i].pop(c, 0)
                if a == 0:
                    continue
                f = a / piv
                for j, v in rows[c].items():
                    if j > c:
                        rows[i][j] = rows[i].get(j, 0) - f * v
                b[i] -= f * b[c]
        x = [mpmath.mpf(0)] * n
        for c in reversed(range(n)):                        # back substitution
            x[c] = (b[c] - mpmath.fsum(v * x[j] for j, v in rows[c].items() if j > c)) / rows[c][c]
        return np.array([float(v) for v in x[:system.n_vel]])


class SweepResult(NamedTuple):
    """:func:`mass_ratio_sweep`: ``errors[name][i]`` is formulation ``name``'s relative error
    against the 50-digit reference at ``ratios[i]``, run on the variant ``variant[name]``."""

    ratios: np.ndarray
    errors: dict
    variant: dict


def mass_ratio_sweep(ratios=(1.0, 1e2, 1e4, 1e6, 1e8), *, kinds=("planar", "spatial"), names=None,
                     seed: int = 0) -> SweepResult:
    """Every formulation's relative error against :func:`reference_accelerations` on
    :func:`five_bar_arm` as its first arm link gets ``mass_ratio`` times lighter.

    Each formulation runs on the first variant it takes, in the order closed then open (cut at q5),
    over ``kinds``, then the spatial open tree without the sleeve (revolute joints only), and last
    the planar loop without the arm (for a formulation that sees one loop only); every variant at the same joint coordinates (:func:`five_bar_arm_state`, ``seed``).  An
    :class:`~rfda_teach.errors.RFDAError` at a larger ratio (e.g. a factor found not positive
    definite) gives an error of inf.

    Examples
    --------
    >>> r = mass_ratio_sweep((1.0, 1e6), kinds=("planar",), names=("eq7", "lubich", "featherstone"))
    >>> r.variant["lubich"], bool(r.errors["featherstone"][1] < 1e-9)
    ('planar open', True)
    """
    where = "compare.mass_ratio_sweep"
    ratios = np.array([_check.scalar(r, "mass ratio", where=where, positive=True) for r in ratios])
    kinds = [_check.choice(k, ("planar", "spatial"), "kind", where=where) for k in kinds]
    variants = [(k, c, True, True) for k in kinds for c in (True, False)]
    variants += [("spatial", False, True, False), ("planar", True, False, True)]
    names = list(FORMULATIONS) if names is None else [_formulation(n, where).name for n in names]
    choice = {}
    for n in names:
        for k, c, a, v in variants:
            s = five_bar_arm(k, cut=c, arm=a, sleeve=v)
            if refusal(n, s):
                continue
            try:                                            # a view refuses by raising
                FORMULATIONS[n].run(s, five_bar_arm_state(s, seed))
            except RFDAError:
                if FORMULATIONS[n].view:
                    continue
            choice[n] = (k, c, a, v)
            break
    errors = {n: np.empty(len(ratios)) for n in choice}
    for i, r in enumerate(ratios):
        for k, c, a, v in sorted(set(choice.values())):
            s = five_bar_arm(k, cut=c, arm=a, sleeve=v, mass_ratio=r)
            st = five_bar_arm_state(s, seed)
            ref = reference_accelerations(s, st)
            for n in (n for n in choice if choice[n] == (k, c, a, v)):
                try:
                    with warnings.catch_warnings():          # the Lubich form's RFDAWarning: measured here
                        warnings.simplefilter("ignore", RFDAWarning)
                        errors[n][i] = relative_difference(FORMULATIONS[n].run(s, st), ref)
                except RFDAError:
                    errors[n][i] = np.inf
    return SweepResult(ratios, errors, {n: f"{k} {'closed' if c else 'open'}{'' if a else ', no arm'}"
                                           f"{'' if v else ', no sleeve'}" for n, (k, c, a, v) in choice.items()})
