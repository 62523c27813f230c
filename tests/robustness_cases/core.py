"""Bad-input cases for tree, system, dae, rfda, bodies, joints, and the exemptions of summary
(format: robustness_cases/__init__.py)."""
from __future__ import annotations

import numpy as np

from rfda_teach import bodies, dae, joints, models, rfda, system, tree
from rfda_teach.bodies import Body
from rfda_teach.errors import ConstraintRankError, ConstraintViolationError, ModelError, TopologyError
from rfda_teach.joints import Joint

from robustness_cases import Case

_P = models.planar_revolute_pair()
_PS = models.random_state(_P, seed=0)
_S = models.random_tree(4, kind="spatial", seed=1)
_SS = models.random_state(_S, seed=1)
_TR = system.terms(_P, _PS)
#: the revolute pair with body 1's tip pinned to the ground by a cut joint (a random state does not close it)
_PC = system.System(_P.parents, _P.bodies, _P.joints, _P.gravity,
                    cuts=(system.Cut(1, -1, Joint("revolute2d", parent_point=[0.5, 0.0], child_point=[1.0, 1.0])),))


def _off_pin():
    y = _PS.y.copy()
    y[3] += 0.3
    return (y, _PS.yd)


def _zero_quat():
    y = _SS.y.copy()
    y[3:7] = 0.0
    return (y, _SS.yd)


def _fd(form):
    if form == "dense":
        return lambda *a, **k: dae.forward_dynamics(*a, **k)
    return lambda *a, **k: rfda.forward_dynamics(*a, form=form, **k)


