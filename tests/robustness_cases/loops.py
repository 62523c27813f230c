"""Bad-input cases for the closed loops: rfda_teach.loops, rfda_teach.rcr and rfda_teach.loopref
(see tests/robustness_cases/__init__.py for the format).

Every case fails at entry (validation or the O(n) loop-consistency check), so nothing here integrates
or builds the sympy model.
"""
from __future__ import annotations

import numpy as np

from rfda_teach import loopref, loops, rcr
from rfda_teach.bodies import Body
from rfda_teach.errors import ConstraintViolationError, ModelError

from robustness_cases import Case

NAN, INF = float("nan"), float("inf")
FB = loops.five_bar()
Z5 = np.zeros(5)
Q0 = FB.q0
OPEN = FB.q0 + 0.1                                   # positions that do not close the loop
BAD_QD = np.ones(5)                                  # speeds that violate the velocity constraint
SERIES = loops.loop_series(2)
QS = [L.q0 for L in SERIES.loops]
QDS = [np.zeros(4), np.zeros(4)]
ROD = Body("planar", 1.0, 1.0 / 12.0)
J = FB.joints

CASES: list = []


def add(id_, call, error, match):
    CASES.append(Case(f"loops-{id_}", call, error, match))


# ----------------------------------------------------------------------------- the model argument
MODEL_FUNCS = {
    "rcr.topology": lambda m: rcr.topology(m),
    "rcr.accelerations": lambda m: rcr.accelerations(m, Q0, Z5),
    "rcr.dependent_velocities": lambda m: rcr.dependent_velocities(m, Q0, Z5),
    "rcr.solve_dependents": lambda m: rcr.solve_dependents(m, Q0),
    "loops.closure": lambda m: loops.closure(m, Q0),
    "loops.closure_jacobian": lambda m: loops.closure_jacobian(m, Q0),
    "rcr.selection_sigma": lambda m: rcr.selection_sigma(m, Q0, ("q2", "q3", "q5")),
    "rcr.energy": lambda m: rcr.energy(m, Q0, Z5),
    "rcr.simulate": lambda m: rcr.simulate(m, "acs", 1.0),
    "rcr.body_poses": lambda m: rcr.body_poses(m, Q0),
    "rcr.tree_accelerations": lambda m: rcr.tree_accelerations(m, Q0, Z5),
    "rcr.count_multiplications": lambda m: rcr.count_multiplications(m),
    "rcr.recursive_inertias": lambda m: rcr.recursive_inertias(m, Q0, [0, 1]),
    "loops.check_state": lambda m: loops.check_state(m, Q0, Z5),
    "loopref.open_chain": lambda m: loopref.open_chain(m),
    "loopref.chain_state": lambda m: loopref.chain_state(m, Q0, Z5),
    "loopref.dae_accelerations": lambda m: loopref.dae_accelerations(m, Q0, Z5),
    "loopref.dae_simulate": lambda m: loopref.dae_simulate(m, 1.0),
    "loopref.sympy_model": lambda m: loopref.sympy_model(m),
    "loopref.sympy_simulate": lambda m: loopref.sympy_simulate(m, 1.0),
    "loopref.multiplier_accelerations": lambda m: loopref.multiplier_accelerations(m, Q0, Z5),
    "loopref.count_multiplications": lambda m: loopref.count_multiplications(m),
    "loops.check_model": lambda m: loops.check_model(m),
    "loops.check_q": lambda m: loops.check_q(m, Q0),
    "loops.check_closed": lambda m: loops.check_closed(m, Q0),
    "loops.dependent_indices": lambda m: loops.dependent_indices(m, ("q2",)),
}
add("loops.check_state-open", lambda: loops.check_state(FB, Q0 + 0.1, Z5), ConstraintViolationError,
    "q does not close loop 'five-bar'")
add("loops.check_series_states-series", lambda: loops.check_series_states(FB, [Q0], [Z5]), ModelError,
    "series must be a LoopSeries")
add("loops.check_series_states-length", lambda: loops.check_series_states(loops.loop_series(2), [Q0], [Z5]),
    ModelError, "qs must be a list of 2 vectors")
for name, f in MODEL_FUNCS.items():
    for tag, bad in (("none", None), ("str", "five-bar"), ("int", 5), ("list", [1.0, 2.0]),
                     ("series", SERIES if not name.endswith(".count_multiplications") else FB.joints[0])):
        add(f"{name}-model-{tag}", lambda f=f, bad=bad: f(bad), ModelError, "model")

