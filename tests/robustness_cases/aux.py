"""Bad-input cases for coordinates, symbolic, simulate, models, viz, benchmark
(format: tests/robustness_cases/__init__.py)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import sympy as sp  # noqa: E402

from rfda_teach import benchmark, coordinates as co, models, simulate, symbolic, viz  # noqa: E402
from rfda_teach.errors import ConstraintRankError, ConstraintViolationError, ModelError  # noqa: E402
from rfda_teach.tree import Topology  # noqa: E402

from robustness_cases import Case  # noqa: E402

_P = models.planar_revolute_pair()
_PS = models.random_state(_P, seed=0)
_T2 = lambda y: np.eye(6)[:, :2]          # a velocity map for viz.mode_flows (pair: 6 coordinates)
_C2 = models.chain(2)
_C2S = models.random_state(_C2, seed=0)
_SP = models.random_tree(2, kind="spatial", seed=1)
_SPS = models.random_state(_SP, seed=1)
_G = np.array([[1.0, 0.0, 0.3], [0.0, 1.0, -0.2]])
_M3 = np.diag([2.0, 2.0, 0.5])
_E, _D = co.null_space_E_D(_G)
_I2 = np.eye(2)
_SL = [slice(0, 1), slice(1, 2)]
_TOPO = Topology.from_parents([-1, 0, 0])
_J = np.eye(2)
_Z = np.zeros((2, 1))
_FS = symbolic.featherstone_sliders()
_PAIR = symbolic.planar_revolute_pair()


def _off_pin():
    y = _PS.y.copy()
    y[4] += 0.3                                  # body 1, 0.3 m off its pin
    return (y, _PS.yd)


def _shifted():                                  # y one entry too long, yd one too short
    return (np.append(_C2S.y, 0.0), _C2S.yd[:-1])


def _euler(scale):
    y = _SPS.y.copy()
    y[3:7] *= scale
    return (y, _SPS.yd)


def _nan_yd():
    yd = _C2S.yd.copy()
    yd[1] = np.nan
    return (_C2S.y, yd)


def _dae():
    from rfda_teach import dae
    return dae.forward_dynamics(_P, _PS)


_Q1 = [np.zeros(1), np.zeros(1)]

CASES: list = [
    # coordinates -------------------------------------------------------------------------------
    Case("coordinates.appendix_a-singular", lambda: co.appendix_a(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0]])),
         ConstraintRankError, r"\[G; G_d\].*singular"),
    Case("coordinates.appendix_a-nearly-singular",
         lambda: co.appendix_a(np.array([[1.0, 0.0]]), np.array([[1.0, 1e-17]])), ConstraintRankError, "singular"),
    Case("coordinates.appendix_a-G_d-shape", lambda: co.appendix_a(_G, np.eye(3)), ModelError, "G_d has shape"),
    Case("coordinates.appendix_a-G-str", lambda: co.appendix_a("G", np.eye(1)), ModelError, "G must be an array"),
    Case("coordinates.appendix_a-nan", lambda: co.appendix_a(np.array([[np.nan, 0.0]]), np.array([[0.0, 1.0]])),
         ModelError, r"G\[.*\] is nan"),
    Case("coordinates.appendix_a-Q-without-Q_d",
         lambda: co.appendix_a(np.array([[1.0, 0]]), np.array([[0.0, 1]]), Q=np.array([[-1.0, 0]])),
         ModelError, "Q_d is None"),
    Case("coordinates.appendix_a-gamma-length",
         lambda: co.appendix_a(np.array([[1.0, 0]]), np.array([[0.0, 1]]), gamma=[1.0, 2.0], gamma_d=[0.0]),
         ModelError, "gamma has shape"),
    Case("coordinates.null_space_E_D-rank", lambda: co.null_space_E_D(np.array([[1.0, 0, 0], [2.0, 0, 0]])),
         ConstraintRankError, "G has 2 rows but rank 1"),
    Case("coordinates.null_space_E_D-None", lambda: co.null_space_E_D(None), ModelError, "G must be an array"),
    Case("coordinates.null_space_E_D-inf", lambda: co.null_space_E_D(np.array([[np.inf, 1.0]])), ModelError,
         r"G\[.*\] is inf"),
    Case("coordinates.condition_1-rows", lambda: co.condition_1(_G, np.ones((2, 1))), ModelError,
         "D_tilde has shape"),
    Case("coordinates.condition_1-tol", lambda: co.condition_1(_G, _D, tol=-1.0), ModelError, "tol"),
    Case("coordinates.condition_1-str", lambda: co.condition_1(_G, "D"), ModelError, "D_tilde"),
    Case("coordinates.condition_2-M-shape", lambda: co.condition_2(np.ones((3, 2)), _E, _D), ModelError,
         "M has shape"),
    Case("coordinates.condition_2-nan", lambda: co.condition_2(_M3, _E * np.nan, _D), ModelError, "E_tilde"),
    Case("coordinates.condition_2-tol-str", lambda: co.condition_2(_M3, _E, _D, tol="small"), ModelError, "tol"),
    Case("coordinates.method_1-D-rank", lambda: co.method_1(_M3, _G, np.zeros((3, 1))), ConstraintRankError,
         "D has 1 columns but rank 0"),
    Case("coordinates.method_1-M-singular", lambda: co.method_1(np.zeros((3, 3)), _G, _D), ModelError,
         "M is singular"),
    Case("coordinates.method_1-G-rank", lambda: co.method_1(_M3, np.array([[1.0, 0, 0], [2.0, 0, 0]]), _D),
         ConstraintRankError, "G has 2 rows but rank 1"),
    Case("coordinates.method_1-C_c", lambda: co.method_1(_M3, _G, _D, C_c=np.zeros((2, 2))), ModelError,
         "C_c must be a non-singular"),
    Case("coordinates.method_2-D-rank", lambda: co.method_2(_M3, _E, np.zeros((3, 1))), ConstraintRankError,
         r"D\^T M D.*singular"),
    Case("coordinates.method_2-M-singular", lambda: co.method_2(np.zeros((3, 3)), _E, _D), ConstraintRankError,
         "singular"),
    Case("coordinates.method_2-E-rows", lambda: co.method_2(_M3, np.ones((2, 2)), _D), ModelError,
         "E has shape"),
    Case("coordinates.method_2-None", lambda: co.method_2(None, _E, _D), ModelError, "M must be an array"),
    Case("coordinates.S_a-singular", lambda: co.S_a(_G, np.eye(2), np.array([[1.0, 0], [1.0, 0], [0, 0]])),
         ConstraintRankError, "G E_tilde.*singular"),
    Case("coordinates.S_a-Q-rows", lambda: co.S_a(_G, np.eye(3), _E), ModelError, "Q has shape"),
    Case("coordinates.S_a-nu-nan", lambda: co.S_a(_G, None, _E, nu=[np.nan, 0.0]), ModelError,
         r"nu\[0\] is nan"),
    Case("coordinates.appendix_b-shape", lambda: co.appendix_b(np.eye(3), np.eye(2)), ModelError, "T has shape"),
    Case("coordinates.appendix_b-nonsquare", lambda: co.appendix_b(np.eye(2), np.ones((2, 3))), ModelError,
         "M_u has shape"),
    Case("coordinates.appendix_b-str", lambda: co.appendix_b("T", np.eye(2)), ModelError, "T must be an array"),
    Case("coordinates.two_node-singular",
         lambda: co.two_node(_J, _J, np.array([[1.0, 0]]), np.array([[-1.0, 0]]), np.array([[0.0], [1]]),
                             np.array([[0.0], [1]])), ConstraintRankError, "G E_tilde.*singular"),
    Case("coordinates.two_node-Q-shape",
         lambda: co.two_node(_J, _J, np.array([[1.0, 0]]), np.eye(2), np.array([[1.0], [0]]),
                             np.array([[0.0], [1]])), ModelError, "Q_k has shape"),
    Case("coordinates.two_node-None",
         lambda: co.two_node(None, _J, np.array([[1.0, 0]]), np.array([[-1.0, 0]]), np.array([[1.0], [0]]),
                             np.array([[0.0], [1]])), ModelError, "M_j must be an array"),
    Case("coordinates.rfda_coordinates-method", lambda: co.rfda_coordinates(_P, _PS, method="method3"),
         ModelError, "method='method3'"),
    Case("coordinates.rfda_coordinates-system", lambda: co.rfda_coordinates("tree", _PS), ModelError,
         "system must be a System"),
    Case("coordinates.rfda_coordinates-state", lambda: co.rfda_coordinates(_P, (_PS.y[:-1], _PS.yd)),
         ModelError, r"state\.y has shape"),
    Case("coordinates.rfda_coordinates-C_c", lambda: co.rfda_coordinates(_P, _PS, method="method1", C_c=[1.0]),
         ModelError, "C_c must be a dict"),
    Case("coordinates.rfda_coordinates-t", lambda: co.rfda_coordinates(_P, _PS, t=float("nan")), ModelError,
         "t is nan"),
    Case("coordinates.members-range", lambda: co.members(_P, 5), ModelError, "j is 5"),
    Case("coordinates.members-negative", lambda: co.members(_P, -1), ModelError, "j is -1"),
    Case("coordinates.members-str", lambda: co.members(_P, "0"), ModelError, "j must be an integer"),
    Case("coordinates.subtree_mass_matrix-nodes", lambda: co.subtree_mass_matrix(_P, _PS, [0, 7]), ModelError,
         r"nodes\[\] is 7"),
    Case("coordinates.subtree_mass_matrix-None", lambda: co.subtree_mass_matrix(_P, _PS, None), ModelError,
         "nodes must be a sequence"),
    Case("coordinates.subtree_mass_matrix-system", lambda: co.subtree_mass_matrix(None, _PS, [0]), ModelError,
         "system must be a System"),
    Case("coordinates.compare_methods-singular-M_k",
         lambda: co.compare_methods(_M3, np.zeros((3, 3)), _G, np.eye(2, 3), np.array([[0, 0, 1.0]])),
         ModelError, "M is singular"),
    Case("coordinates.compare_methods-G_kd",
         lambda: co.compare_methods(_M3, _M3, _G, np.eye(2, 3), np.array([[1.0, 0, 0.3]])),
         ConstraintRankError, r"\[G; G_d\].*singular"),
    Case("coordinates.compare_methods-Q_k", lambda: co.compare_methods(_M3, _M3, _G, np.eye(3), np.eye(1, 3)),
         ModelError, "Q_k has shape"),
    Case("coordinates.loop_integral-W", lambda: co.loop_integral(np.eye(2), [np.zeros(2), np.ones(2)]),
         ModelError, "W must be a callable"),
    Case("coordinates.loop_integral-path", lambda: co.loop_integral(lambda y: np.eye(2), [np.zeros(2)]),
         ModelError, "path must be a sequence"),
    Case("coordinates.loop_integral-lengths",
         lambda: co.loop_integral(lambda y: np.eye(2), [np.zeros(2), np.ones(3)]), ModelError, r"path\[1\]"),
    Case("coordinates.loop_integral-W-nan",
         lambda: co.loop_integral(lambda y: np.full((2, 2), np.nan), [np.zeros(2), np.ones(2)]), ModelError,
         r"W\(y\)"),
    # symbolic ----------------------------------------------------------------------------------
    Case("symbolic.appendix_a-singular",
         lambda: symbolic.appendix_a(sp.Matrix([[1, 0]]), sp.Matrix([[2, 0]]), sp.Matrix([[1, 0]]),
                                     sp.Matrix([[0, 1]])), ConstraintRankError, r"\[G; G_d\].*singular"),
    Case("symbolic.appendix_a-str",
         lambda: symbolic.appendix_a("G", sp.Matrix([[2, 0]]), sp.Matrix([[1, 0]]), sp.Matrix([[0, 1]])),
         ModelError, "G must be a sympy Matrix"),
    Case("symbolic.appendix_a-G_d-shape",
         lambda: symbolic.appendix_a(sp.Matrix([[1, 0]]), sp.eye(2), sp.Matrix([[1, 0]]), sp.Matrix([[0, 1]])),
         ModelError, "G_d has shape"),
    Case("symbolic.method_2-singular", lambda: symbolic.method_2(sp.eye(2), sp.Matrix([1, 0]), sp.Matrix([0, 0])),
         ConstraintRankError, r"D\^T M D.*singular"),
    Case("symbolic.method_2-None", lambda: symbolic.method_2(None, sp.Matrix([1, 0]), sp.Matrix([0, 1])),
         ModelError, "M must be a sympy Matrix"),
    Case("symbolic.method_2-nan",
         lambda: symbolic.method_2(sp.Matrix([[1, sp.nan], [0, 1]]), sp.Matrix([1, 0]), sp.Matrix([0, 1])),
         ModelError, "M contains nan"),
    Case("symbolic.method_2-list-of-str", lambda: symbolic.method_2([[1, "a"]], sp.Matrix([1, 0]),
                                                                    sp.Matrix([0, 1])), ModelError, "M must be"),
    Case("symbolic.lubich-singular-M_k",
         lambda: symbolic.lubich(sp.eye(2), sp.zeros(2, 1), [(sp.zeros(2, 2), sp.zeros(2, 1), sp.Matrix([[1, 0]]),
                                                              sp.Matrix([[1, 0]]), sp.zeros(1, 1))]),
         ModelError, r"children\[0\] M_k is singular"),
    Case("symbolic.lubich-rank-G_k",
         lambda: symbolic.lubich(sp.eye(2), sp.zeros(2, 1), [(sp.eye(2), sp.zeros(2, 1), sp.Matrix([[1, 0], [2, 0]]),
                                                              sp.zeros(2, 2), sp.zeros(2, 1))]),
         ConstraintRankError, "G_k M_k\\^-1 G_k\\^T"),
    Case("symbolic.lubich-children-None", lambda: symbolic.lubich(sp.eye(2), sp.zeros(2, 1), None), ModelError,
         "children must be a list"),
    Case("symbolic.lubich-child-tuple", lambda: symbolic.lubich(sp.eye(2), sp.zeros(2, 1), [(sp.eye(2),)]),
         ModelError, r"children\[0\] must be a tuple"),
    Case("symbolic.lubich-f_j-shape", lambda: symbolic.lubich(sp.eye(2), sp.zeros(3, 1), []), ModelError,
         "f_j has shape"),
    Case("symbolic.featherstone-singular",
         lambda: symbolic.featherstone(sp.eye(2), sp.zeros(2, 1), [(sp.eye(2), sp.zeros(2, 1), sp.eye(2),
                                                                    sp.zeros(2, 1), sp.zeros(2, 1))]),
         ConstraintRankError, r"H_k\^T M_k H_k.*singular"),
    Case("symbolic.featherstone-None", lambda: symbolic.featherstone(sp.eye(2), None, []), ModelError,
         "f_j must be a sympy Matrix"),
    Case("symbolic.featherstone-B_k-shape",
         lambda: symbolic.featherstone(sp.eye(2), sp.zeros(2, 1), [(sp.eye(2), sp.zeros(2, 1), sp.eye(3),
                                                                    sp.Matrix([0, 1]), sp.zeros(2, 1))]),
         ModelError, "B_k has shape"),
    Case("symbolic.planar_rotation-str", lambda: symbolic.planar_rotation("x"), ModelError, "phi must be"),
    Case("symbolic.planar_rotation-None", lambda: symbolic.planar_rotation(None), ModelError, "phi must be"),
    Case("symbolic.planar_rotation-nan", lambda: symbolic.planar_rotation(float("nan")), ModelError, "phi is nan"),
    Case("symbolic.M_hat_11_printed-int", lambda: symbolic.M_hat_11_printed(3), ModelError, "p must be"),
    Case("symbolic.M_hat_11_printed-sliders", lambda: symbolic.M_hat_11_printed(_FS), ModelError, "p must be"),
    Case("symbolic.A_tilde_printed-None", lambda: symbolic.A_tilde_printed(None), ModelError, "p must be"),
    Case("symbolic.A_tilde_printed-dict", lambda: symbolic.A_tilde_printed({"m_k": 1}), ModelError, "p must be"),
    Case("symbolic.E_D_eq36-str", lambda: symbolic.E_D_eq36("pair"), ModelError, "p must be"),
    Case("symbolic.E_D_eq36-sliders", lambda: symbolic.E_D_eq36(_FS), ModelError, "p must be"),
    Case("symbolic.rational-none", lambda: symbolic.rational(), ModelError, "at least one matrix"),
    Case("symbolic.rational-str", lambda: symbolic.rational("M"), ModelError, "must be a sympy Matrix"),
    Case("symbolic.rational-trig", lambda: symbolic.rational(sp.Matrix([[sp.cos(sp.Symbol("t"))]])), ModelError,
         "not a rational function"),
    # simulate ----------------------------------------------------------------------------------
    Case("simulate.simulate-shifted", lambda: simulate.simulate(_C2, _shifted(), 0.1), ModelError,
         r"state\.y has shape \(7,\)"),
    Case("simulate.simulate-euler", lambda: simulate.simulate(_SP, _euler(1.01), 0.1), ModelError,
         "Euler parameters"),
    Case("simulate.simulate-off-pin", lambda: simulate.simulate(_P, _off_pin(), 0.1), ConstraintViolationError,
         r"joint 1.*0\.3"),
    Case("simulate.simulate-t_final-None", lambda: simulate.simulate(_C2, _C2S, None), ModelError, "t_final"),
    Case("simulate.simulate-t_final-str", lambda: simulate.simulate(_C2, _C2S, "2"), ModelError, "t_final"),
    Case("simulate.simulate-t_final-zero", lambda: simulate.simulate(_C2, _C2S, 0.0), ModelError, "t_final"),
    Case("simulate.simulate-t_final-negative", lambda: simulate.simulate(_C2, _C2S, -1.0), ModelError, "t_final"),
    Case("simulate.simulate-t_final-inf", lambda: simulate.simulate(_C2, _C2S, float("inf")), ModelError,
         "t_final is inf"),
    Case("simulate.simulate-n_out-zero", lambda: simulate.simulate(_C2, _C2S, 0.1, n_out=0), ModelError, "n_out"),
    Case("simulate.simulate-n_out-negative", lambda: simulate.simulate(_C2, _C2S, 0.1, n_out=-5), ModelError,
         "n_out"),
    Case("simulate.simulate-n_out-float", lambda: simulate.simulate(_C2, _C2S, 0.1, n_out=10.0), ModelError,
         "n_out must be an integer"),
    Case("simulate.simulate-form", lambda: simulate.simulate(_C2, _C2S, 0.1, form="rk4"), ModelError, "form='rk4'"),
    Case("simulate.simulate-rtol", lambda: simulate.simulate(_C2, _C2S, 0.1, rtol=-1e-9), ModelError, "rtol"),
    Case("simulate.simulate-tau", lambda: simulate.simulate(_C2, _C2S, 0.1, tau=[1.0]), ModelError,
         "tau has shape"),
    Case("simulate.simulate-t_eval", lambda: simulate.simulate(_C2, _C2S, 0.1, t_eval=[0.0, 0.5]), ModelError,
         "t_eval"),
    Case("simulate.simulate-system", lambda: simulate.simulate(None, _C2S, 0.1), ModelError,
         "system must be a System"),
    Case("simulate.simulate-state-None", lambda: simulate.simulate(_C2, None, 0.1), ModelError, "state"),
    Case("simulate.span-t_final", lambda: simulate.span(-1.0, where="x.simulate"), ModelError,
         r"x.simulate: t_final is -1.0"),
    Case("simulate.span-both", lambda: simulate.span(1.0, t_eval=[0.0, 1.0], n_out=3), ModelError,
         "t_eval or n_out, not both"),
    Case("simulate.span-n_out", lambda: simulate.span(1.0, n_out=1), ModelError, "n_out is 1"),
    Case("simulate.span-t_eval", lambda: simulate.span(1.0, t_eval=[0.0, 2.0]), ModelError, "t_eval has times outside"),
    Case("simulate.span-atol", lambda: simulate.span(1.0, atol=0.0), ModelError, "atol is 0.0"),
    Case("simulate.span-method", lambda: simulate.span(1.0, method="euler"), ModelError, "method='euler' is not known"),
    Case("simulate.integrate-rhs", lambda: simulate.integrate(None, [1.0], simulate.span(1.0)), ModelError,
         "rhs must be a function"),
    Case("simulate.integrate-span", lambda: simulate.integrate(lambda t, x: -x, [1.0], 1.0), ModelError,
         "span must be a Span"),
    Case("simulate.integrate-x0", lambda: simulate.integrate(lambda t, x: -x, [np.nan], simulate.span(1.0)),
         ModelError, r"x0\[0\] is nan"),
    Case("simulate.energy-nan", lambda: simulate.energy(_C2, _nan_yd()), ModelError, r"yd\[1\] is nan"),
    Case("simulate.energy-shifted", lambda: simulate.energy(_C2, _shifted()), ModelError, r"state\.y has shape"),
    Case("simulate.energy-euler", lambda: simulate.energy(_SP, _euler(0.0)), ModelError, "Euler parameters"),
    Case("simulate.energy-system", lambda: simulate.energy("chain", _C2S), ModelError, "system must be a System"),
    Case("simulate.position_rate-length", lambda: simulate.position_rate(_C2, _C2S.y[:-1], _C2S.yd), ModelError,
         "y has shape"),
    Case("simulate.position_rate-nan", lambda: simulate.position_rate(_C2, _C2S.y, _nan_yd()[1]), ModelError,
         r"yd\[1\] is nan"),
    Case("simulate.position_rate-None", lambda: simulate.position_rate(_C2, None, _C2S.yd), ModelError,
         "y must be an array"),
    # models ------------------------------------------------------------------------------------
    Case("models.random_state-speed-nan", lambda: models.random_state(_C2, seed=0, speed=float("nan")),
         ModelError, "speed is nan"),
    Case("models.random_state-speed-negative", lambda: models.random_state(_C2, seed=0, speed=-1.0), ModelError,
         "speed"),
    Case("models.random_state-seed-negative", lambda: models.random_state(_C2, seed=-1), ModelError, "seed is -1"),
    Case("models.random_state-seed-float", lambda: models.random_state(_C2, seed=1.5), ModelError, "seed is 1.5"),
    Case("models.random_state-seed-str", lambda: models.random_state(_C2, seed="3"), ModelError, "seed is '3'"),
    Case("models.random_state-system", lambda: models.random_state(None), ModelError, "system must be a System"),
    Case("models.state_from_joints-nan", lambda: models.state_from_joints(_C2, [np.zeros(1), [np.nan]], _Q1),
         ModelError, r"q\[1\]\[0\] is nan"),
    Case("models.state_from_joints-length", lambda: models.state_from_joints(_C2, _Q1[:1], _Q1), ModelError,
         "q has 1 entries"),
    Case("models.state_from_joints-shape", lambda: models.state_from_joints(_C2, _Q1, [np.zeros(2), np.zeros(1)]),
         ModelError, r"qd\[0\] has shape \(2,\)"),
    Case("models.state_from_joints-type", lambda: models.state_from_joints(_C2, "q", _Q1), ModelError,
         "q must be a list"),
    Case("models.state_from_joints-entry-str", lambda: models.state_from_joints(_C2, [np.zeros(1), "a"], _Q1),
         ModelError, r"q\[1\] must be an array"),
    Case("models.state_from_joints-system", lambda: models.state_from_joints(3, _Q1, _Q1), ModelError,
         "system must be a System"),
    Case("models.random_tree-zero", lambda: models.random_tree(0), ModelError, "n .* is 0"),
    Case("models.random_tree-float", lambda: models.random_tree(3.0), ModelError, "n .*must be an integer"),
    Case("models.random_tree-str", lambda: models.random_tree("3"), ModelError, "n .*must be an integer"),
    Case("models.random_tree-kind", lambda: models.random_tree(3, kind="cubic"), ModelError, "kind='cubic'"),
    Case("models.random_tree-seed", lambda: models.random_tree(3, seed=-2), ModelError, "seed is -2"),
    Case("models.random_tree-chain_bias", lambda: models.random_tree(3, chain_bias=2.0), ModelError, "chain_bias"),
    Case("models.chain-zero", lambda: models.chain(0), ModelError, "n .* is 0"),
    Case("models.chain-negative", lambda: models.chain(-3), ModelError, "n .* is -3"),
    Case("models.chain-float", lambda: models.chain(2.5), ModelError, "n .*must be an integer"),
    Case("models.chain-None", lambda: models.chain(None), ModelError, "n .*must be an integer"),
    Case("models.chain-kind", lambda: models.chain(3, kind="cubic"), ModelError, "kind='cubic'"),
    Case("models.figure1_tree-kind", lambda: models.figure1_tree("3d"), ModelError, "kind='3d'"),
    Case("models.figure1_tree-gravity", lambda: models.figure1_tree(gravity=(0.0, 1.0, 2.0)), ModelError,
         "gravity"),
    Case("models.featherstone_sliders-mass", lambda: models.featherstone_sliders(m1=-1.0), ModelError, "mass"),
    Case("models.featherstone_sliders-gravity-nan", lambda: models.featherstone_sliders(gravity=(np.nan, 0.0)),
         ModelError, "gravity"),
    Case("models.planar_revolute_pair-mass", lambda: models.planar_revolute_pair(m_k=-1.0), ModelError,
         "mass -1.0 is not positive"),
    Case("models.planar_revolute_pair-point", lambda: models.planar_revolute_pair(s_k=(np.nan, 0.0)), ModelError,
         "nan"),
    # viz ---------------------------------------------------------------------------------------
    Case("viz.plot_matrix_blocks-nan", lambda: viz.plot_matrix_blocks(np.full((2, 2), np.nan), _SL, _SL),
         ModelError, r"M\[.*\] is nan"),
    Case("viz.plot_matrix_blocks-blocks", lambda: viz.plot_matrix_blocks(_I2, [slice(0, 5)], _SL), ModelError,
         r"row_blocks\[0\]"),
    Case("viz.plot_matrix_blocks-labels", lambda: viz.plot_matrix_blocks(_I2, _SL, _SL, row_labels=["a"]),
         ModelError, "row_labels"),
    Case("viz.plot_matrix_blocks-ax", lambda: viz.plot_matrix_blocks(_I2, _SL, _SL, ax="axes"), ModelError,
         "ax must be a matplotlib Axes"),
    Case("viz.plot_eq7-result", lambda: viz.plot_eq7(_P, None), ModelError, "result must be"),
    Case("viz.plot_eq7-system", lambda: viz.plot_eq7("pair", _dae()), ModelError, "system must be a System"),
    Case("viz.plot_eq7-mismatch", lambda: viz.plot_eq7(_C2, _dae()), ModelError, "result.K has shape"),
    Case("viz.draw_planar-state", lambda: viz.draw_planar(_P, (_PS.y[:-1], _PS.yd)), ModelError,
         r"state\.y has shape"),
    Case("viz.draw_planar-spatial", lambda: viz.draw_planar(_SP, _SPS), ModelError, "planar"),
    Case("viz.draw_planar-alpha", lambda: viz.draw_planar(_P, _PS, alpha=2.0), ModelError, "alpha"),
    Case("viz.draw_planar-lw", lambda: viz.draw_planar(_P, _PS, lw=-1.0), ModelError, "lw"),
    Case("viz.mode_flows-system", lambda: viz.mode_flows("pair", _PS, _T2), ModelError, "system"),
    Case("viz.mode_flows-spatial", lambda: viz.mode_flows(_SP, _SPS, _T2), ModelError, "planar"),
    Case("viz.mode_flows-T", lambda: viz.mode_flows(_P, _PS, np.eye(6)), ModelError, "T_fn must be a function"),
    Case("viz.mode_flows-Tshape", lambda: viz.mode_flows(_P, _PS, lambda y: np.eye(5)), ModelError, r"T_fn\(y\)"),
    Case("viz.mode_flows-Tnan", lambda: viz.mode_flows(_P, _PS, lambda y: np.full((6, 2), np.nan)), ModelError,
         "nan"),
    Case("viz.mode_flows-bodies", lambda: viz.mode_flows(_P, _PS, _T2, bodies=[5]), ModelError, "beyond"),
    Case("viz.mode_flows-bodies-str", lambda: viz.mode_flows(_P, _PS, _T2, bodies="01"), ModelError, "bodies"),
    Case("viz.mode_flows-delta", lambda: viz.mode_flows(_P, _PS, _T2, delta=np.nan), ModelError, "delta"),
    Case("viz.mode_flows-titles", lambda: viz.mode_flows(_P, _PS, _T2, titles=["a"]), ModelError, "titles"),
    Case("viz.tree_layout-list", lambda: viz.tree_layout([-1, 0]), ModelError, "topology must be a Topology"),
    Case("viz.tree_layout-None", lambda: viz.tree_layout(None), ModelError, "topology must be a Topology"),
    Case("viz.draw_tree-highlight", lambda: viz.draw_tree(_TOPO, highlight=9), ModelError, "highlight is 9"),
    Case("viz.draw_tree-colors", lambda: viz.draw_tree(_TOPO, colors=["red"]), ModelError, "colors must be a dict"),
    Case("viz.draw_tree-topology", lambda: viz.draw_tree("tree"), ModelError, "topology must be a Topology"),
    Case("viz.recursion_frames-None", lambda: viz.recursion_frames(None), ModelError, "topology"),
    Case("viz.recursion_frames-system", lambda: viz.recursion_frames(_P), ModelError, "topology"),
    Case("viz.animate_recursion-interval", lambda: viz.animate_recursion(_TOPO, interval=-5), ModelError,
         "interval"),
    Case("viz.animate_recursion-topology", lambda: viz.animate_recursion([-1, 0]), ModelError, "topology"),
    Case("viz.methods_report-nan", lambda: viz.methods_report(m_k=float("nan")), ModelError, "m_k is nan"),
    Case("viz.methods_report-negative", lambda: viz.methods_report(J_k=-0.1), ModelError, "J_k"),
    Case("viz.methods_report-str", lambda: viz.methods_report(phi_k="0.5"), ModelError, "phi_k"),
    Case("viz.displacement_modes-T", lambda: viz.displacement_modes(_P, _PS, np.eye(5)), ModelError,
         "T has shape"),
    Case("viz.displacement_modes-bodies", lambda: viz.displacement_modes(_P, _PS, np.eye(3), bodies=[4]),
         ModelError, "bodies"),
    Case("viz.displacement_modes-titles", lambda: viz.displacement_modes(_P, _PS, np.eye(6)[:, :2], titles=["a"]),
         ModelError, "titles"),
    Case("viz.displacement_modes-delta", lambda: viz.displacement_modes(_P, _PS, np.eye(6)[:, :1], delta=None),
         ModelError, "delta"),
    Case("viz.kane_segments-system", lambda: viz.kane_segments(_P, np.zeros(7), np.zeros(6)), ModelError,
         "system must be a KaneSystem"),
    Case("viz.kane_segments-x", lambda: viz.kane_segments(_kane(), np.zeros(3), np.zeros(3)), ModelError,
         "x has shape"),
    Case("viz.draw_kane-system", lambda: viz.draw_kane(None, None, None), ModelError, "system must be"),
    Case("viz.draw_kane-ax", lambda: viz.draw_kane(_kane(), _kane().x0, _kane().y0, ax=_ax2d()), ModelError,
         "3-D Axes"),
    Case("viz.animate_kane-Y", lambda: viz.animate_kane(_kane(), [_kane().x0], np.zeros((2, 3))), ModelError,
         "Y has shape"),
    Case("viz.animate_kane-interval", lambda: viz.animate_kane(_kane(), [_kane().x0], [_kane().y0], interval=0),
         ModelError, "interval"),
    Case("viz.refpoint_segments-model", lambda: viz.refpoint_segments(_P, np.zeros(3)), ModelError,
         "model must be a Model"),
    Case("viz.refpoint_segments-q", lambda: viz.refpoint_segments(_car(), None), ModelError, "q"),
    Case("viz.draw_refpoint_model-road_z", lambda: viz.draw_refpoint_model(_car(), _car().q0, road_z="low"),
         ModelError, "road_z"),
    Case("viz.draw_refpoint_model-model", lambda: viz.draw_refpoint_model(None, None), ModelError, "model"),
    Case("viz.loop_segments-model", lambda: viz.loop_segments(_P, np.zeros(5)), ModelError,
         "model must be a LoopMechanism"),
    Case("viz.loop_segments-q", lambda: viz.loop_segments(_five(), np.zeros(2)), ModelError, "q has shape"),
    Case("viz.draw_loop-alpha", lambda: viz.draw_loop(_five(), _five().q0, alpha=-1.0), ModelError, "alpha"),
    Case("viz.draw_loop-ax", lambda: viz.draw_loop(_five(), _five().q0, ax=3), ModelError, "ax must be"),
    Case("viz.animate_loop-t", lambda: viz.animate_loop(_five(), [0.0, 1.0], [_five().q0]), ModelError,
         "t has shape"),
    Case("viz.animate_loop-Q", lambda: viz.animate_loop(_five(), [0.0], None), ModelError, "Q must be"),
    Case("viz.draw_series-series", lambda: viz.draw_series(_five(), [_five().q0]), ModelError,
         "series must be a LoopSeries"),
    Case("viz.draw_series-qs", lambda: viz.draw_series(_series(), None), ModelError, "qs"),
    # benchmark ---------------------------------------------------------------------------------
    Case("benchmark.time_call-fn", lambda: benchmark.time_call(None), ModelError, "fn must be a callable"),
    Case("benchmark.time_call-min_time", lambda: benchmark.time_call(lambda: 0, min_time=-1.0), ModelError,
         "min_time"),
    Case("benchmark.time_call-max_repeat", lambda: benchmark.time_call(lambda: 0, max_repeat=0), ModelError,
         "max_repeat"),
    Case("benchmark.time_forward_dynamics-method", lambda: benchmark.time_forward_dynamics(_C2, _C2S, "rk4"),
         ModelError, "method='rk4'"),
    Case("benchmark.time_forward_dynamics-stage",
         lambda: benchmark.time_forward_dynamics(_C2, _C2S, "dense", stage="all"), ModelError, "stage='all'"),
    Case("benchmark.time_forward_dynamics-system", lambda: benchmark.time_forward_dynamics(None, _C2S, "dense"),
         ModelError, "system must be a System"),
    Case("benchmark.time_forward_dynamics-kw",
         lambda: benchmark.time_forward_dynamics(_C2, _C2S, "dense", repeats=3), ModelError, "repeats"),
    Case("benchmark.time_forward_dynamics-state",
         lambda: benchmark.time_forward_dynamics(_C2, _shifted(), "lubich", min_time=0.0), ModelError,
         r"state\.y"),
    Case("benchmark.scaling-ns-negative", lambda: benchmark.scaling([-4]), ModelError, r"ns\[\] is -4"),
    Case("benchmark.scaling-ns-None", lambda: benchmark.scaling(None), ModelError, "ns must be a list"),
    Case("benchmark.scaling-family", lambda: benchmark.scaling([2], family="ring"), ModelError, "family='ring'"),
    Case("benchmark.scaling-kind", lambda: benchmark.scaling([2], kind="cubic"), ModelError, "kind='cubic'"),
    Case("benchmark.scaling-methods", lambda: benchmark.scaling([2], methods=("rk4",)), ModelError, "rk4"),
    Case("benchmark.scaling-seed", lambda: benchmark.scaling([2], seed=-1), ModelError, "seed is -1"),
    Case("benchmark.scaling-progress", lambda: benchmark.scaling([2], progress="print"), ModelError, "progress"),
    Case("benchmark.loglog_slope-short", lambda: benchmark.loglog_slope([4], [1.0]), ModelError, "at least two"),
    Case("benchmark.loglog_slope-lengths", lambda: benchmark.loglog_slope([4, 8], [1.0]), ModelError,
         "times has shape"),
    Case("benchmark.loglog_slope-nonpositive", lambda: benchmark.loglog_slope([4, 8], [1.0, 0.0]), ModelError,
         "> 0"),
    Case("benchmark.loglog_slope-None", lambda: benchmark.loglog_slope(None, [1.0]), ModelError, "ns"),
    Case("benchmark.crossover-rows", lambda: benchmark.crossover(None, "lubich"), ModelError, "rows must be"),
    Case("benchmark.crossover-keys", lambda: benchmark.crossover([{"n": 4, "dense": 1.0}], "lubich"), ModelError,
         r"rows\[0\]"),
    Case("benchmark.crossover-str", lambda: benchmark.crossover("rows", "lubich"), ModelError, "rows must be"),
    Case("simulate.project-iterations", lambda: simulate.project(_C2, _C2S, iterations=0), ModelError,
         "iterations is 0"),
    Case("simulate.project-state", lambda: simulate.project(_C2, _shifted()), ModelError, "state.y has shape"),
    Case("simulate.simulate-baumgarte", lambda: simulate.simulate(_C2, _C2S, 1.0, baumgarte=(1.0, "b")),
         ModelError, "baumgarte beta"),
    Case("simulate.residuals-system", lambda: simulate.residuals("chain", _C2S), ModelError,
         "system must be a System"),
    Case("simulate.residuals-state", lambda: simulate.residuals(_C2, _shifted()), ModelError, "state.y has shape"),
    Case("simulate.residuals-nan", lambda: simulate.residuals(_C2, _nan_yd()), ModelError, r"yd\[1\] is nan"),
    Case("simulate.simulate-cuts-form", lambda: simulate.simulate(*_closed_five(), 0.1, form="lubich"), ModelError,
         "form='lubich' is a recursion for trees.*has 1 cut joint"),
]


def _closed_five():
    """The five-bar as one System with its cut joint, and its documented start (q0, at rest)."""
    import numpy as np
    from rfda_teach import loopref, rcr
    fb = rcr.five_bar()
    return loopref.to_system(fb), loopref.chain_state(fb, fb.q0, np.zeros(5))


def _kane():
    from rfda_teach import kane
    return kane.eight_body()


def _car():
    from rfda_teach import refpoint
    return refpoint.quarter_car()


def _five():
    from rfda_teach import rcr
    return rcr.five_bar()


def _series():
    from rfda_teach import rcr
    return rcr.loop_series(2)


def _ax2d():
    import matplotlib.pyplot as plt
    return plt.figure().add_subplot()


COVERED: list = ["simulate.project", 
    *(f"coordinates.{n}" for n in ("appendix_a", "null_space_E_D", "condition_1", "condition_2", "method_1",
                                   "method_2", "S_a", "appendix_b", "two_node", "rfda_coordinates", "members",
                                   "subtree_mass_matrix", "compare_methods", "loop_integral")),
    *(f"symbolic.{n}" for n in ("lubich", "featherstone", "method_2", "appendix_a", "planar_rotation",
                                "M_hat_11_printed", "A_tilde_printed", "E_D_eq36", "rational")),
    *(f"simulate.{n}" for n in ("position_rate", "energy", "simulate", "residuals", "span", "integrate")),
    *(f"models.{n}" for n in ("featherstone_sliders", "planar_revolute_pair", "figure1_tree", "random_tree", "chain",
                              "random_state", "state_from_joints")),
    *(f"viz.{n}" for n in ("plot_eq7", "plot_matrix_blocks", "draw_planar", "mode_flows", "tree_layout", "draw_tree",
                           "recursion_frames", "animate_recursion", "methods_report", "displacement_modes",
                           "kane_segments", "draw_kane", "animate_kane", "refpoint_segments", "draw_refpoint_model",
                           "loop_segments", "draw_loop", "animate_loop", "draw_series")),
    *(f"benchmark.{n}" for n in ("time_call", "time_forward_dynamics", "scaling", "loglog_slope", "crossover")),
]

EXEMPT: dict = {
    "coordinates.ConditionCheck": "plain result record (holds, residual) returned by condition_1/condition_2",
    "coordinates.TwoNode": "plain result record returned by two_node, which validates the inputs",
    "coordinates.NodeCoordinates": "result record built by rfda_coordinates, which validates the inputs",
    "coordinates.MethodComparison": "plain result record returned by compare_methods",
    "simulate.Trajectory": "plain result record returned by simulate",
    "simulate.Span": "plain record of checked options, built by simulate.span, which validates them",
    "simulate.Integration": "plain result record returned by simulate.integrate",
    "simulate.Motion": "plain result record (t, q, qd) of refpoint.simulate and loopref.dae_simulate / sympy_simulate",
    "symbolic.featherstone_sliders": "takes no arguments (the symbols of eq. 13-14)",
    "symbolic.planar_revolute_pair": "takes no arguments (the symbols of §3.2.1)",
    "viz.methods_panel": "takes no arguments (a panel.Panel description; its text is methods_report, covered)",
}