CASES: list = [
    # tree
    Case("tree.validate_parents-str", lambda: tree.validate_parents("-1 0"), TopologyError, "sequence of ints"),
    Case("tree.validate_parents-None", lambda: tree.validate_parents(None), TopologyError, "parent array"),
    Case("tree.validate_parents-float", lambda: tree.validate_parents([-1, 0.0]), TopologyError, "parent of body 1"),
    Case("tree.validate_parents-cycle", lambda: tree.validate_parents([-1, 2, 1]), TopologyError, "cycle"),
    Case("tree.validate_parents-noroot", lambda: tree.validate_parents([1, 0]), TopologyError, "no root"),
    Case("tree.Topology-unknown", lambda: tree.Topology.from_parents([-1, 7]), TopologyError, "unknown parent 7"),
    Case("tree.Topology-node", lambda: tree.Topology.from_parents([-1, 0]).children("a"), TopologyError,
         "node 'a' does not exist"),
    # bodies
    Case("bodies.Body-kind", lambda: Body("3d", 1.0), ModelError, "unknown kind '3d'"),
    Case("bodies.Body-kind-list", lambda: Body(["planar"], 1.0), ModelError, "kind"),
    Case("bodies.Body-mass-str", lambda: Body("planar", "1.0", 0.1), ModelError, "mass"),
    Case("bodies.Body-mass-nan", lambda: Body("planar", np.nan, 0.1), ModelError, "mass is nan"),
    Case("bodies.Body-mass-neg", lambda: Body("planar", -1.0, 0.1), ModelError, "mass -1.0 is not positive"),
    Case("bodies.Body-J-shape", lambda: Body("spatial", 1.0, np.eye(2)), ModelError, "3x3"),
    Case("bodies.Body-J-asym", lambda: Body("spatial", 1.0, [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]), ModelError,
         "not symmetric"),
    Case("bodies.Body-J-triangle", lambda: Body("spatial", 1.0, np.diag([1.0, 1.0, 3.0])), ModelError,
         "triangle inequality"),
    Case("bodies.Body-J-None", lambda: Body("spatial", 1.0, None), ModelError, "inertia"),
    Case("bodies.npos-kind", lambda: bodies.npos("cube"), ModelError, "kind='cube'"),
    Case("bodies.nvel-kind", lambda: bodies.nvel(None), ModelError, "kind=None"),
    Case("bodies.ndim-kind", lambda: bodies.ndim(3), ModelError, "kind=3"),
    Case("bodies.skew-shape", lambda: bodies.skew([1.0, 2.0]), ModelError, r"a has shape \(2,\)"),
    Case("bodies.skew-nan", lambda: bodies.skew([1.0, np.nan, 0.0]), ModelError, r"a\[1\] is nan"),
    Case("bodies.planar_rotation-str", lambda: bodies.planar_rotation("0.1"), ModelError, "phi"),
    Case("bodies.planar_rotation-nan", lambda: bodies.planar_rotation(np.nan), ModelError, "phi is nan"),
    Case("bodies.euler_params_to_matrix-zero", lambda: bodies.euler_params_to_matrix(np.zeros(4)), ModelError,
         "all zero"),
    Case("bodies.euler_params_to_matrix-norm", lambda: bodies.euler_params_to_matrix([2.0, 0, 0, 0]), ModelError,
         "norm 2"),
    Case("bodies.euler_params_to_matrix-len", lambda: bodies.euler_params_to_matrix([1.0, 0, 0]), ModelError,
         r"e has shape \(3,\)"),
    Case("bodies.matrix_to_euler_params-notrot", lambda: bodies.matrix_to_euler_params(np.diag([1.0, 1, -1])),
         ModelError, "not a rotation matrix"),
    Case("bodies.matrix_to_euler_params-shape", lambda: bodies.matrix_to_euler_params(np.eye(2)), ModelError,
         "R has shape"),
    Case("bodies.frame_with_z-zero", lambda: bodies.frame_with_z([0.0, 0.0, 0.0]), ModelError, "zero"),
    Case("bodies.frame_with_z-shape", lambda: bodies.frame_with_z([1.0, 0.0]), ModelError, r"a has shape"),
    Case("bodies.rotation-kind", lambda: bodies.rotation("solid", np.zeros(7)), ModelError, "kind='solid'"),
    Case("bodies.rotation-short", lambda: bodies.rotation("spatial", np.zeros(3)), ModelError,
         r"y_i has shape \(3,\)"),
    Case("bodies.mass_matrix-body", lambda: bodies.mass_matrix("body", np.zeros(3)), ModelError,
         "body must be a Body"),
    Case("bodies.mass_matrix-y", lambda: bodies.mass_matrix(Body("planar", 1.0, 1.0), np.zeros(2)), ModelError,
         r"y_i has shape \(2,\)"),
    Case("bodies.force-gravity", lambda: bodies.force(Body("planar", 1.0, 1.0), np.zeros(3), np.zeros(3),
                                                      [0.0, 0.0, -9.81]), ModelError, r"gravity has shape \(3,\)"),
    Case("bodies.force-nan", lambda: bodies.force(Body("planar", 1.0, 1.0), np.zeros(3), [0, np.nan, 0],
                                                  [0.0, -9.81]), ModelError, r"yd_i\[1\] is nan"),
    # joints
    Case("joints.Joint-type", lambda: Joint("hinge"), ModelError, "unknown joint type 'hinge'"),
    Case("joints.Joint-type-None", lambda: Joint(None), ModelError, "unknown joint type None"),
    Case("joints.Joint-point", lambda: Joint("revolute2d", parent_point=[1.0]), ModelError, "parent_point"),
    Case("joints.Joint-point-nan", lambda: Joint("revolute2d", child_point=[np.nan, 0]), ModelError,
         "child_point"),
    Case("joints.Joint-frame", lambda: Joint("revolute", parent_frame=2 * np.eye(3)), ModelError,
         "parent_frame must be an orthogonal"),
    Case("joints.Joint-frame-str", lambda: Joint("revolute", child_frame="I"), ModelError, "child_frame"),
    Case("joints.Joint-rank", lambda: Joint("custom", kind="planar", Phi=[[1, 0, 0], [2, 0, 0]]),
         ConstraintRankError, "rank 1"),
    Case("joints.Joint-custom-shape", lambda: Joint("custom", kind="planar", Phi=[[1, 0]]), ModelError, "Phi"),
    Case("joints.Joint-custom-nan", lambda: Joint("custom", kind="planar", Phi=[[np.nan, 0, 0]],
                                                  Psi=[[0, 1, 0], [0, 0, 1]]), ModelError, "Phi"),
    Case("joints.Joint-universal-not-orthogonal", lambda: Joint("universal", axes=[(1, 0, 0), (1, 1, 0)],
                                                                name="cardan"), ModelError,
         r"joint 'cardan': axes a1 and a2 .* must be orthogonal; the angle between them is 45 deg"),
    Case("joints.Joint-universal-zero", lambda: Joint("universal", axes=[(1, 0, 0), (0, 0, 0)], name="cardan"),
         ModelError, r"joint 'cardan': axis a2 .* is the zero vector"),
    Case("joints.Joint-universal-nan", lambda: Joint("universal", axes=[(1, 0, np.nan), (0, 1, 0)], name="cardan"),
         ModelError, r"joint 'cardan': axes must be two finite 3-vectors"),
    Case("joints.Joint-universal-shape", lambda: Joint("universal", axes=[1, 0, 0], name="cardan"), ModelError,
         r"joint 'cardan': axes must be two finite 3-vectors"),
    Case("joints.Joint-universal-str", lambda: Joint("universal", axes="xy", name="cardan"), ModelError,
         r"joint 'cardan'.*axes"),
    Case("joints.Joint-axes-not-universal", lambda: Joint("revolute", axes=[(1, 0, 0), (0, 1, 0)], name="hinge"),
         ModelError, r"joint 'hinge': axes= is only for a universal joint"),
    Case("joints.evaluate-universal-parallel-axes", lambda: joints.evaluate(
        Joint("universal", name="cardan"), "spatial", None, None,
        np.r_[0.0, 0, 0, np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)], np.zeros(6)), ModelError,
         r"joint 'cardan' \(universal\): its axes .* are parallel"),
    Case("joints.joint_pose-universal-q", lambda: joints.joint_pose(Joint("universal"), "spatial", None, [0.1]),
         ModelError, r"needs 2 position variables"),
    Case("joints.evaluate-joint", lambda: joints.evaluate("revolute2d", "planar", None, None, np.zeros(3),
                                                          np.zeros(3)), ModelError, "joint must be a Joint"),
    Case("joints.evaluate-kind", lambda: joints.evaluate(Joint("revolute2d"), "spatial", None, None,
                                                         np.zeros(3), np.zeros(3)), ModelError, "kind"),
    Case("joints.evaluate-y", lambda: joints.evaluate(Joint("revolute2d"), "planar", None, None, np.zeros(2),
                                                      np.zeros(3)), ModelError, r"y_k has shape \(2,\)"),
    Case("joints.joint_pose-q", lambda: joints.joint_pose(Joint("revolute2d"), "planar", None, [0.0, 1.0]),
         ModelError, "needs 1 position variables"),
    Case("joints.joint_pose-nan", lambda: joints.joint_pose(Joint("revolute2d"), "planar", None, [np.nan]),
         ModelError, r"q\[0\] is nan"),
    Case("joints.joint_pose-quat", lambda: joints.joint_pose(Joint("spherical"), "spatial", None, np.zeros(4)),
         ModelError, "all zero"),
    Case("joints.nq-type", lambda: joints.nq("revolute"), ModelError, "joint must be a Joint"),
    Case("joints.ndof-type", lambda: joints.ndof(None), ModelError, "joint must be a Joint"),
    Case("joints.random_joint_position-rng", lambda: joints.random_joint_position(Joint("revolute"), 3),
         ModelError, "rng must be a Generator"),
    Case("joints.random_joint_position-scale", lambda: joints.random_joint_position(
        Joint("free"), np.random.default_rng(0), scale=np.nan), ModelError, "scale is nan"),
    Case("joints.position_residual-y", lambda: joints.position_residual(Joint("revolute2d"), "planar", None,
                                                                        [0.0, np.nan, 0.0]), ModelError,
         r"y_k\[1\] is nan"),
    Case("joints.Phi-y", lambda: joints.Phi(Joint("revolute2d"), "planar", None, [0.0, np.inf, 0.0]), ModelError,
         r"y_k\[1\] is inf"),
    Case("joints.Phi-joint", lambda: joints.Phi("pin", "planar", None, np.zeros(3)), ModelError,
         "joint must be a Joint"),
    # system
    Case("system.System-gravity", lambda: system.System((-1,), (Body("planar", 1.0, 1.0),), (Joint("revolute2d"),),
                                                        gravity=[0.0, 0.0, -9.81]), ModelError, "gravity"),
    Case("system.System-counts", lambda: system.System((-1, 0), (Body("planar", 1.0, 1.0),),
                                                       (Joint("revolute2d"),)), ModelError, "2 parents but 1 bodies"),
    Case("system.System-body", lambda: system.System((-1,), ("bar",), (Joint("revolute2d"),)), ModelError,
         "bodies\\[0\\] is str"),
    Case("system.System-kind", lambda: system.System((-1,), (Body("planar", 1.0, 1.0),), (Joint("revolute"),)),
         ModelError, "pick a joint type"),
    Case("system.State-short", lambda: system.check_state(_P, (np.zeros(5), np.zeros(6))), ModelError,
         r"state.y has shape \(5,\)"),
    Case("system.check_state-None", lambda: system.check_state(_P, None), ModelError, "state must be a pair"),
    Case("system.check_state-str", lambda: system.check_state(_P, ("abc", np.zeros(6))), ModelError, "state.y"),
    Case("system.check_state-system", lambda: system.check_state("pair", _PS), ModelError, "system must be"),
    Case("system.check_state-zeroquat", lambda: system.check_state(_S, _zero_quat()), ModelError, "all zero"),
    Case("system.terms-tau", lambda: system.terms(_P, _PS, tau=[1.0]), ModelError, r"tau has shape \(1,\)"),
    Case("system.terms-t", lambda: system.terms(_P, _PS, t=np.nan), ModelError, "t is nan"),
    Case("system.terms-f_ext", lambda: system.terms(_P, _PS, f_ext=[np.inf] * 6), ModelError, r"f_ext\[0\] is inf"),
    Case("system.check_consistency-pos", lambda: system.check_consistency(_P, _off_pin()),
         ConstraintViolationError, "position residual"),
    Case("system.body_slices-i", lambda: system.body_slices(_P, 5), ModelError, "body 5 does not exist"),
    Case("system.Terms-none", lambda: dae.solve(_P, None), ModelError, "Terms"),
    Case("system.check_terms-wrong", lambda: system.check_terms(_S, _TR, "here"), ModelError,
         "here: tr must be the Terms of this system"),
    Case("bodies.unit_euler-norm", lambda: bodies.unit_euler([1.0, 1.0, 0, 0]), ModelError, "norm 1.4142"),
    Case("bodies.unit_euler-str", lambda: bodies.unit_euler("1000"), ModelError, "e must be an array"),
    Case("system.constraint_residuals-state", lambda: system.constraint_residuals(_P, (np.zeros(6), None)),
         ModelError, "state.yd"),
    Case("system.constraint_residuals-system", lambda: system.constraint_residuals(None, _PS), ModelError,
         "system must be"),
    # cut joints
    Case("system.Cut-parent-bool", lambda: system.Cut(True, 0, Joint("revolute2d")), ModelError,
         "parent must be a body index"),
    Case("system.Cut-child-float", lambda: system.Cut(0, 1.0, Joint("revolute2d")), ModelError,
         "child must be a body index"),
    Case("system.Cut-child-nan", lambda: system.Cut(0, np.nan, Joint("revolute2d")), ModelError, "child"),
    Case("system.Cut-ground-twice", lambda: system.Cut(-1, -1, Joint("revolute2d")), ModelError, "both the ground"),
    Case("system.Cut-joint-str", lambda: system.Cut(0, 1, "revolute2d"), ModelError, "joint must be"),
    Case("system.System-cuts-range", lambda: system.System(_P.parents, _P.bodies, _P.joints,
                                                           cuts=(system.Cut(0, 2, Joint("revolute2d")),)),
         TopologyError, r"cuts\[0\] .* child body 2"),
    Case("system.System-cuts-kind", lambda: system.System(_P.parents, _P.bodies, _P.joints,
                                                          cuts=(system.Cut(0, 1, Joint("revolute")),)),
         ModelError, "spatial bodies but its parent body 0 is planar"),
    Case("system.System-cuts-str", lambda: system.System(_P.parents, _P.bodies, _P.joints, cuts="0-1"),
         ModelError, "cuts must be a sequence"),
    Case("system.System-cuts-none", lambda: system.System(_P.parents, _P.bodies, _P.joints, cuts=None),
         ModelError, "cuts must be a sequence"),
    Case("system.System-cuts-item", lambda: system.System(_P.parents, _P.bodies, _P.joints, cuts=[(0, 1)]),
         ModelError, r"cuts\[0\] is tuple, not a Cut"),
    Case("system.cut_residuals-state", lambda: system.cut_residuals(_P, (np.zeros(6), None)), ModelError,
         "state.yd"),
    Case("system.cut_residuals-system", lambda: system.cut_residuals("loop", _PS), ModelError, "system must be"),
    Case("system.require_tree-system", lambda: system.require_tree(None, "here"), ModelError,
         "here: system must be"),
    Case("system.require_tree-cuts", lambda: system.require_tree(_PC, "rfda.solve"), ModelError,
         "rfda.solve: system .* has 1 cut joint"),
    Case("system.check_consistency-cut", lambda: system.check_consistency(_PC, _PS), ConstraintViolationError,
         r"violates cut joint 0 \('cut 1-ground'"),
    Case("dae.forward_dynamics-cut-open", lambda: dae.forward_dynamics(_PC, _PS), ConstraintViolationError,
         "violates cut joint 0"),
    Case("dae.cut_rows-terms", lambda: dae.cut_rows(_PC, _TR), ModelError, "dae.cut_rows: tr must be the Terms"),
    Case("dae.cut_rows-system", lambda: dae.cut_rows(None, _TR), ModelError, "system must be"),
    Case("models.random_state-cuts", lambda: models.random_state(_PC, seed=0), ModelError,
         "has cut joints .*do not close them"),
    Case("rfda.forward_dynamics-cuts", lambda: rfda.forward_dynamics(_PC, _PS), ModelError, "needs a tree"),
    # dae
    Case("dae.forward_dynamics-system", lambda: dae.forward_dynamics("sys", _PS), ModelError, "system must be"),
    Case("dae.forward_dynamics-offpin", lambda: dae.forward_dynamics(_P, _off_pin()), ConstraintViolationError,
         "violates joint 1"),
    Case("dae.forward_dynamics-extra", lambda: dae.forward_dynamics(_P, _PS, extra=np.eye(6)), ModelError,
         "extra must be a pair"),
    Case("dae.forward_dynamics-extra-shape", lambda: dae.forward_dynamics(_P, _PS, extra=(np.eye(3), [0, 0, 0])),
         ModelError, "extra C_x has shape"),
    Case("dae.forward_dynamics-extra-dup", lambda: dae.forward_dynamics(
        _P, _PS, extra=(dae.assemble(_P, _PS)[0][6:7, :6], [dae.assemble(_P, _PS)[1][6]])), ConstraintRankError,
         "extra row 0"),
    Case("dae.assemble-state", lambda: dae.assemble(_P, (np.zeros(6), np.zeros(5))), ModelError, "state.yd"),
    Case("dae.assemble_terms-terms", lambda: dae.assemble_terms(_P, "terms"), ModelError, "Terms"),
    Case("dae.solve-system", lambda: dae.solve(None, _TR), ModelError, "system must be"),
    # rfda
    Case("rfda.forward_dynamics-form", lambda: rfda.forward_dynamics(_P, _PS, form="aba"), ModelError, "form='aba'"),
    Case("rfda.forward_dynamics-form-None", lambda: rfda.forward_dynamics(_P, _PS, form=None), ModelError, "form"),
    Case("rfda.forward_dynamics-offpin", lambda: rfda.forward_dynamics(_P, _off_pin()), ConstraintViolationError,
         "violates joint 1"),
    Case("rfda.forward_dynamics-tau-nan", lambda: rfda.forward_dynamics(_P, _PS, tau=[np.nan] * 4), ModelError,
         r"tau\[0\] is nan"),
    Case("rfda.forward_dynamics-tau-str", lambda: rfda.forward_dynamics(_P, _PS, tau="one"), ModelError, "tau"),
    Case("rfda.forward_dynamics-state", lambda: rfda.forward_dynamics(_S, _zero_quat()), ModelError, "all zero"),
    Case("rfda.solve-terms", lambda: rfda.solve(_P, None), ModelError, "Terms"),
    Case("rfda.solve-system", lambda: rfda.solve("x", _TR), ModelError, "system must be"),
    Case("rfda.joint_accelerations-ydd", lambda: rfda.joint_accelerations(_P, _TR, np.zeros(5)), ModelError,
         r"ydd has shape \(5,\)"),
    Case("rfda.joint_accelerations-nan", lambda: rfda.joint_accelerations(_P, _TR, [np.nan] * 6), ModelError,
         r"ydd\[0\] is nan"),
]