SERIES_FUNCS = {
    "rcr.series_accelerations": lambda s: rcr.series_accelerations(s, QS, QDS),
    "rcr.series_poses": lambda s: rcr.series_poses(s, QS),
    "loopref.series_tree": lambda s: loopref.series_tree(s),
    "loopref.series_dae_accelerations": lambda s: loopref.series_dae_accelerations(s, QS, QDS),
    "loopref.series_multiplier_accelerations": lambda s: loopref.series_multiplier_accelerations(s, QS, QDS),
}
for name, f in SERIES_FUNCS.items():
    for tag, bad in (("none", None), ("str", "series"), ("model", FB), ("list", [FB])):
        add(f"{name}-series-{tag}", lambda f=f, bad=bad: f(bad), ModelError, "series")

# ----------------------------------------------------------------------------- state vectors
BAD_VECTORS = [("none", None, "q"), ("str", "0 0 0 0 0", "q"), ("short", [0.0] * 4, r"shape \(4,\)"),
               ("2d", np.zeros((5, 1)), r"shape \(5, 1\)"), ("nan", [NAN, 0, 0, 0, 0], r"\[0\] is nan"),
               ("inf", [0, 0, INF, 0, 0], r"\[2\] is inf"), ("scalar", 0.0, r"shape \(\)"),
               ("words", ["a"] * 5, "real numbers")]
Q_FUNCS = {
    "rcr.accelerations": lambda q: rcr.accelerations(FB, q, Z5),
    "rcr.dependent_velocities": lambda q: rcr.dependent_velocities(FB, q, Z5),
    "rcr.solve_dependents": lambda q: rcr.solve_dependents(FB, q),
    "loops.closure": lambda q: loops.closure(FB, q),
    "loops.closure_jacobian": lambda q: loops.closure_jacobian(FB, q),
    "rcr.selection_sigma": lambda q: rcr.selection_sigma(FB, q, ("q2", "q3", "q5")),
    "rcr.energy": lambda q: rcr.energy(FB, q, Z5),
    "rcr.body_poses": lambda q: rcr.body_poses(FB, q),
    "rcr.tree_accelerations": lambda q: rcr.tree_accelerations(FB, q, Z5),
    "rcr.recursive_inertias": lambda q: rcr.recursive_inertias(FB, q, [0, 1]),
    "loopref.chain_state": lambda q: loopref.chain_state(FB, q, Z5),
    "loopref.dae_accelerations": lambda q: loopref.dae_accelerations(FB, q, Z5),
    "loopref.multiplier_accelerations": lambda q: loopref.multiplier_accelerations(FB, q, Z5),
    "loopref.dae_simulate-q0": lambda q: loopref.dae_simulate(FB, 1.0, q0=q),
    "loops.check_q": lambda q: loops.check_q(FB, q),
    "loops.check_closed": lambda q: loops.check_closed(FB, q),
}
QD_FUNCS = {
    "rcr.accelerations": lambda qd: rcr.accelerations(FB, Q0, qd),
    "rcr.dependent_velocities": lambda qd: rcr.dependent_velocities(FB, Q0, qd),
    "rcr.energy": lambda qd: rcr.energy(FB, Q0, qd),
    "rcr.tree_accelerations": lambda qd: rcr.tree_accelerations(FB, Q0, qd),
    "rcr.simulate-qd0": lambda qd: rcr.simulate(FB, "acs", 1.0, qd0=qd),
    "loopref.dae_accelerations": lambda qd: loopref.dae_accelerations(FB, Q0, qd),
    "loopref.chain_state": lambda qd: loopref.chain_state(FB, Q0, qd),
    "loopref.multiplier_accelerations": lambda qd: loopref.multiplier_accelerations(FB, Q0, qd),
    "loopref.dae_simulate-qd0": lambda qd: loopref.dae_simulate(FB, 1.0, qd0=qd),
    "loopref.sympy_simulate-qd0": lambda qd: loopref.sympy_simulate(FB, 1.0, qd0=qd),
}
for funcs, arg in ((Q_FUNCS, "q"), (QD_FUNCS, "qd")):
    for name, f in funcs.items():
        for tag, bad, match in BAD_VECTORS:
            if tag == "none" and "simulate" in name:
                continue                                   # q0=None means model.q0, qd0=None rest
            add(f"{name}-{arg}-{tag}", lambda f=f, bad=bad: f(bad), ModelError, match)

