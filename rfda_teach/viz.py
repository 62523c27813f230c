"""Matplotlib drawings for the book.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from rfda_teach import models, dae, viz
>>> sys = models.featherstone_sliders()
>>> res = dae.forward_dynamics(sys, models.random_state(sys, seed=0))
>>> ax = viz.plot_eq7(sys, res)
>>> print(ax.get_title())
Eq. (7) for Featherstone's sliders (Fig. 2): [[M, C^T], [C, 0]]
"""

from __future__ import annotations

import numpy as np

from . import _check
from .errors import ModelError
from .spatial import planar_transform

__all__ = ["plot_eq7", "plot_matrix_blocks", "draw_planar", "tree_layout", "draw_tree", "recursion_frames", "animate_recursion"]


def _ax(ax, where: str, *, three_d: bool = False):
    """None or a matplotlib Axes (3-D when ``three_d``)."""
    if ax is None:
        return None
    from matplotlib.axes import Axes
    if not isinstance(ax, Axes):
        raise ModelError(f"{where}: ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    if three_d and not hasattr(ax, "get_zlim"):
        raise ModelError(f"{where}: ax must be a 3-D Axes (fig.add_subplot(projection='3d')) or None")
    return ax


def _text(x, what: str, where: str) -> str:
    return _check.instance(x, str, what, where=where)


def _flag(x, what: str, where: str) -> bool:
    return bool(_check.instance(x, (bool, np.bool_), what, where=where))


def _system(system, where: str):
    from .system import System
    return _check.instance(system, System, "system", where=where,
                           hint="build one with rfda_teach.models or rfda_teach.system.System")


def _topology(topology, where: str):
    from .tree import Topology
    return _check.instance(topology, Topology, "topology", where=where,
                           hint="give system.topology or rfda_teach.tree.Topology.from_parents(parents)")


def _interval(interval, where: str) -> int:
    return _check.positive_int(interval, "interval (milliseconds per frame)", where=where)


def _blocks(blocks, size: int, what: str, where: str) -> list:
    if blocks is None or isinstance(blocks, (str, bytes)) or not hasattr(blocks, "__iter__"):
        raise ModelError(f"{where}: {what} must be a list of slices, got {blocks!r}")
    blocks = list(blocks)
    for i, b in enumerate(blocks):
        if not isinstance(b, slice) or not isinstance(b.start, (int, np.integer)) or \
                not isinstance(b.stop, (int, np.integer)) or not 0 <= b.start <= b.stop <= size:
            raise ModelError(f"{where}: {what}[{i}] is {b!r}; give slice(start, stop) with "
                             f"0 <= start <= stop <= {size}")
    return blocks


def _labels(labels, n: int, what: str, where: str):
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__") or len(labels) != n:
        raise ModelError(f"{where}: {what} must be a list of {n} strings (one per block), got {labels!r}")
    return labels



def plot_matrix_blocks(M: np.ndarray, row_blocks, col_blocks, *, ax=None, row_labels=None, col_labels=None,
                       title: str = "", annotate: bool | None = None):
    """Show a matrix as a signed colour map with lines between blocks (slices) and optional labels.


    Examples
    --------
    >>> import numpy as np
    >>> ax = plot_matrix_blocks(np.eye(4), [slice(0, 2), slice(2, 4)], [slice(0, 2), slice(2, 4)], title="I")
    >>> ax.get_title()
    'I'
    """
    import matplotlib.pyplot as plt
    where = "viz.plot_matrix_blocks"
    M = _check.matrix(M, (None, None), "M", where=where)
    row_blocks = _blocks(row_blocks, M.shape[0], "row_blocks", where)
    col_blocks = _blocks(col_blocks, M.shape[1], "col_blocks", where)
    row_labels = _labels(row_labels, len(row_blocks), "row_labels", where)
    col_labels = _labels(col_labels, len(col_blocks), "col_labels", where)
    title = _text(title, "title", where)
    if annotate is not None:
        annotate = _flag(annotate, "annotate", where)
    if _ax(ax, where) is None:
        _, ax = plt.subplots(figsize=(5, 5))
    vmax = max(np.abs(M).max(initial=0.0), 1e-300)
    ax.imshow(np.where(M == 0, np.nan, M), cmap="coolwarm", vmin=-vmax, vmax=vmax, interpolation="nearest")
    for s in row_blocks[1:]:
        ax.axhline(s.start - 0.5, color="k", lw=0.6)
    for s in col_blocks[1:]:
        ax.axvline(s.start - 0.5, color="k", lw=0.6)
    if annotate is None:
        annotate = M.shape[0] <= 12
    if annotate:
        for (i, j), v in np.ndenumerate(M):
            if v != 0:
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=8)
    if row_labels is not None:
        ax.set_yticks([(s.start + s.stop - 1) / 2 for s in row_blocks], row_labels)
    if col_labels is not None:
        ax.set_xticks([(s.start + s.stop - 1) / 2 for s in col_blocks], col_labels)
    ax.set_title(title)
    return ax


def plot_eq7(system, result, *, ax=None, labels: bool | None = None):
    """The matrix of D&G eq. (7) of a DAE result, with body and joint blocks marked.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rfda_teach import models, dae
    >>> sys = models.planar_revolute_pair()
    >>> ax = plot_eq7(sys, dae.forward_dynamics(sys, models.random_state(sys, seed=0)))
    >>> len(ax.get_xticklabels())
    3
    """
    where = "viz.plot_eq7"
    system = _system(system, where)
    size = system.n_vel + system.n_constraints
    K = getattr(result, "K", None)
    if K is None:
        raise ModelError(f"{where}: result must be the result of dae.forward_dynamics (with .K), "
                         f"got {type(result).__name__}")
    _check.matrix(K, (size, size), "result.K", where=where)
    _ax(ax, where)
    if labels is not None:
        labels = _flag(labels, "labels", where)
    nv = system.n_vel
    blocks = list(system.vel_slices) + [slice(nv + s.start, nv + s.stop) for s in system.con_slices
                                        if s.stop > s.start]
    if labels is None:
        labels = system.n <= 6
    names = ([f"$\\ddot y_{i}$" for i in range(system.n)]
             + [f"$\\lambda_{k}$" for k, s in enumerate(system.con_slices) if s.stop > s.start]) if labels else None
    title = f"Eq. (7) for {system.name.split(' (')[0]}"
    if "Fig." in system.name:
        title += " (" + system.name.split(" (")[1]
    return plot_matrix_blocks(result.K, blocks, blocks, ax=ax, row_labels=names, col_labels=names,
                              title=title + ": [[M, C^T], [C, 0]]")