COVERED: list = ["tree.validate_parents", "tree.Topology", "bodies.Body", "bodies.npos", "bodies.nvel",
                 "bodies.ndim", "bodies.skew", "bodies.planar_rotation", "bodies.euler_params_to_matrix",
                 "bodies.matrix_to_euler_params", "bodies.frame_with_z", "bodies.rotation", "bodies.mass_matrix",
                 "bodies.force", "joints.Joint", "joints.evaluate", "joints.joint_pose", "joints.nq", "joints.ndof",
                 "joints.random_joint_position", "joints.position_residual", "system.System", "system.State",
                 "system.check_state", "system.terms", "system.check_consistency", "system.body_slices",
                 "system.check_terms", "bodies.unit_euler", "joints.Phi", "system.constraint_residuals",
                 "system.Terms", "dae.forward_dynamics", "dae.assemble", "dae.assemble_terms", "dae.solve",
                 "rfda.forward_dynamics", "rfda.solve", "rfda.joint_accelerations", "models.universal_chain",
                 "system.Cut", "system.cut_residuals", "system.require_tree", "dae.cut_rows"]
EXEMPT: dict = {
    "joints.JointTerms": "a plain record (NamedTuple) returned by joints.evaluate; never built by users",
    "dae.DAEResult": "a result record returned by dae.forward_dynamics; never built by users",
    "rfda.RFDAResult": "a result record returned by rfda.forward_dynamics; never built by users",
}
for _name in ("summary.count_by_kind", "summary.html_table", "summary.samples"):
    EXEMPT[_name] = ("formats the fields of an already validated record for its __repr__ or _repr_html_; "
                     "no public function passes it user input")