# ----------------------------------------------------------------------------- rcr.recursive_inertias' nodes
for tag, bad, match in (("none", None, "non-empty sequence"), ("empty", [], "non-empty sequence"),
                        ("str", "0123", "non-empty sequence"), ("range", [0, 9], r"node indices 0\.\.4"),
                        ("float", [0, 1.0], "node indices"), ("jump", [0, 2], "node 2 is not a child of node 0"),
                        ("reversed", [1, 0], "node 0 is not a child of node 1")):
    add(f"rcr.recursive_inertias-nodes-{tag}", lambda bad=bad: rcr.recursive_inertias(FB, Q0, bad), ModelError,
        match)

# ----------------------------------------------------------------------------- inconsistent states (item 5)
OPEN_STATE = {
    "loops.check_closed": lambda: loops.check_closed(FB, OPEN),
    "rcr.accelerations": lambda: rcr.accelerations(FB, OPEN, Z5),
    "rcr.dependent_velocities": lambda: rcr.dependent_velocities(FB, OPEN, Z5),
    "rcr.energy": lambda: rcr.energy(FB, OPEN, Z5),
    "loopref.dae_accelerations": lambda: loopref.dae_accelerations(FB, OPEN, Z5),
    "loopref.chain_state": lambda: loopref.chain_state(FB, OPEN, Z5),
    "loopref.multiplier_accelerations": lambda: loopref.multiplier_accelerations(FB, OPEN, Z5),
    "loopref.dae_simulate": lambda: loopref.dae_simulate(FB, 1.0, q0=OPEN),
    "rcr.series_accelerations": lambda: rcr.series_accelerations(SERIES, [QS[0], QS[1] + 0.1], QDS),
    "loopref.series_dae_accelerations": lambda: loopref.series_dae_accelerations(SERIES, [QS[0] + 0.1, QS[1]], QDS),
    "loopref.series_multiplier_accelerations":
        lambda: loopref.series_multiplier_accelerations(SERIES, [QS[0] + 0.1, QS[1]], QDS),
    "rcr.simulate-model-q0": lambda: rcr.simulate(loops.LoopMechanism("open", FB.bodies, J, OPEN, FB.dependents),
                                                  "acs", 1.0),
    "loopref.sympy_simulate-model-q0":
        lambda: loopref.sympy_simulate(loops.LoopMechanism("open", FB.bodies, J, OPEN, FB.dependents), 1.0),
}
for name, call in OPEN_STATE.items():
    add(f"{name}-open-loop", call, ConstraintViolationError, r"does not close loop .*solve_dependents")
BAD_SPEED = {
    "rcr.accelerations": lambda: rcr.accelerations(FB, Q0, BAD_QD),
    "rcr.energy": lambda: rcr.energy(FB, Q0, BAD_QD),
    "loopref.dae_accelerations": lambda: loopref.dae_accelerations(FB, Q0, BAD_QD),
    "loopref.multiplier_accelerations": lambda: loopref.multiplier_accelerations(FB, Q0, BAD_QD),
    "rcr.series_accelerations": lambda: rcr.series_accelerations(SERIES, QS, [np.ones(4)] * 2),
    "loopref.series_dae_accelerations": lambda: loopref.series_dae_accelerations(SERIES, QS, [np.ones(4)] * 2),
    "loopref.series_multiplier_accelerations":
        lambda: loopref.series_multiplier_accelerations(SERIES, QS, [np.ones(4)] * 2),
}
for m in ("acs", "gcl", "rcr", "dae"):
    BAD_SPEED[f"rcr.simulate-{m}"] = lambda m=m: rcr.simulate(FB, m, 1.0, qd0=[1.0, 0, 0, 0, 0])
BAD_SPEED["loopref.dae_simulate"] = lambda: loopref.dae_simulate(FB, 1.0, qd0=BAD_QD)
BAD_SPEED["loopref.sympy_simulate"] = lambda: loopref.sympy_simulate(FB, 1.0, qd0=BAD_QD)
for name, call in BAD_SPEED.items():
    add(f"{name}-bad-speed", call, ConstraintViolationError, r"velocity constraint .*dependent_velocities")
add("rcr.simulate-qd0-only-independents", lambda: rcr.simulate(FB, "acs", 1.0, qd0=[1.0, 0, 0, 0, 0]),
    ConstraintViolationError, "qd0")

# ----------------------------------------------------------------------------- time spans and integrator options
SIMS = {"rcr.simulate": lambda **kw: rcr.simulate(FB, "acs", **kw),
        "loopref.dae_simulate": lambda **kw: loopref.dae_simulate(FB, **kw),
        "loopref.sympy_simulate": lambda **kw: loopref.sympy_simulate(FB, **kw)}