def draw_planar(system, state, *, ax=None, labels: bool = True, color=None, alpha: float = 1.0, lw: float = 2.0):
    """Draw a planar tree: each body as segments from its mass centre to its joint points.

    Mass centres are dots labelled with the body number, joints are open circles
    (a free joint to the ground constrains no point and is not drawn).
    Works for ``"planar"`` and ``"point2"`` bodies.


    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rfda_teach import models, viz
    >>> sys = models.planar_revolute_pair()
    >>> ax = viz.draw_planar(sys, models.random_state(sys, seed=0))
    >>> len(ax.lines) > 0
    True
    """
    import matplotlib.pyplot as plt
    from .bodies import rotation
    from .system import check_state
    where = "viz.draw_planar"
    system = _system(system, where)
    if system.kind not in ("planar", "point2"):
        raise ModelError(f"draw_planar draws planar systems; system {system.name!r} is {system.kind}")
    y = check_state(system, state).y
    labels = _flag(labels, "labels", where)
    alpha = _check.scalar(alpha, "alpha", where=where, nonneg=True)
    lw = _check.scalar(lw, "lw", where=where, positive=True)
    if alpha > 1:
        raise ModelError(f"{where}: alpha is {alpha}; give an opacity in [0, 1]")
    if _ax(ax, where) is None:
        _, ax = plt.subplots(figsize=(5, 5))
    cmap = plt.get_cmap("tab10")
    for i in range(system.n):
        yi = y[system.pos_slices[i]]
        c, R = yi[:2], rotation(system.kind, yi)
        pts = [system.joints[i].child_point] + [system.joints[k].parent_point for k in system.topology.children(i)]
        col = color or cmap(i % 10)
        for p in pts:
            q = c + R @ p
            ax.plot([c[0], q[0]], [c[1], q[1]], "-", color=col, lw=lw, alpha=alpha, solid_capstyle="round")
        ax.plot(*c, "o", color=col, ms=5, alpha=alpha)
        if labels:
            ax.annotate(str(i), c, textcoords="offset points", xytext=(4, 4), fontsize=9, color=col)
    for k in range(system.n):
        if system.joints[k].type in ("free2d", "free"):
            continue  # a free joint holds no point: nothing to draw
        yk = y[system.pos_slices[k]]
        q = yk[:2] + rotation(system.kind, yk) @ system.joints[k].child_point
        ax.plot(*q, "o", mfc="white", mec="k", ms=6, alpha=alpha)
    ax.set_aspect("equal")
    return ax


def tree_layout(topology) -> dict:
    """(x, y) of every node for a layered drawing: leaves evenly spaced, parents centred, depth downwards.

    Examples
    --------
    >>> from rfda_teach.tree import Topology
    >>> sorted(tree_layout(Topology.from_parents([-1, 0, 0])).items())
    [(0, (0.5, 0.0)), (1, (0.0, -1.0)), (2, (1.0, -1.0))]
    >>> tree_layout(Topology.from_parents([-1, -1, 1]))      # a forest: two bodies on the ground
    {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (1.0, -1.0)}
    """
    topology = _topology(topology, "viz.tree_layout")
    x, leaf = {}, 0
    for i in topology.order:                     # preorder: leaves left to right, one tree after another
        if not topology.children(i):
            x[i] = float(leaf)
            leaf += 1
    for i in reversed(topology.order):           # parents centred over their children (no recursion)
        ch = topology.children(i)
        if ch:
            x[i] = float(np.mean([x[c] for c in ch]))
    depth = {}
    for i in topology.order:
        p = topology.parents[i]
        depth[i] = 0 if p < 0 else depth[p] + 1
    return {i: (x[i], -float(depth[i]) + 0.0) for i in range(topology.n)}


def draw_tree(topology, *, ax=None, colors=None, highlight=None, title: str = ""):
    """Draw a tree topology (Fig. 1 style): nodes as numbered circles, joints as lines to the parent,
    the ground as a hatched bar above the root.  ``colors`` maps node -> colour; ``highlight``
    is a node drawn with a thick outline.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rfda_teach import models, viz
    >>> ax = viz.draw_tree(models.figure1_tree().topology)
    >>> len(ax.texts)
    13
    """
    import matplotlib.pyplot as plt
    where = "viz.draw_tree"
    topology = _topology(topology, where)
    if colors is not None:
        _check.instance(colors, dict, "colors", where=where, hint="give a dict node -> colour, or None")
    if highlight is not None:
        highlight = _check.positive_int(highlight, "highlight", where=where, minimum=0)
        if highlight >= topology.n:
            raise ModelError(f"{where}: highlight is {highlight}; the tree has nodes 0..{topology.n - 1}")
    title = _text(title, "title", where)
    if _ax(ax, where) is None:
        _, ax = plt.subplots(figsize=(6, 4))
    pos = tree_layout(topology)
    colors = colors or {}
    xs = [pos[r][0] for r in topology.roots]            # the ground: one bar over every root
    ax.plot([min(xs) - 0.6, max(xs) + 0.6], [0.6, 0.6], color="k", lw=3)
    for r in topology.roots:
        ax.plot([pos[r][0], pos[r][0]], [pos[r][1], 0.6], color="k", lw=1.5)
    for i, p in enumerate(topology.parents):
        if p >= 0:
            ax.plot([pos[i][0], pos[p][0]], [pos[i][1], pos[p][1]], color="k", lw=1.5, zorder=1)
    for i, (x, y) in pos.items():
        ax.scatter([x], [y], s=420, color=colors.get(i, "white"), edgecolors="k",
                   linewidths=3.0 if i == highlight else 1.0, zorder=2)
        ax.text(x, y, str(i), ha="center", va="center", fontsize=10, zorder=3)
    ax.set_axis_off()
    ax.set_xlim(min(x for x, _ in pos.values()) - 0.8, max(x for x, _ in pos.values()) + 0.8)
    ax.set_ylim(min(y for _, y in pos.values()) - 0.6, 1.0)
    if title:
        ax.set_title(title)
    return ax