for _name in ("errors.RFDAError", "errors.TopologyError", "errors.ConstraintRankError",
              "errors.SingularCoordinateSelectionError", "errors.ModelError", "errors.ConstraintViolationError",
              "errors.IllConditionedError", "errors.RFDAWarning"):
    EXEMPT[_name] = "an exception class"

# complex numbers are refused at the validation layer (numpy would drop the imaginary part with only a
# ComplexWarning): issue 23
from rfda_teach import coordinates as _co, jointspace as _js  # noqa: E402
from rfda_teach.exercises import check_crba as _check_crba  # noqa: E402

_Z = _PS.y.astype(complex) + 1e-3j
CASES += [
    Case("rfda.forward_dynamics-y-complex",
         lambda: rfda.forward_dynamics(_P, system.State(_Z, _PS.yd)), ModelError, r"y has complex entries"),
    Case("dae.forward_dynamics-yd-complex",
         lambda: dae.forward_dynamics(_P, system.State(_PS.y, _PS.yd + 1j)), ModelError, r"complex entries"),
    Case("bodies.skew-complex", lambda: bodies.skew([1.0, 2j, 0.0]), ModelError, r"complex entries"),
    Case("bodies.Body-inertia-object-complex", lambda: Body("spatial", 1.0, np.array([[1, 0, 0], [0, 1, 0],
                                                                                      [0, 0, 1j]], dtype=object)),
         ModelError, r"complex entries"),
    Case("exercises.check_crba-n_cases-huge", lambda: _check_crba(lambda *a: None, n_cases=10 ** 7), ModelError,
         r"n_cases is 10000000; give an integer <= 10000"),
]
CASES += [
    Case("dae.forward_dynamics-too-large", lambda: dae.forward_dynamics(models.chain(1100, "spatial"),
                                                                         models.random_state(models.chain(1100, "spatial"))),
         ModelError, r"dense 12100 x 12100 matrix .* use rfda.forward_dynamics"),
    Case("models.universal_chain-n", lambda: models.universal_chain(0), ModelError, r"n \(the number of bodies\)"),
    Case("models.universal_chain-seed", lambda: models.universal_chain(2, seed="x"), ModelError, r"seed"),
    Case("models.universal_chain-gravity", lambda: models.universal_chain(2, gravity=(0.0, 0.0)), ModelError,
         r"gravity"),
    Case("models.random_tree-n-huge", lambda: models.random_tree(10 ** 7), ModelError, r"give an integer <= 20000"),
]