for name, f in SIMS.items():
    for tag, t in (("none", None), ("str", "2"), ("zero", 0.0), ("neg", -1.0), ("inf", INF), ("nan", NAN),
                   ("list", [1.0])):
        add(f"{name}-t_final-{tag}", lambda f=f, t=t: f(t_final=t), ModelError, "t_final")
    for tag, n in (("zero", 0), ("one", 1), ("float", 10.0), ("str", "10"), ("none", None)):
        add(f"{name}-n_out-{tag}", lambda f=f, n=n: f(t_final=1.0, n_out=n), ModelError, "n_out")
    for opt in ("rtol", "atol"):
        for tag, v in (("zero", 0.0), ("nan", NAN), ("str", "1e-9")):
            add(f"{name}-{opt}-{tag}", lambda f=f, opt=opt, v=v: f(t_final=1.0, **{opt: v}), ModelError, opt)
for tag, v in (("nan", NAN), ("neg", -1.0), ("str", "20")):
    for p in ("alpha", "beta"):
        add(f"loopref.dae_simulate-{p}-{tag}", lambda p=p, v=v: loopref.dae_simulate(FB, 1.0, **{p: v}),
            ModelError, p)
        add(f"loopref.dae_accelerations-{p}-{tag}", lambda p=p, v=v: loopref.dae_accelerations(FB, Q0, Z5, **{p: v}),
            ModelError, p)
for tag, v in (("str", "yes"), ("none", None), ("int", 1)):
    add(f"rcr.accelerations-check-{tag}", lambda v=v: rcr.accelerations(FB, Q0, Z5, check=v), ModelError, "check")
    add(f"loops.check_closed-check-{tag}", lambda v=v: loops.check_closed(FB, Q0, check=v), ModelError, "check")
    add(f"loops.closure-check-{tag}", lambda v=v: loops.closure(FB, Q0, check=v), ModelError, "check")
    add(f"loopref.dae_simulate-check-{tag}", lambda v=v: loopref.dae_simulate(FB, 1.0, check=v), ModelError,
        "check")
    add(f"rcr.count_multiplications-by_step-{tag}", lambda v=v: rcr.count_multiplications(FB, by_step=v),
        ModelError, "by_step")

# ----------------------------------------------------------------------------- methods and dependent sets
for name, f in {"rcr.simulate": lambda m: rcr.simulate(FB, m, 1.0),
                "rcr.accelerations": lambda m: rcr.accelerations(FB, Q0, Z5, method=m),
                "rcr.topology": lambda m: rcr.topology(FB, m),
                "rcr.dependent_velocities": lambda m: rcr.dependent_velocities(FB, Q0, Z5, method=m),
                "rcr.body_poses": lambda m: rcr.body_poses(FB, Q0, method=m),
                "rcr.count_multiplications": lambda m: rcr.count_multiplications(FB, method=m)}.items():
    for tag, m in (("magic", "magic"), ("upper", "ACS"), ("none", None), ("int", 1), ("list", ["acs"])):
        add(f"{name}-method-{tag}", lambda f=f, m=m: f(m), ModelError, "method")
add("rcr.topology-dae", lambda: rcr.topology(FB, "dae"), ModelError, "method='dae'")
DEP_FUNCS = {
    "rcr.accelerations": lambda d: rcr.accelerations(FB, Q0, Z5, dependents=d),
    "rcr.solve_dependents": lambda d: rcr.solve_dependents(FB, Q0, dependents=d),
    "rcr.selection_sigma": lambda d: rcr.selection_sigma(FB, Q0, d),
    "rcr.simulate": lambda d: rcr.simulate(FB, "acs", 1.0, dependents=d),
    "rcr.topology": lambda d: rcr.topology(FB, "acs", d),
    "loops.dependent_indices": lambda d: loops.dependent_indices(FB, d),
}
for name, f in DEP_FUNCS.items():
    for tag, d, match in (("str", "q2", "tuple of coordinate names"), ("unknown", ("q2", "q3", "q9"), "q9"),
                          ("float", ("q2", 3.0, "q5"), "3.0"), ("none-entry", ("q2", None, "q5"), "None"),
                          ("range", (2, 3, 9), "out of range"), ("repeat", ("q2", "q2", "q5"), "repeats"),
                          ("int", 3, "tuple of coordinate names"), ("nan", ("q2", NAN, "q5"), "nan")):
        add(f"{name}-dependents-{tag}", lambda f=f, d=d: f(d), ModelError, match)
add("rcr.solve_dependents-two-dependents", lambda: rcr.solve_dependents(FB, Q0, dependents=("q2", "q5")),
    ModelError, "exactly 3")