def recursion_frames(topology) -> list:
    """The steps of the RFDA as (stage, node) pairs: step 1 leaves-to-root, then step 2 root-to-leaves.

    Examples
    --------
    >>> from rfda_teach.tree import Topology
    >>> recursion_frames(Topology.from_parents([-1, 0, 0]))
    [('step 1', 2), ('step 1', 1), ('step 1', 0), ('step 2', 0), ('step 2', 1), ('step 2', 2)]
    """
    order = list(_topology(topology, "viz.recursion_frames").order)
    return [("step 1", k) for k in reversed(order)] + [("step 2", k) for k in order]


def animate_recursion(topology, *, interval: int = 600):
    """A matplotlib animation of the two sweeps of the RFDA on a tree.

    Step 1 (orange) forms M_hat_j, f_hat_j at each node once all its children are done
    (D&G eq. 9-12); step 2 (green) solves D&G eq. (8) for yddot_j once the parent's is known.
    Returns ``(fig, anim)``; show it with ``HTML(anim.to_jshtml())`` and close ``fig``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from rfda_teach import viz
    >>> from rfda_teach.tree import Topology
    >>> fig, anim = viz.animate_recursion(Topology.from_parents([-1, 0]))
    >>> "<script" in anim.to_jshtml()
    True
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation
    interval = _interval(interval, "viz.animate_recursion")
    frames = recursion_frames(topology)
    fig, ax = plt.subplots(figsize=(6, 4))

    nodes = []                                   # the node markers, once the tree is drawn

    def draw(f):
        stage, node = frames[f]
        colors = {}
        for s, k in frames[: f + 1]:
            colors[k] = "#f4a259" if s == "step 1" else "#8cc084"
        what = (f"step 1: form $\\hat M_{{{node}}}, \\hat f_{{{node}}}$ (eq. 9-12)" if stage == "step 1"
                else f"step 2: solve eq. (8) for $\\ddot y_{{{node}}}$")
        if not nodes:                            # the first frame draws the whole tree
            ax.clear()
            draw_tree(topology, ax=ax, colors=colors, highlight=node, title=what)
            nodes.extend(ax.collections)         # one marker per node, in node order
            return []
        # later frames only recolour the markers and retitle: the same pixels as drawing the tree
        # again, without clearing the axes (whose re-layout was most of the cost of a frame)
        for i, dot in enumerate(nodes):
            dot.set_facecolor(colors.get(i, "white"))
            dot.set_linewidths(3.0 if i == node else 1.0)
        ax.set_title(what)
        return []

    anim = FuncAnimation(fig, draw, frames=len(frames), interval=interval, blit=False)
    return fig, anim


def methods_panel():
    """The panel of the planar revolute pair (a :class:`~rfda_teach.panel.Panel` of
    :func:`methods_report`): sliders for m_k, J_k, s'_k, phi_k and the entries of C_c (2x2) and
    C_f (1x1); it prints conditions 1 and 2 for Method 1 and Method 2 and M_hat_j from D&G eq. (28)
    with each method and from D&G eq. (9).  ``panel.show(methods_panel())`` displays it: live in a
    kernel; in the rendered book precomputed over m_k, phi_k, C_c[0,0] and C_f (the other
    sliders fixed at their defaults), which includes a singular C_c and a singular C_f.

    Examples
    --------
    >>> from rfda_teach import panel
    >>> p = methods_panel()
    >>> len(p.controls), panel.grid_size(p)
    (10, 54)
    """
    from .panel import Panel, Slider

    def fixed(name, lo, hi, step, v, label):
        return Slider(name, lo, hi, step, v, label=label, static=(v,))

    return Panel(methods_report, (
        Slider("m_k", 0.1, 5.0, 0.1, 1.0, label="m_k", static=(0.5, 1.0, 3.0)),
        fixed("J_k", 0.01, 1.0, 0.01, 0.1, "J_k"),
        fixed("s_kx", -1.0, 1.0, 0.05, -0.4, "s'_{k,x}"),
        fixed("s_ky", -1.0, 1.0, 0.05, 0.05, "s'_{k,y}"),
        Slider("phi_k", -3.1, 3.1, 0.05, 0.6, label=r"\phi_k", static=(-1.0, 0.6, 2.0)),
        Slider("c11", -3.0, 3.0, 0.1, 1.0, label=r"(C_c)_{11}", static=(0.0, 1.0)),
        fixed("c12", -3.0, 3.0, 0.1, 0.0, r"(C_c)_{12}"),
        fixed("c21", -3.0, 3.0, 0.1, 0.0, r"(C_c)_{21}"),
        fixed("c22", -3.0, 3.0, 0.1, 1.0, r"(C_c)_{22}"),
        Slider("cf", -3.0, 3.0, 0.1, 1.0, label="C_f", static=(-2.0, 0.0, 1.0))))


def methods_report(m_k=1.0, J_k=0.1, s_kx=-0.4, s_ky=0.05, phi_k=0.6, c11=1.0, c12=0.0, c21=0.0, c22=1.0,
                   cf=1.0) -> str:
    """Text of :func:`methods_panel` for one setting (planar revolute pair, parent at rest at the origin).

    Examples
    --------
    >>> print(methods_report().splitlines()[0][:45])
    Method 1: condition 1 holds (residual 0.0e+00
    """
    import numpy as np
    from . import models
    from .coordinates import compare_methods
    from .errors import RFDAError
    from .system import terms
    where = "viz.methods_report"
    m_k = _check.scalar(m_k, "m_k", where=where, positive=True)
    J_k = _check.scalar(J_k, "J_k", where=where, positive=True)
    s_kx, s_ky, phi_k, c11, c12, c21, c22, cf = (
        _check.scalar(v, name, where=where) for v, name in
        ((s_kx, "s_kx"), (s_ky, "s_ky"), (phi_k, "phi_k"), (c11, "c11"), (c12, "c12"), (c21, "c21"),
         (c22, "c22"), (cf, "cf")))
    pair = models.planar_revolute_pair(m_k=m_k, J_k=J_k, s_k=(s_kx, s_ky), gravity=(0.0, -9.81))
    q = [np.zeros(3), np.array([phi_k])]
    st = models.state_from_joints(pair, q, [np.zeros(3), np.zeros(1)])
    tr = terms(pair, st)
    jt = tr.joint[1]
    try:
        c = compare_methods(tr.M[0], tr.M[1], jt.G, jt.Q, jt.G_d, C_c=[[c11, c12], [c21, c22]], C_f=[[cf]])
    except RFDAError as exc:
        return f"refused: {exc}"
    lines = []
    for name, (c1, c2) in (("Method 1", c.method1), ("Method 2", c.method2)):
        lines.append(f"{name}: condition 1 {'holds' if c1.holds else 'FAILS'} (residual {c1.residual:.1e}), "
                     f"condition 2 {'holds' if c2.holds else 'FAILS'} (residual {c2.residual:.1e})")
    lines.append("M_hat_j (eq. 9) =\n" + np.array2string(c.M_hat_eq9, precision=4, suppress_small=True))
    lines.append(f"largest difference of Method 1 / Method 2 M_hat_j from eq. (9): {c.max_difference:.1e}")
    return "\n".join(lines)


__all__ += ["methods_panel", "methods_report", "displacement_modes"]


def _mode_bodies(system, bodies, where: str) -> list:
    """``bodies`` of the mode-drawing functions: None (all) or a list of body numbers."""
    if bodies is None:
        return list(range(system.n))
    if isinstance(bodies, (str, bytes)) or not hasattr(bodies, "__iter__"):
        raise ModelError(f"{where}: bodies must be a list of body numbers, got {bodies!r}")
    bodies = [_check.positive_int(b, "bodies[]", where=where, minimum=0) for b in bodies]
    if any(b >= system.n for b in bodies):
        raise ModelError(f"{where}: bodies {bodies} name a body beyond {system.n - 1}")
    return bodies


def _mode_panels(titles, axes, ncol: int, where: str, height: float):
    """Check ``titles`` and ``axes`` (one per column of T) and make the panels when ``axes`` is None."""
    import matplotlib.pyplot as plt
    if titles is not None and (isinstance(titles, (str, bytes)) or not hasattr(titles, "__len__")
                               or len(titles) < ncol):
        raise ModelError(f"{where}: titles must be a list of {ncol} strings (one per column of T), got {titles!r}")
    if axes is not None:
        if isinstance(axes, (str, bytes)) or not hasattr(axes, "__len__") or len(axes) < ncol:
            raise ModelError(f"{where}: axes must hold {ncol} matplotlib Axes (one per column of T), got {axes!r}")
        for a in axes:
            _ax(a, where)
        return axes
    _, axes = plt.subplots(1, ncol, figsize=(3.2 * ncol, height), squeeze=False)
    return axes[0]


def displacement_modes(system, state, T, *, delta: float = 0.4, titles=None, axes=None, bodies=None):
    """Draw, for every column c of T (a map from some coordinates' rates to the stacked absolute
    velocities of ``bodies``), the system before (grey) and after the first-order displacement
    y + delta * T[:, c] - the pictures of Figs. 4, 5 and 6 of the paper.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from rfda_teach import models, viz
    >>> sys = models.planar_revolute_pair(); st = models.random_state(sys, seed=0)
    >>> axes = viz.displacement_modes(sys, st, np.eye(6)[:, :2])
    >>> len(axes)
    2
    """
    from .system import State, check_state
    where = "viz.displacement_modes"
    system = _system(system, where)
    if system.kind not in ("planar", "point2"):
        raise ModelError(f"{where}: draws planar systems; system {system.name!r} is {system.kind}")
    state = check_state(system, state)
    bodies = _mode_bodies(system, bodies, where)
    nrow = sum(system.vel_slices[i].stop - system.vel_slices[i].start for i in bodies)
    T = _check.matrix(T, (nrow, None), "T", where=where)
    delta = _check.scalar(delta, "delta", where=where)
    ncol = T.shape[1]
    axes = _mode_panels(titles, axes, ncol, where, 3.2)
    y0 = np.asarray(state[0], float)
    rows = np.concatenate([np.arange(system.vel_slices[i].start, system.vel_slices[i].stop) for i in bodies])
    for c, ax in enumerate(axes):
        dyd = np.zeros(system.n_vel)
        dyd[rows] = delta * T[:, c]
        y1 = y0.copy()
        for i in range(system.n):                  # planar kinds: positions and velocities line up
            y1[system.pos_slices[i]] += dyd[system.vel_slices[i]]
        draw_planar(system, State(y0, state[1]), ax=ax, labels=False, color="0.75", lw=3)
        draw_planar(system, State(y1, state[1]), ax=ax, labels=False)
        ax.set_xticks([]); ax.set_yticks([])
        if titles is not None:
            ax.set_title(titles[c], fontsize=9)
    return axes


def kane_segments(system, x, y) -> list:
    """3-D polylines (inertial coordinates) that draw each body of a Kane system: a link from the
    body origin O_K through its mass centre to 2 G_K - O_K, or, for a body whose mass centre is its
    origin, a triad of its axes (0.3 long).

    Examples
    --------
    >>> from rfda_teach import kane, viz
    >>> sys = kane.eight_body()
    >>> segs = viz.kane_segments(sys, sys.x0, sys.y0)
    >>> len(segs), segs[1].shape
    (8, (3, 3))
    """
    from . import kane
    _check.instance(system, kane.KaneSystem, "system", where="viz.kane_segments",
                    hint="give a kane.KaneSystem, e.g. kane.eight_body()")
    kin = kane.kinematics(system, x, y)
    segs = []
    for k in range(system.N):
        RT = kin.R[k].T
        G = RT @ kin.pG[k]
        r = RT @ system.r[k]
        if np.linalg.norm(r) > 1e-9:
            segs.append(np.array([G - r, G, G + r]))
        else:
            a = 0.3 * RT
            segs.append(np.array([G - a[:, 0], G + a[:, 0], G, G - a[:, 1], G + a[:, 1], G, G - a[:, 2], G + a[:, 2]]))
    return segs


def _kane_box_edges(mass, inertia, R_T, centre) -> list:
    """The 12 edges of the box with the body's mass and central inertia (principal axes assumed
    along the body axes): half-sides from I_xx = m (b^2 + c^2) / 12 and its permutations."""
    d = np.diag(np.asarray(inertia, float))
    sq = np.clip(6.0 * (d.sum() - 2.0 * d) / mass, 0.0, None)
    half = 0.5 * np.sqrt(sq)
    corners = [np.array([sx, sy, sz]) * half for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    edges = []
    for a in range(8):
        for b in range(a + 1, 8):
            if np.count_nonzero(corners[a] != corners[b]) == 1:
                edges.append(np.array([centre + R_T @ corners[a], centre + R_T @ corners[b]]))
    return edges


def draw_kane(system, x, y, *, ax=None, title: str = "", labels: bool = False, box=None):
    """Draw a Kane system in 3-D (see :func:`kane_segments`).  With ``labels`` every body is
    numbered at its mass centre G_K and the origins O_K are black dots.  With ``box`` (default:
    the value of ``labels``) a body whose mass centre is its origin is drawn as the box with its
    mass and central inertia instead of a triad of its axes.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rfda_teach import kane, viz
    >>> sys = kane.eight_body()
    >>> ax = viz.draw_kane(sys, sys.x0, sys.y0)
    >>> len(ax.lines)
    8
    >>> ax = viz.draw_kane(sys, sys.x0, sys.y0, labels=True)
    >>> len(ax.texts)
    8
    >>> ax = viz.draw_kane(sys, sys.x0, sys.y0, box=True)
    >>> len(ax.lines), len(ax.texts)
    (19, 0)
    """
    import matplotlib.pyplot as plt
    segs = kane_segments(system, x, y)
    title = _text(title, "title", "viz.draw_kane")
    labels = _flag(labels, "labels", "viz.draw_kane")
    box = labels if box is None else _flag(box, "box", "viz.draw_kane")
    if _ax(ax, "viz.draw_kane", three_d=True) is None:
        fig = plt.figure(figsize=(5, 5))
        ax = fig.add_subplot(projection="3d")
    cmap = plt.get_cmap("tab10")
    if labels or box:
        from . import kane
        kin = kane.kinematics(system, x, y)
    for k, s in enumerate(segs):
        if box and np.linalg.norm(system.r[k]) <= 1e-9:
            for e in _kane_box_edges(system.mass[k], system.inertia[k], kin.R[k].T, s[2]):
                ax.plot(e[:, 0], e[:, 1], e[:, 2], "-", color=cmap(k % 10), lw=1.5)
        else:
            ax.plot(s[:, 0], s[:, 1], s[:, 2], "-o" if k else "-", color=cmap(k % 10), lw=3 if k else 2, ms=3)
        if labels:
            O, G = s[0] if k else s[2], s[1] if k else s[2]
            ax.scatter(*O, color="k", s=12, depthshade=False)
            ax.text(*(G + np.array([0.0, 0.0, 0.06])), str(k + 1), color=cmap(k % 10), fontsize=10,
                    fontweight="bold")
    ax.set_xlabel("x"); ax.set_ylabel("y"); ax.set_zlabel("z")
    if title:
        ax.set_title(title)
    return ax


def animate_kane(system, X, Y, *, times=None, interval: int = 100, follow: bool = True):
    """Animate a Kane trajectory (rows of X, Y) in 3-D; returns (fig, anim).  With ``follow`` the
    view is centred on the system's mass centre in every frame.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from rfda_teach import kane, viz
    >>> sys = kane.eight_body()
    >>> fig, anim = viz.animate_kane(sys, [sys.x0], [sys.y0])
    >>> "<script" in anim.to_jshtml()
    True
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation
    from . import kane
    where = "viz.animate_kane"
    _check.instance(system, kane.KaneSystem, "system", where=where, hint="give a kane.KaneSystem")
    X = _check.matrix(np.atleast_2d(X) if isinstance(X, (list, tuple, np.ndarray)) else X,
                      (None, 7 * system.N), "X", where=where)
    Y = _check.matrix(np.atleast_2d(Y) if isinstance(Y, (list, tuple, np.ndarray)) else Y,
                      (X.shape[0], 6 * system.N), "Y", where=where)
    if times is not None:
        times = _check.vector(times, X.shape[0], "times", where=where, hint="one time per row of X")
    interval = _interval(interval, where)
    follow = _flag(follow, "follow", where)
    fig = plt.figure(figsize=(5, 5))
    ax = fig.add_subplot(projection="3d")

    def draw(i):
        ax.clear()
        x = X[i].copy()
        for k in range(system.N):
            x[4 * k:4 * k + 4] /= np.linalg.norm(x[4 * k:4 * k + 4])
        draw_kane(system, x, Y[i], ax=ax, title="" if times is None else f"t = {times[i]:.2f} s",
                  box=True)
        if follow:
            bs = kane.body_states(system, x, Y[i])
            c = sum(b.mass * b.position for b in bs) / sum(b.mass for b in bs)
            for setlim, ci in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), c):
                setlim(ci - 0.8, ci + 0.8)
        return []

    anim = FuncAnimation(fig, draw, frames=len(X), interval=interval, blit=False)
    return fig, anim