# rfda_teach.spatial (issue 22): every function validates with check=True (the default)
from rfda_teach import spatial as _sp  # noqa: E402
CASES += [
    Case("spatial.skew-nan", lambda: _sp.skew([0.0, np.nan, 1.0]), ModelError, r"a\[1\] is nan"),
    Case("spatial.skew-short", lambda: _sp.skew([1.0, 2.0]), ModelError, r"a has shape \(2,\)"),
    Case("spatial.cross-b-str", lambda: _sp.cross([1.0, 0, 0], "xyz"), ModelError, r"b must be an array"),
    Case("spatial.planar_rotation-str", lambda: _sp.planar_rotation("pi"), ModelError, r"phi must be a real number"),
    Case("spatial.planar_cross-a-3", lambda: _sp.planar_cross(1.0, [1.0, 0, 0]), ModelError, r"a has shape \(3,\)"),
    Case("spatial.unit_euler-zero", lambda: _sp.unit_euler([0.0] * 4), ModelError, r"all zero"),
    Case("spatial.euler_params_to_matrix-norm", lambda: _sp.euler_params_to_matrix([2.0, 0, 0, 0]), ModelError,
         r"norm 2, not 1"),
    Case("spatial.matrix_to_euler_params-shear", lambda: _sp.matrix_to_euler_params(np.eye(3) + 0.1), ModelError,
         r"R"),
    Case("spatial.elementary_rotation-axis", lambda: _sp.elementary_rotation("w", 0.1), ModelError, r"axis"),
    Case("spatial.elementary_rotation-angle-inf", lambda: _sp.elementary_rotation("x", np.inf), ModelError,
         r"angle is inf"),
]
COVERED += ["spatial.skew", "spatial.cross", "spatial.planar_rotation", "spatial.planar_cross", "spatial.unit_euler",
            "spatial.euler_params_to_matrix", "spatial.matrix_to_euler_params", "spatial.elementary_rotation"]