add("rcr.selection_sigma-empty", lambda: rcr.selection_sigma(FB, Q0, ()), ModelError, "dependents")
for tag, kw, match in (("tol-zero", {"tol": 0.0}, "tol"), ("tol-nan", {"tol": NAN}, "tol"),
                       ("tol-str", {"tol": "1e-12"}, "tol"), ("max_iter-zero", {"max_iter": 0}, "max_iter"),
                       ("max_iter-float", {"max_iter": 5.0}, "max_iter")):
    add(f"rcr.solve_dependents-{tag}", lambda kw=kw: rcr.solve_dependents(FB, Q0, **kw), ModelError, match)

# ----------------------------------------------------------------------------- joint forces (item 8)
for tag, tau, match in (("nan", [0.0, NAN, 0.0, 0.0], r"tau\[1\] is nan"), ("inf", [INF, 0, 0, 0], r"tau\[0\] is inf"),
                        ("short", [0.0] * 3, r"tau has shape \(3,\)"), ("long", [0.0] * 5, r"tau has shape \(5,\)"),
                        ("str", "0", "tau"), ("2d", np.zeros((4, 1)), "tau")):
    add(f"rcr.tree_accelerations-tau-{tag}", lambda tau=tau: rcr.tree_accelerations(FB, Q0, Z5, tau=tau),
        ModelError, match)

# ----------------------------------------------------------------------------- constructors and model data
for tag, kw, match in (("kind", {"kind": "spherical"}, "kind='spherical'"), ("kind-none", {"kind": None}, "kind"),
                       ("point-3", {"kind": "revolute", "parent_point": (0, 0, 0)}, "parent_point"),
                       ("point-nan", {"kind": "revolute", "child_point": (NAN, 0)}, "child_point"),
                       ("point-str", {"kind": "revolute", "child_point": "0,0"}, "child_point"),
                       ("angle-nan", {"kind": "revolute", "parent_angle": NAN}, "parent_angle"),
                       ("angle-str", {"kind": "revolute", "child_angle": "0"}, "child_angle"),
                       ("angle-none", {"kind": "prismatic", "child_angle": None}, "child_angle"),
                       ("name-int", {"kind": "revolute", "name": 3}, "name")):
    add(f"loops.LoopJoint-{tag}", lambda kw=kw: loops.LoopJoint(**kw), ModelError, match)


def mech(**kw):
    args = dict(name="m", bodies=FB.bodies, joints=J, q0=Q0, dependents=FB.dependents)
    args.update(kw)
    return loops.LoopMechanism(**args)


for tag, kw, match in (
        ("gravity-3", {"gravity": (0.0, -9.81, 0.0)}, r"gravity has shape \(3,\)"),
        ("gravity-nan", {"gravity": (0.0, NAN)}, r"gravity\[1\] is nan"),
        ("gravity-str", {"gravity": "down"}, "gravity"),
        ("gravity-scalar", {"gravity": 9.81}, "gravity"),
        ("q0-short", {"q0": Q0[:4]}, "q0"), ("q0-nan", {"q0": [NAN, 0, 0, 0, 0]}, "q0"),
        ("q0-none", {"q0": None}, "q0"),
        ("bodies-few", {"bodies": FB.bodies[:3]}, "bodies"), ("bodies-str", {"bodies": "rods"}, "bodies"),
        ("bodies-entry", {"bodies": (ROD, ROD, ROD, "rod")}, r"bodies\[3\]"),
        ("bodies-spatial", {"bodies": (ROD, ROD, ROD, Body("spatial", 1.0, np.eye(3)))}, r"bodies\[3\]"),
        ("joints-none", {"joints": None}, "joints"), ("joints-entry", {"joints": J[:4] + ("q5",)}, r"joints\[4\]"),
        ("joints-few", {"joints": J[:3], "bodies": FB.bodies[:2], "q0": Q0[:3]}, "at least 4 joints"),
        ("dependents-str", {"dependents": "q2"}, "dependents"),
        ("dependents-unknown", {"dependents": ("q2", "q3", "x")}, "'x'"),
        ("split-zero", {"split": 0}, "split"), ("split-big", {"split": 3}, "split"),
        ("split-float", {"split": 1.0}, "split"),
        ("names-short", {"names": ("a", "b")}, "names"), ("names-repeat", {"names": ("a",) * 5}, "names"),
        ("names-str", {"names": "abcde"}, "names"), ("m", {"m": 2}, "m = 2"),
        ("name-none", {"name": None}, "name")):
    add(f"loops.LoopMechanism-{tag}", lambda kw=kw: mech(**kw), ModelError, match)