__all__ += ["kane_segments", "draw_kane", "animate_kane"]


def refpoint_segments(model, q) -> list:
    """World polylines that draw a :class:`rfda_teach.refpoint.Model`: each body as a star from its
    centroid to its attachment points (own joint, children's joints, cut joints, spring points);
    the tyre body also gets its wheel as a circle of the tyre radius in its x-z plane.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import refpoint, viz
    >>> car = refpoint.quarter_car()
    >>> len(viz.refpoint_segments(car, car.q0))
    6
    """
    from . import refpoint as rp
    _check.instance(model, rp.Model, "model", where="viz.refpoint_segments",
                    hint="give a refpoint.Model, e.g. refpoint.quarter_car()")
    kin = rp.kinematics(model, q, np.zeros(model.nq))
    pts = rp.attachment_points(model)
    segs = []
    for j in range(model.n):
        A, r, rc = kin.A[j], kin.r[j], kin.rc[j]
        line = []
        for p in pts[j]:
            line += [rc, r + A @ p]
        segs.append(np.array(line))
    if model.tire_body >= 0:
        j = model.tire_body
        th = np.linspace(0, 2 * np.pi, 40)
        circ = np.array([kin.rc[j] + kin.A[j] @ (model.tire_r * np.array([np.cos(a), 0, np.sin(a)])) for a in th])
        segs.append(circ)
    return segs