CASES += [
    Case("spatial.planar_transform-p-3", lambda: _sp.planar_transform([1.0, 0, 0], 0.1), ModelError,
         r"p has shape \(3,\)"),
    Case("spatial.planar_transform-phi-nan", lambda: _sp.planar_transform([1.0, 0], np.nan), ModelError, r"phi is nan"),
    Case("spatial.scalar_first-short", lambda: _sp.scalar_first([0.0, 0, 1]), ModelError, r"q has shape \(3,\)"),
    Case("spatial.scalar_last-str", lambda: _sp.scalar_last("wxyz"), ModelError, r"e must be an array"),
    Case("spatial.axis_angle_to_euler_params-zero", lambda: _sp.axis_angle_to_euler_params([0.0, 0, 0], 1.0),
         ModelError, r"axis is the zero vector"),
    Case("spatial.axis_angle_to_euler_params-angle", lambda: _sp.axis_angle_to_euler_params([0.0, 0, 1], "pi"),
         ModelError, r"angle must be a real number"),
    Case("spatial.euler_params_product-b-nan", lambda: _sp.euler_params_product([1.0, 0, 0, 0], [np.nan, 0, 0, 0]),
         ModelError, r"b\[0\] is nan"),
    Case("spatial.euler_E-norm", lambda: _sp.euler_E([1.0, 1.0, 0, 0]), ModelError, r"not 1"),
    Case("spatial.euler_G-zero", lambda: _sp.euler_G([0.0] * 4), ModelError, r"all zero"),
    Case("spatial.euler_params_rate-frame", lambda: _sp.euler_params_rate([1.0, 0, 0, 0], [0, 0, 1.0], frame="world"),
         ModelError, r"frame='world' is not known"),
    Case("spatial.euler_params_rate-omega-short", lambda: _sp.euler_params_rate([1.0, 0, 0, 0], [0, 1.0]),
         ModelError, r"omega has shape \(2,\)"),
    Case("spatial.shift-r-4", lambda: _sp.shift([1.0, 0, 0, 0]), ModelError, r"r has shape \(4,\)"),
    Case("spatial.force_shift-r-inf", lambda: _sp.force_shift([np.inf, 0]), ModelError, r"r\[0\] is inf"),
    Case("spatial.order_permutation-n", lambda: _sp.order_permutation(4), ModelError, r"n=4 is not known"),
    Case("spatial.rotate_inertia-R-shear", lambda: _sp.rotate_inertia(np.eye(3), np.eye(3) + 0.1), ModelError,
         r"R is not a rotation matrix"),
    Case("spatial.rotate_inertia-J-asym", lambda: _sp.rotate_inertia([[1, 2, 0], [0, 1, 0], [0, 0, 1]], np.eye(3)),
         ModelError, r"J is not symmetric"),
    Case("spatial.parallel_axis-m-neg", lambda: _sp.parallel_axis(-1.0, np.eye(3), [0, 0, 1.0]), ModelError,
         r"m is -1.0; it must be > 0"),
    Case("spatial.parallel_axis-c-planar-for-3x3", lambda: _sp.parallel_axis(1.0, np.eye(3), [0, 1.0]), ModelError,
         r"c has shape \(2,\); a 3x3 J"),
    Case("spatial.spatial_inertia-J-indefinite", lambda: _sp.spatial_inertia(1.0, -np.eye(3)), ModelError,
         r"not positive definite"),
    Case("spatial.spatial_inertia-J-planar-neg", lambda: _sp.spatial_inertia(1.0, -0.5, [0, 1.0]), ModelError,
         r"J is -0.5; it must be > 0"),
]
COVERED += ["spatial.planar_transform", "spatial.scalar_first", "spatial.scalar_last",
            "spatial.axis_angle_to_euler_params", "spatial.euler_params_product", "spatial.euler_E", "spatial.euler_G",
            "spatial.euler_params_rate", "spatial.shift", "spatial.force_shift", "spatial.order_permutation",
            "spatial.rotate_inertia", "spatial.parallel_axis", "spatial.spatial_inertia"]