for tag, call, match in (
        ("gravity-nan", lambda: loops.five_bar(gravity=NAN), "gravity is nan"),
        ("gravity-str", lambda: loops.five_bar(gravity="9.81"), "gravity"),
        ("gravity-vector", lambda: loops.five_bar(gravity=(0.0, -9.81)), "gravity")):
    add(f"loops.five_bar-{tag}", call, ModelError, match)
for tag, call, match in (
        ("gravity-inf", lambda: loops.four_bar(gravity=INF), "gravity"),
        ("crank-nan", lambda: loops.four_bar(crank_angle=NAN), "crank_angle"),
        ("crank-str", lambda: loops.four_bar(crank_angle="90"), "crank_angle")):
    add(f"loops.four_bar-{tag}", call, ModelError, match)
for tag, n, match in (("three", 3, "n is 3"), ("zero", 0, "n is 0"), ("neg", -4, "n is -4"),
                      ("float", 6.0, "n must be an integer"), ("str", "6", "n must be an integer"),
                      ("none", None, "n must be an integer"), ("bool", True, "n must be an integer")):
    add(f"loops.loop_chain-n-{tag}", lambda n=n: loops.loop_chain(n), ModelError, match)
for tag, sd in (("neg", -1), ("str", "0"), ("float", 0.5)):
    add(f"loops.loop_chain-seed-{tag}", lambda sd=sd: loops.loop_chain(6, seed=sd), ModelError, "seed")
for tag, k, match in (("zero", 0, "k is 0"), ("float", 2.0, "k must be an integer"),
                      ("str", "2", "k must be an integer"), ("none", None, "k must be an integer")):
    add(f"loops.loop_series-k-{tag}", lambda k=k: loops.loop_series(k), ModelError, match)
add("loops.loop_series-gravity-nan", lambda: loops.loop_series(2, gravity=NAN), ModelError, "gravity")

L4 = loops.four_bar()
for tag, call, match in (
        ("attach-count", lambda: loops.LoopSeries((L4, L4), ()), "attachments"),
        ("attach-later", lambda: loops.LoopSeries((L4, L4), ((1, 2),)), "earlier loop"),
        ("attach-body", lambda: loops.LoopSeries((L4, L4), ((0, 7),)), "no body 7"),
        ("attach-pair", lambda: loops.LoopSeries((L4, L4), ((0,),)), r"attach\[0\]"),
        ("attach-float", lambda: loops.LoopSeries((L4, L4), ((0, 2.0),)), r"attach\[0\]"),
        ("attach-str", lambda: loops.LoopSeries((L4, L4), "0,2"), "attach"),
        ("loops-empty", lambda: loops.LoopSeries((), ()), "loops"),
        ("loops-str", lambda: loops.LoopSeries("four-bar", ()), "loops"),
        ("loops-entry", lambda: loops.LoopSeries((L4, "x"), ((0, 2),)), r"loops\[1\]"),
        ("gravity", lambda: loops.LoopSeries((L4, loops.four_bar(gravity=1.62)), ((0, 2),)), "gravity"),
        ("name", lambda: loops.LoopSeries((L4,), (), name=None), "name")):
    add(f"loops.LoopSeries-{tag}", call, ModelError, match)

for tag, qs, match in (("none", None, "qs"), ("one", QS[:1], "qs"), ("str", "q", "qs"),
                       ("nan", [QS[0], [NAN, 0, 0, 0]], r"loop 1.*q\[0\] is nan"),
                       ("short", [QS[0], [0.0] * 3], r"loop 1.*shape \(3,\)")):
    add(f"rcr.series_accelerations-qs-{tag}", lambda qs=qs: rcr.series_accelerations(SERIES, qs, QDS),
        ModelError, match)
    add(f"rcr.series_poses-qs-{tag}", lambda qs=qs: rcr.series_poses(SERIES, qs), ModelError, match)
    add(f"loopref.series_dae_accelerations-qs-{tag}",
        lambda qs=qs: loopref.series_dae_accelerations(SERIES, qs, QDS), ModelError, match)
    add(f"loopref.series_multiplier_accelerations-qs-{tag}",
        lambda qs=qs: loopref.series_multiplier_accelerations(SERIES, qs, QDS), ModelError, match)
for tag, qds, match in (("none", None, "qds"), ("nan", [[NAN, 0, 0, 0], QDS[1]], r"loop 0.*qd\[0\] is nan")):
    add(f"rcr.series_accelerations-qds-{tag}", lambda qds=qds: rcr.series_accelerations(SERIES, QS, qds),
        ModelError, match)
