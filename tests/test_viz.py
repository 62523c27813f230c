import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from rfda_teach import dae, models, viz  # noqa: E402


def test_plot_eq7_draws_every_nonzero_and_labels_small_systems():
    sys_ = models.planar_revolute_pair()
    res = dae.forward_dynamics(sys_, models.random_state(sys_, seed=0))
    ax = viz.plot_eq7(sys_, res)
    img = ax.images[0].get_array()
    assert img.shape == res.K.shape
    assert np.array_equal(~np.isnan(np.asarray(img, float)), res.K != 0)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["$\\ddot y_0$", "$\\ddot y_1$", "$\\lambda_1$"]
    plt.close("all")


# --- issue 11, item 5: bad arguments are named, never a bare matplotlib/numpy error -----------------

import pytest  # noqa: E402

from rfda_teach.errors import ModelError  # noqa: E402
from rfda_teach.tree import Topology  # noqa: E402


@pytest.mark.parametrize("call, match", [
    (lambda: viz.plot_matrix_blocks(np.eye(2), [slice(0, 3)], [slice(0, 2)]), r"row_blocks\[0\]"),
    (lambda: viz.plot_matrix_blocks(None, [], []), "M must be an array"),
    (lambda: viz.draw_tree([-1, 0]), "topology must be a Topology"),
    (lambda: viz.draw_tree(Topology.from_parents([-1, 0]), highlight=-1), "highlight is -1"),
    (lambda: viz.animate_recursion(Topology.from_parents([-1, 0]), interval=0), "interval"),
    (lambda: viz.methods_report(m_k=-1.0), "m_k is -1.0"),
    (lambda: viz.draw_planar(models.planar_revolute_pair(), None), "state"),
    (lambda: viz.plot_eq7(models.planar_revolute_pair(), object()), "result must be"),
])
def test_viz_bad_arguments_raise_model_error(call, match):
    with pytest.raises(ModelError, match=match):
        call()
    plt.close("all")


def test_draw_tree_on_a_forest_and_a_long_chain():
    """Several roots (a KeyError before) and a 3000-body chain (recursion depth before)."""
    import matplotlib
    matplotlib.use("Agg")
    from rfda_teach import viz
    from rfda_teach.tree import Topology
    ax = viz.draw_tree(Topology.from_parents([-1, -1, 0, 1, 1]))
    assert len(ax.texts) == 5
    pos = viz.tree_layout(Topology.from_parents([-1] + list(range(2999))))
    assert pos[2999] == (0.0, -2999.0)


# --- mode_flows: finite motions along the columns of a velocity map keep the pin together ---------

def test_mode_flows_keeps_the_pin_of_eq_48_together_and_checks_arguments():
    from rfda_teach import coordinates as co
    from rfda_teach.system import State, terms

    pair = models.planar_revolute_pair()
    st = models.state_from_joints(pair, [np.array([0.0, 0.0, 0.3]), np.array([1.0])],
                                  [np.zeros(3), np.zeros(1)])

    def T48(y):
        tr = terms(pair, State(y, np.zeros(6)), check=False)
        jt = tr.joint[1]
        E, D = co.appendix_a(jt.G, jt.G_d)[:2]
        Et, Dt, _ = co.method_2(tr.M[1], E, D)
        return co.two_node(tr.M[0], tr.M[1], jt.G, jt.Q, Et, Dt).T48

    def gap(y):
        A = lambda a: np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])  # noqa: E731
        return np.linalg.norm(y[:2] + A(y[2]) @ pair.joints[1].parent_point
                              - y[3:5] - A(y[5]) @ pair.joints[1].child_point)

    axes, ys = viz.mode_flows(pair, st, T48, delta=0.4)
    assert len(axes) == 4 and len(ys) == 4
    assert max(gap(y) for y in ys) < 1e-7                      # the finite motion respects the pin
    assert gap(st.y + 0.4 * T48(st.y)[:, 2]) > 1e-3            # the first-order step does not
    plt.close("all")
    with pytest.raises(ModelError, match="T_fn"):
        viz.mode_flows(pair, st, np.eye(6))
    with pytest.raises(ModelError, match="bodies"):
        viz.mode_flows(pair, st, lambda y: np.eye(3), bodies=[4])
    with pytest.raises(ModelError, match="titles"):
        viz.mode_flows(pair, st, lambda y: np.eye(6)[:, :2], titles=["a"])
    plt.close("all")


def test_recursion_animation_frames_equal_fresh_drawings():
    """Each frame of animate_recursion (the tree drawn once, then recoloured) has the pixels of
    the tree drawn afresh with that frame's colours, highlight and title."""
    topo = Topology.from_parents([-1, 0, 0, 1])
    fig, anim = viz.animate_recursion(topo)
    fig.set_dpi(30)
    frames = viz.recursion_frames(topo)
    for f, (stage, node) in enumerate(frames):
        anim._func(f)
        fig.canvas.draw()
        shown = np.asarray(fig.canvas.buffer_rgba()).copy()
        ref, ax = plt.subplots(figsize=(6, 4), dpi=30)
        colors = {k: "#f4a259" if s == "step 1" else "#8cc084" for s, k in frames[: f + 1]}
        what = (f"step 1: form $\\hat M_{{{node}}}, \\hat f_{{{node}}}$ (eq. 9-12)" if stage == "step 1"
                else f"step 2: solve eq. (8) for $\\ddot y_{{{node}}}$")
        viz.draw_tree(topo, ax=ax, colors=colors, highlight=node, title=what)
        ref.canvas.draw()
        assert np.array_equal(shown, np.asarray(ref.canvas.buffer_rgba())), f"frame {f}"
        plt.close(ref)
    plt.close(fig)