def draw_refpoint_model(model, q, *, ax=None, title: str = "", road_z: float | None = None):
    """Draw a refpoint model in 3-D: bodies, the spring (dashed) and the chassis points (black).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rfda_teach import refpoint, viz
    >>> car = refpoint.quarter_car()
    >>> ax = viz.draw_refpoint_model(car, car.q0)
    >>> len(ax.lines) >= 7
    True
    """
    import matplotlib.pyplot as plt
    from . import refpoint as rp
    where = "viz.draw_refpoint_model"
    segs = refpoint_segments(model, q)
    title = _text(title, "title", where)
    if road_z is not None:
        road_z = _check.scalar(road_z, "road_z", where=where)
    if _ax(ax, where, three_d=True) is None:
        fig = plt.figure(figsize=(5, 5))
        ax = fig.add_subplot(projection="3d")
    cmap = plt.get_cmap("tab10")
    for k, s in enumerate(segs):
        ax.plot(s[:, 0], s[:, 1], s[:, 2], "-", color="0.3" if k == model.n else cmap(k), lw=2)
    kin = rp.kinematics(model, q, np.zeros(model.nq))
    for sd in model.springs:
        xa = sd.pa if sd.a < 0 else kin.r[sd.a] + kin.A[sd.a] @ sd.pa
        xb = sd.pb if sd.b < 0 else kin.r[sd.b] + kin.A[sd.b] @ sd.pb
        ax.plot(*np.array([xa, xb]).T, "k--", lw=1.5)
    fixed = [b.s for b in model.bodies if b.parent < 0] + [c.pa for c in model.cuts if c.a < 0]
    fixed = np.array(fixed)
    ax.plot(fixed[:, 0], fixed[:, 1], fixed[:, 2], "ks", ms=4)
    if road_z is not None:
        ax.plot([-0.4, 0.4], [0.75, 0.75], [road_z, road_z], "k-", lw=3)
    ax.set_xlim(-0.4, 0.4); ax.set_ylim(0.2, 1.0); ax.set_zlim(-0.05, 0.75)
    ax.set_xlabel("x"); ax.set_ylabel("y"); ax.set_zlabel("z")
    ax.view_init(elev=12, azim=-20)
    if title:
        ax.set_title(title)
    return ax