add("rcr.series_accelerations-tally", lambda: rcr.series_accelerations(SERIES, QS, QDS, tally=3), ModelError,
    "tally")

for tag, r, match in (("short", [1.0], r"r has shape \(1,\)"), ("nan", [NAN, 0.0], r"r\[0\] is nan"),
                      ("none", None, "r"), ("str", "1,0", "r")):
    add(f"rcr.shift_T-{tag}", lambda r=r: rcr.shift_T(r), ModelError, match)
for tag, b, match in (("str", "rod", "body must be a Body"), ("int", 1, "body must be a Body"),
                      ("spatial", Body("spatial", 1.0, np.eye(3)), "planar")):
    add(f"rcr.spatial_inertia-{tag}", lambda b=b: rcr.spatial_inertia(b), ModelError, match)
    add(f"loops.check_body-{tag}", lambda b=b: loops.check_body(b), ModelError, match)
add("loops.check_body-what", lambda: loops.check_body(ROD, 3), ModelError, "what must be a str")
add("loops.check_q-what", lambda: loops.check_q(FB, Q0, 3), ModelError, "what must be a str")
for tag, kw, match in (("q", {"q": NAN}, "q is nan"), ("q-str", {"q": "0"}, "q must be a real number"),
                       ("sign", {"q": 0.0, "sign": 0.5}, "sign is 0.5"), ("sign-str", {"q": 0.0, "sign": "-"}, "sign")):
    add(f"loops.LoopJoint.transform-{tag}", lambda kw=kw: J[0].transform(**kw), ModelError, match)
add("loops.LoopJoint.joint_frame-sign", lambda: J[0].joint_frame(0.0), ModelError, "sign is 0.0")

# rcr.reduction_step (eq. 34, 36)
for tag, R, match in (("shape", np.eye(2), r"R_next has shape \(2, 2\)"), ("nan", np.full((3, 3), NAN), "R_next"),
                      ("asym", np.triu(np.ones((3, 3))), "not symmetric"), ("none", None, "R_next")):
    add(f"rcr.reduction_step-R-{tag}", lambda R=R: rcr.reduction_step(R, [0.0, 1.0, 0.0]), ModelError, match)
for tag, a, match in (("short", [1.0, 0.0], r"a has shape \(2,\)"), ("nan", [NAN, 0.0, 0.0], r"a\[0\] is nan"),
                      ("zero", [0.0, 0.0, 0.0], "a is zero"), ("str", "a", "a")):
    add(f"rcr.reduction_step-a-{tag}", lambda a=a: rcr.reduction_step(np.eye(3), a), ModelError, match)
add("rcr.reduction_step-tol", lambda: rcr.reduction_step(np.eye(3), [1.0, 0, 0], tol=-1.0), ModelError, "tol")

for tag, bad in (("none", None), ("str", "five-bar"), ("joint", J[0]), ("list", [FB])):
    add(f"loopref.to_system-model-{tag}", lambda bad=bad: loopref.to_system(bad), ModelError, "model must be")

for tag, v in (("str", "upper"), ("none", None), ("int", 1)):
    add(f"loopref.count_multiplications-bound-{tag}", lambda v=v: loopref.count_multiplications(FB, bound=v),
        ModelError, "bound")

# ----------------------------------------------------------------------------- views of the one model (issue 22)
SX = FB.mechanism
ST = loopref.chain_state(FB, Q0, Z5)
for tag, bad in (("none", None), ("str", "five-bar"), ("model", FB), ("list", [SX])):
    add(f"loops.from_system-system-{tag}", lambda bad=bad: loops.from_system(bad), ModelError, "system must be")
    add(f"rcr.system_accelerations-system-{tag}", lambda bad=bad: rcr.system_accelerations(bad, ST), ModelError,
        "system must be")
    add(f"loops.loop_part-system-{tag}", lambda bad=bad: loops.loop_part(bad), ModelError, "system must be")
from rfda_teach import models as _models  # noqa: E402
for tag, bad in (("tree", _models.chain(4)), ("spatial", _models.universal_chain(3))):
    add(f"loops.from_system-{tag}", lambda bad=bad: loops.from_system(bad), ModelError, "dae.forward_dynamics")
    add(f"rcr.system_accelerations-{tag}",
        lambda bad=bad: rcr.system_accelerations(bad, _models.random_state(bad, seed=0)), ModelError,
        "dae.forward_dynamics")