__all__ += ["refpoint_segments", "draw_refpoint_model"]


def loop_segments(model, q) -> list:
    """(label, start, end) of every rod of a closed loop (length from J = m L^2/12), at q.

    Examples
    --------
    >>> from rfda_teach import rcr
    >>> fb = rcr.five_bar(); segs = loop_segments(fb, fb.q0)
    >>> [s[0] for s in segs]
    ['bar 1', 'bar 2', 'bar 3', 'bar 4']
    """
    from . import rcr
    _check.instance(model, rcr.LoopMechanism, "model", where="viz.loop_segments",
                    hint="give an rcr.LoopMechanism, e.g. rcr.five_bar()")
    P = rcr.body_poses(model, q)
    out = []
    for b, (x, y, th) in zip(model.bodies, P):
        L = np.sqrt(12 * float(b.J[0, 0]) / b.mass)
        e = 0.5 * L * np.array([np.cos(th), np.sin(th)])
        out.append((b.name, np.array([x, y]) - e, np.array([x, y]) + e))
    return out


def draw_loop(model, q, *, ax=None, title: str = "", labels: bool = True, alpha: float = 1.0):
    """Draw a planar closed loop at q: rods, revolute joints (circles), prismatic joints (squares),
    the ground pivots and, for a prismatic joint to the ground, its guide.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rfda_teach import rcr
    >>> fb = rcr.five_bar(); ax = draw_loop(fb, fb.q0, title="five-bar")
    >>> ax.get_title()
    'five-bar'
    """
    import matplotlib.pyplot as plt
    from . import rcr
    where = "viz.draw_loop"
    segs = loop_segments(model, q)
    title = _text(title, "title", where)
    labels = _flag(labels, "labels", where)
    alpha = _check.scalar(alpha, "alpha", where=where, nonneg=True)
    if alpha > 1:
        raise ModelError(f"{where}: alpha is {alpha}; give an opacity in [0, 1]")
    if _ax(ax, where) is None:
        _, ax = plt.subplots(figsize=(5, 4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (name, a, b) in enumerate(segs):
        ax.plot(*np.c_[a, b], lw=6 if i % 2 else 4, color=colors[i % len(colors)], alpha=alpha,
                solid_capstyle="round", label=name if labels else None)
    P = rcr.body_poses(model, q)
    for k, jt in enumerate(model.joints):
        if k == 0:
            Tp = np.eye(3)
        else:
            x, y, th = P[k - 1]
            Tp = planar_transform((x, y), th, check=False)
        o = Tp[:2, :2] @ jt.parent_point + Tp[:2, 2]
        if k == model.n - 1:                   # joint to the ground: its ground side
            o_g = jt.child_point
            ax.plot(*o_g, marker="^", ms=12, color="0.3", alpha=alpha)
            if jt.kind == "prismatic":
                d = np.array([np.cos(jt.child_angle), np.sin(jt.child_angle)])
                ax.plot(*np.c_[o_g - 1.5 * d, o_g + 1.5 * d], color="0.3", lw=1, ls="--", alpha=alpha)
        if k == 0:
            ax.plot(*o, marker="^", ms=12, color="0.3", alpha=alpha)
        mk = "o" if jt.kind == "revolute" else "s"
        ax.plot(*o, marker=mk, ms=7, mfc="white", mec="k", alpha=alpha)
        if labels:
            ax.annotate(model.names[k], o, xytext=(6, 6), textcoords="offset points", fontsize=9)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    if title:
        ax.set_title(title)
    return ax


def animate_loop(model, t, Q, *, interval: int = 80, xlim=None, ylim=None):
    """Animate a closed-loop trajectory (rows of Q at times t); returns (fig, anim).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from rfda_teach import rcr
    >>> fb = rcr.five_bar(); fig, anim = animate_loop(fb, [0.0], [fb.q0])
    >>> "<script" in anim.to_jshtml()
    True
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation
    from . import rcr
    where = "viz.animate_loop"
    _check.instance(model, rcr.LoopMechanism, "model", where=where, hint="give an rcr.LoopMechanism")
    Q = _check.matrix(np.atleast_2d(Q) if isinstance(Q, (list, tuple, np.ndarray)) else Q,
                      (None, model.n), "Q", where=where)
    t = _check.vector(t, Q.shape[0], "t", where=where, hint="one time per row of Q")
    interval = _interval(interval, where)
    for lim, name in ((xlim, "xlim"), (ylim, "ylim")):
        if lim is not None:
            _check.vector(lim, 2, name, where=where, hint="(low, high)")
    fig, ax = plt.subplots(figsize=(5, 4))
    pts = np.array([p for qi in Q for s in loop_segments(model, qi) for p in s[1:]])
    xlim = xlim or (pts[:, 0].min() - 0.3, pts[:, 0].max() + 0.3)
    ylim = ylim or (pts[:, 1].min() - 0.3, pts[:, 1].max() + 0.3)

    def draw(i):
        ax.clear()
        draw_loop(model, Q[i], ax=ax, title=f"{model.name}, t = {t[i]:.2f} s", labels=False)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        return []

    anim = FuncAnimation(fig, draw, frames=len(Q), interval=interval, blit=False)
    return fig, anim


__all__ += ["loop_segments", "draw_loop", "animate_loop"]


def draw_series(series, qs, *, ax=None, title: str = "", focus=None):
    """Draw a chain of coupled loops (rcr.LoopSeries) at the loops' coordinates ``qs``.

    Loop j is drawn in colour j with its own line style (so overlapping loops stay readable),
    its joint points as dots, and the two pivots by which it hangs from its base body (the ground,
    or a body of an earlier loop) as large hollow squares in its colour, joined by a thin line
    (the segment between them is rigid with the base body); the ground is a grey
    triangle.  Axes in metres, a legend names each loop and its base.

    ``focus`` = j (0-based) draws one panel of a figure with a panel per loop: loop j as above,
    every other loop thin and light grey (so the panel shows where loop j sits in the chain),
    and a legend below the axes that names loop j only.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rfda_teach import rcr
    >>> s = rcr.loop_series(3); ax = draw_series(s, [l.q0 for l in s.loops], title="three loops")
    >>> ax.get_title(), ax.get_xlabel()
    ('three loops', 'x (m)')
    >>> ax = draw_series(s, [l.q0 for l in s.loops], focus=1)    # one panel: loop 2 in colour
    >>> [t.get_text() for t in ax.get_legend().get_texts()][0]
    'loop 2 (base: coupler of loop 1)'
    """
    import matplotlib.pyplot as plt
    from . import rcr
    where = "viz.draw_series"
    _check.instance(series, rcr.LoopSeries, "series", where=where, hint="give an rcr.LoopSeries, e.g. rcr.loop_series(3)")
    poses = rcr.series_poses(series, qs)
    title = _text(title, "title", where)
    if focus is not None:
        focus = _check.positive_int(focus, "focus", where=where, minimum=0)
        if focus >= len(series.loops):
            raise ModelError(f"{where}: focus must be a loop index 0..{len(series.loops) - 1} "
                             f"(0-based), got {focus}")
    if _ax(ax, where) is None:
        _, ax = plt.subplots(figsize=(5, 4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    styles = ("-", "--", ":", "-.")

    for j, (L, P) in enumerate(zip(series.loops, poses)):
        col, ls = colors[j % len(colors)], styles[j % len(styles)]
        faint = focus is not None and j != focus
        if faint:
            col, ls = "0.75", "-"
        if j == 0:
            T0, base = np.eye(3), "ground"
        else:
            i, b = series.attach[j - 1]
            x, y, th = poses[i][b - 1]
            T0 = planar_transform((x, y), th, check=False)
            base = f"{series.loops[i].bodies[b - 1].name} of loop {i + 1}"
        for b, (x, y, th) in zip(L.bodies, P):
            half = 0.5 * np.sqrt(12 * float(b.J[0, 0]) / b.mass) * np.array([np.cos(th), np.sin(th)])
            ends = np.c_[np.array([x, y]) - half, np.array([x, y]) + half]
            ax.plot(*ends, lw=1.5 if faint else 3.2 - 0.6 * (j % 3), ls=ls, color=col, solid_capstyle="round",
                    label=f"loop {j + 1} (base: {base})" if b is L.bodies[0] and not faint else None)
            if not faint:
                ax.plot(*ends, ls="none", marker="o", ms=4, color=col)
        if faint:
            continue
        piv = np.array([(T0 @ np.r_[pt, 1.0])[:2] for pt in (L.joints[0].parent_point, L.joints[-1].child_point)])
        ax.plot(piv[:, 0], piv[:, 1], ls=ls, lw=0.8, marker="s", ms=11, mfc="none", mec=col, mew=2, color=col,
                label=f"loop {j + 1}: pivots on its base (thin: rigid with it)")
    ax.plot(0, 0, marker="^", ms=12, color="0.3", ls="none", label="ground pivot")
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    if focus is None:
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.02, 0.5))
    else:
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22))
    if title:
        ax.set_title(title)
    return ax


__all__ += ["draw_series"]


__all__ += ["mode_flows"]


def mode_flows(system, state, T_fn, *, delta: float = 0.4, titles=None, axes=None, bodies=None,
               legend: bool = True):
    """Draw, for every column c of the velocity map ``T_fn(y)``, the planar system before (grey,
    dashed) and after a *finite* motion along that column: the positions are integrated along
    dy/ds = T(y) e_c from s = 0 to ``delta`` (scipy's ``solve_ivp``, DOP853, rtol 1e-10), with
    T re-evaluated at every configuration.  When every column satisfies a joint's velocity row, the
    joint is respected along the whole path, so pins that coincide before still coincide after
    (the first-order step y + delta T e_c of :func:`displacement_modes` separates them by
    O(delta^2)).  For true coordinates u this is exactly "u_c changed by delta, the others held".

    ``T_fn(y)`` returns the map from the pictured coordinates' rates to the stacked absolute
    velocities of ``bodies`` (default: all); the other bodies are held.  Each body is drawn as
    segments from its mass centre (dot) to its joint points; the point by which a body hangs on
    its parent is an open circle.  All panels share limits and an equal aspect, with axes in
    metres.  Returns ``(axes, y_after)``: the axes and the list of final position vectors.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from rfda_teach import models, viz
    >>> sys = models.planar_revolute_pair(); st = models.random_state(sys, seed=0)
    >>> axes, ys = viz.mode_flows(sys, st, lambda y: np.eye(6)[:, :2], delta=0.5, legend=False)
    >>> len(axes), bool(np.allclose(ys[1] - st.y, 0.5 * np.eye(6)[1]))
    (2, True)
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from scipy.integrate import solve_ivp
    from .bodies import rotation
    from .system import check_state
    where = "viz.mode_flows"
    system = _system(system, where)
    if system.kind != "planar":
        raise ModelError(f"{where}: draws planar rigid bodies; system {system.name!r} is {system.kind}")
    state = check_state(system, state)
    if not callable(T_fn):
        raise ModelError(f"{where}: T_fn must be a function y -> velocity map, got {T_fn!r}")
    bodies = _mode_bodies(system, bodies, where)
    delta = _check.scalar(delta, "delta", where=where)
    legend = _flag(legend, "legend", where)
    y0 = np.asarray(state.y, float)
    rows = np.concatenate([np.arange(system.pos_slices[i].start, system.pos_slices[i].stop) for i in bodies])
    T0 = _check.matrix(T_fn(y0), (len(rows), None), "T_fn(y)", where=where)
    ncol = T0.shape[1]
    axes = _mode_panels(titles, axes, ncol, where, 3.4)

    def rate(s, y, c):
        v = np.zeros_like(y)
        v[rows] = np.asarray(T_fn(y), float)[:, c]
        return v

    finals = [solve_ivp(rate, (0.0, delta), y0, method="DOP853", args=(c,), rtol=1e-10,
                        atol=1e-12).y[:, -1] for c in range(ncol)]

    cmap = plt.get_cmap("tab10")

    def draw(ax, y, before):
        pts_all = []
        for i in range(system.n):
            yi = y[system.pos_slices[i]]
            c, R = yi[:2], rotation(system.kind, yi)
            pts = [system.joints[i].child_point] + [system.joints[k].parent_point
                                                    for k in system.topology.children(i)]
            col = "0.55" if before else cmap(i % 10)
            for p in pts:
                q = c + R @ p
                pts_all.append(q)
                ax.plot([c[0], q[0]], [c[1], q[1]], "--" if before else "-", color=col,
                        lw=1.3 if before else 3.0, solid_capstyle="round", zorder=3 if before else 2)
            pts_all.append(c)
            ax.plot(*c, "o", color=col, ms=4 if before else 6, zorder=4 if before else 2)
            if system.joints[i].type not in ("free2d", "free"):
                q = c + R @ system.joints[i].child_point
                ax.plot(*q, "o", mfc="white" if not before else "none", mec="0.55" if before else "k",
                        ms=9 if not before else 6, zorder=1 if not before else 4)
        return pts_all

    every = []
    for c, ax in enumerate(axes[:ncol]):
        every += draw(ax, finals[c], before=False)
        every += draw(ax, y0, before=True)
        if titles is not None:
            ax.set_title(titles[c], fontsize=10)
    every = np.array(every)
    lo, hi = every.min(axis=0), every.max(axis=0)
    mid, half = 0.5 * (lo + hi), 0.5 * (hi - lo).max() + 0.12
    for ax in axes[:ncol]:
        ax.set_xlim(mid[0] - half, mid[0] + half)
        ax.set_ylim(mid[1] - half, mid[1] + half)
        ax.set_aspect("equal")
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.25)
    axes[0].set_xlabel("x (m)", fontsize=8)
    axes[0].set_ylabel("y (m)", fontsize=8)
    if legend:
        handles = [Line2D([], [], ls="--", color="0.55", lw=1.3, label="before"),
                   Line2D([], [], ls="-", color=cmap(0), lw=3, label="after: body j"),
                   Line2D([], [], ls="-", color=cmap(1), lw=3, label="after: body k"),
                   Line2D([], [], ls="none", marker="o", color="k", ms=5, label="mass centre"),
                   Line2D([], [], ls="none", marker="o", mfc="white", mec="k", ms=8, label="pin")]
        axes[0].figure.legend(handles=handles, loc="upper center", ncol=5, fontsize=8, frameon=False,
                              bbox_to_anchor=(0.5, 1.0))
    return axes, finals