add("loops.loop_part-tree", lambda: loops.loop_part(_models.chain(4)), ModelError, "0 cut joints")
add("loops.from_system-q0-short", lambda: loops.from_system(SX, q0=Q0[:4]), ModelError, r"q0 has shape \(4,\)")
add("loops.from_system-q0-and-state", lambda: loops.from_system(SX, q0=Q0, state=ST), ModelError, "not both")
add("loops.from_system-state-nan", lambda: loops.from_system(SX, state=(ST.y * NAN, ST.yd)), ModelError, "nan")
add("loops.from_system-dependents", lambda: loops.from_system(SX, dependents=("q9",)), ModelError, "q9")
add("loops.from_system-split", lambda: loops.from_system(SX, split=0), ModelError, "split")
for name, f in {"loops.state_from_system": lambda m, s: loops.state_from_system(m, s),
                "loops.absolute_accelerations": lambda m, s: loops.absolute_accelerations(m, s, Z5)}.items():
    add(f"{name}-model-str", lambda f=f: f("five-bar", ST), ModelError, "model must be")
    add(f"{name}-model-by-hand", lambda f=f: f(mech(), ST), ModelError, "has no .mechanism")
    add(f"{name}-state-short", lambda f=f: f(FB, (ST.y[:3], ST.yd)), ModelError, r"state.y has shape \(3,\)")
    add(f"{name}-state-str", lambda f=f: f(FB, "state"), ModelError, "state must be a pair")
add("loops.state_from_system-open", lambda: loops.state_from_system(FB, (ST.y + 0.1, ST.yd)),
    ConstraintViolationError, "violates")
add("loops.state_from_system-check", lambda: loops.state_from_system(FB, ST, check="yes"), ModelError, "check")
add("loops.absolute_accelerations-qdd-nan", lambda: loops.absolute_accelerations(FB, ST, [NAN, 0, 0, 0, 0]),
    ModelError, r"qdd\[0\] is nan")
add("rcr.system_accelerations-method", lambda: rcr.system_accelerations(SX, ST, method="dae"), ModelError,
    "method")
add("rcr.system_accelerations-dependents-gcl",
    lambda: rcr.system_accelerations(SX, ST, method="gcl", dependents=("q2", "q3", "q5")), ModelError,
    "dependents= is for method 'acs'")
add("rcr.system_accelerations-open", lambda: rcr.system_accelerations(SX, (ST.y + 0.1, ST.yd)),
    ConstraintViolationError, "violates")
add("loops.LoopMechanism-mechanism", lambda: mech(mechanism="five-bar"), ModelError, "mechanism must be a System")
add("loops.LoopSeries-mechanism", lambda: loops.LoopSeries((L4,), (), mechanism=3), ModelError,
    "mechanism must be a System")
SSX = SERIES.mechanism
add("loops.from_system-series-q0", lambda: loops.from_system(SSX, q0=QS[0]), ModelError, "q0 must be a list of 2")
add("loops.from_system-series-dependents", lambda: loops.from_system(SSX, dependents=("q1", "q3", "q4")),
    ModelError, "dependents must be a list of 2")
add("loops.absolute_accelerations-series-qdd", lambda: loops.absolute_accelerations(SERIES, ST, Z5), ModelError,
    "state.y has shape")
add("rcr.system_accelerations-series-method",
    lambda: rcr.system_accelerations(SSX, _models.state_from_joints(SSX, [q[k:k + 1] for q in QS for k in range(3)],
                                                                    [np.zeros(1)] * 6), method="rcr"), ModelError,
    "chain of 2 loops")

COVERED = sorted({c.id.split("-")[1] for c in CASES})
EXEMPT: dict = {
    "rcr.Topology": "a plain record returned by rcr.topology (NamedTuple); its builder rcr.topology is covered",
    "rcr.RCRResult": "a plain result record returned by rcr.simulate (NamedTuple)",
    "rcr.ReductionStep": "a plain result record returned by rcr.reduction_step (NamedTuple)",
    "loopref.RefResult": "a plain result record returned by loopref.dae_simulate / sympy_simulate (NamedTuple)",
    "loops.LoopPart": "a plain result record returned by loops.loop_part (NamedTuple)",
}
# the mechanism record moved to rfda_teach.loops; rcr re-exports it (the same objects), covered above as loops.*
EXEMPT.update({f"rcr.{name}": f"re-exported from rfda_teach.loops (the same object), covered as loops.{name}"
               for name in ("LoopJoint", "LoopMechanism", "LoopSeries", "five_bar", "four_bar", "loop_chain",
                            "loop_series", "closure", "closure_jacobian", "check_state", "check_series_states",
                            "from_system", "state_from_system")})

