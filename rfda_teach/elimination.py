"""Step 1 of the RFDA as leaf-first block elimination of D&G eq. (7); stability at extreme mass ratios.

Eliminating the unknowns (yddot_k, lam_k) of a leaf k from the sparse D&G eq. (7) of Deepak &
Ghosal changes only the diagonal block of its parent j: the Schur complement adds
Q_k^T (G_k M_k^-1 G_k^T)^-1 Q_k to M_j, which is D&G eq. (9), and the matching right-hand side
update is D&G eq. (10).  Eliminating a whole subtree, leaves first, gives M_hat_j and f_hat_j of
every node (:func:`subtree_schur`), and no block outside the parents' diagonal blocks ever
fills in (:func:`fill_in`).  :func:`draw_elimination_step` and :func:`animate_elimination`
show the elimination on D&G eq. (7)'s sparsity pattern beside the tree sweep.

:func:`alternating_chain` and :func:`mass_ratio_study` measure the accuracy of the two forms
of step 1 (D&G eq. 9-10 and D&G eq. 11-12) against D&G eq. (7) on chains whose masses alternate r, 1, r, ...

Examples
--------
>>> import numpy as np
>>> from rfda_teach import models, rfda, elimination
>>> sys = models.figure1_tree(); st = models.random_state(sys, seed=0)
>>> s = elimination.subtree_schur(sys, st, 2)
>>> bool(np.allclose(s.M_hat, rfda.forward_dynamics(sys, st).M_hat[2]))
True
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from . import _check
from .bodies import Body
from .errors import IllConditionedError, ModelError, RFDAWarning
from .joints import Joint
from .system import System, require_tree

__all__ = ["Schur", "subtree_schur", "elimination_steps", "fill_in", "draw_elimination_step",
           "animate_elimination", "alternating_chain", "MassRatioStudy", "mass_ratio_study"]


class Schur(NamedTuple):
    """M_hat_j and f_hat_j of D&G eq. (8) obtained as a Schur complement of D&G eq. (7)."""

    M_hat: np.ndarray
    f_hat: np.ndarray


def _system(system, where: str) -> System:
    return require_tree(_check.instance(system, System, "system", where=where,
                                        hint="build one with rfda_teach.models or rfda_teach.system.System"), where)


def _node(system: System, j, where: str) -> int:
    j = _check.positive_int(j, "j (a node number)", where=where, minimum=0)
    if j >= system.n:
        raise ModelError(f"{where}: j is {j}; the system has nodes 0..{system.n - 1}")
    return j


def _indices(system: System, nodes) -> list:
    """Rows of D&G eq. (7) holding yddot_i and lam_i of the given nodes."""
    nv = system.n_vel
    out = []
    for i in nodes:
        out += list(range(system.vel_slices[i].start, system.vel_slices[i].stop))
        cs = system.con_slices[i]
        out += list(range(nv + cs.start, nv + cs.stop))
    return out


def subtree_schur(system: System, state, j: int, t: float = 0.0) -> Schur:
    """M_hat_j, f_hat_j by eliminating every descendant of j from the dense D&G eq. (7).

    The unknowns yddot_d, lam_d of all descendants d of j are eliminated (a Schur complement);
    what remains in the rows and columns of yddot_j is M_hat_j, and the right-hand side of
    those rows is f_hat_j: D&G eq. (9)-(10) without any recursion.  O(n^3): a reference only.

    Examples
    --------
    >>> import numpy as np
    >>> from rfda_teach import models, rfda
    >>> sys = models.featherstone_sliders(m1=1.0, m2=2.0); st = models.random_state(sys, seed=0)
    >>> subtree_schur(sys, st, 0).M_hat                  # D&G eq. (15): diag(m1 + m2, m1)
    array([[3., 0.],
           [0., 1.]])
    """
    from .dae import assemble
    where = "elimination.subtree_schur"
    system = _system(system, where)
    j = _node(system, j, where)
    K, rhs = assemble(system, state, t)
    elim = _indices(system, system.topology.descendants(j))
    keep = list(range(system.vel_slices[j].start, system.vel_slices[j].stop))
    if not elim:
        return Schur(K[np.ix_(keep, keep)].copy(), rhs[keep].copy())
    A = K[np.ix_(elim, elim)]
    B = K[np.ix_(keep, elim)]
    X = np.linalg.solve(A, np.column_stack([B.T, rhs[elim]]))
    M_hat = K[np.ix_(keep, keep)] - B @ X[:, :-1]
    f_hat = rhs[keep] - B @ X[:, -1]
    return Schur(0.5 * (M_hat + M_hat.T), f_hat)


def elimination_steps(system: System) -> list:
    """The nodes in the order step 1 eliminates them: every node after all its children.

    Examples
    --------
    >>> from rfda_teach import models
    >>> elimination_steps(models.chain(3))
    [2, 1, 0]
    """
    system = _system(system, "elimination.elimination_steps")
    return [int(k) for k in reversed(system.topology.order)]


def fill_in(system: System, order) -> int:
    """Blocks of D&G eq. (7) that become non-zero when the nodes are eliminated in ``order``.

    Each node is eliminated with both its unknowns (yddot_k, lam_k); eliminating a group makes
    every pair of its remaining neighbours coupled.  A leaf-first order (:func:`elimination_steps`)
    gives 0; a root-first order couples the children of every eliminated node.

    Examples
    --------
    >>> from rfda_teach import models
    >>> sys = models.figure1_tree()
    >>> fill_in(sys, elimination_steps(sys)), fill_in(sys, sys.topology.order) > 0
    (0, True)
    """
    where = "elimination.fill_in"
    system = _system(system, where)
    if order is None or isinstance(order, (str, bytes, dict)) or not hasattr(order, "__iter__"):
        raise ModelError(f"{where}: order must be a list of node numbers, got {order!r}")
    order = [_node(system, k, where) for k in order]
    if sorted(order) != list(range(system.n)):
        raise ModelError(f"{where}: order must name every node 0..{system.n - 1} exactly once, got {order}")
    adj = {i: set() for i in range(system.n)}        # node groups coupled in D&G eq. (7): parent and child
    for k, p in enumerate(system.parents):
        if p >= 0:
            adj[k].add(p)
            adj[p].add(k)
    new = 0
    for k in order:
        nb = sorted(adj.pop(k))
        for a in nb:
            adj[a].discard(k)
        for x, a in enumerate(nb):
            for b in nb[x + 1:]:
                if b not in adj[a]:
                    adj[a].add(b)
                    adj[b].add(a)
                    new += 1
    return new


def _step(system: System, step, where: str) -> int:
    step = _check.positive_int(step, "step", where=where, minimum=0)
    if step > system.n:
        raise ModelError(f"{where}: step is {step}; give 0..{system.n} (0 = nothing eliminated yet)")
    return step


def draw_elimination_step(system: System, state, step: int, *, axes=None):
    """D&G eq. (7)'s sparsity pattern and the tree after ``step`` leaf-first eliminations.

    Left: the non-zero entries of D&G eq. (7); rows and columns already eliminated are grey, the
    parent block that the last elimination updated (D&G eq. 9) is orange.  Right: the tree, the
    eliminated nodes grey, the updated parent orange.  Returns the two axes.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from rfda_teach import models
    >>> sys = models.chain(3)
    >>> ax = draw_elimination_step(sys, models.random_state(sys, seed=0), 1)
    >>> len(ax)
    2
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    from .dae import assemble
    from .viz import draw_tree
    where = "elimination.draw_elimination_step"
    system = _system(system, where)
    step = _step(system, step, where)
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(8.4, 4.2), gridspec_kw=dict(width_ratios=[1.1, 1]))
    elif len(axes) != 2:
        raise ModelError(f"{where}: axes must be two matplotlib Axes (pattern, tree), got {len(axes)}")
    K, _ = assemble(system, state)
    order = elimination_steps(system)
    done = order[:step]
    last = order[step - 1] if step else None
    parent = system.parents[last] if last is not None else -1
    code = np.where(K != 0, 1.0, 0.0)                                  # 1: non-zero
    gone = _indices(system, done)
    code[gone, :] = np.where(code[gone, :] > 0, 2.0, 0.0)             # 2: eliminated
    code[:, gone] = np.where(code[:, gone] > 0, 2.0, 0.0)
    if parent >= 0:
        vs = system.vel_slices[parent]
        code[vs, vs] = 3.0                                             # 3: updated by D&G eq. (9)
    cmap = ListedColormap(["white", "#3b6ea8", "#cccccc", "#f4a259"])
    ax0, ax1 = axes
    ax0.clear()
    ax0.imshow(code, cmap=cmap, vmin=-0.5, vmax=3.5, interpolation="nearest")
    nv = system.n_vel
    ax0.axhline(nv - 0.5, color="k", lw=0.8)
    ax0.axvline(nv - 0.5, color="k", lw=0.8)
    ax0.set_xticks([])
    ax0.set_yticks([])
    ax0.set_xlabel("columns: yddot (left), lambda (right)")
    ax0.set_ylabel("rows of eq. (7)")
    if last is None:
        ax0.set_title("eq. (7) before step 1")
    else:
        upd = f", M_hat_{parent} updated" if parent >= 0 else ""
        ax0.set_title(f"node {last} eliminated{upd}")
    colors = {i: "#cccccc" for i in done}
    if parent >= 0:
        colors[parent] = "#f4a259"
    ax1.clear()
    draw_tree(system.topology, ax=ax1, colors=colors, highlight=last,
              title=f"step {step} of {system.n}: leaves first")
    return axes


def animate_elimination(system: System, state, *, interval: int = 700):
    """A matplotlib animation of :func:`draw_elimination_step` for steps 0..n.

    Returns ``(fig, anim)``; show it with :func:`rfda_teach.bookcheck.offline_jshtml` and close
    ``fig``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from rfda_teach import models
    >>> sys = models.chain(2)
    >>> fig, anim = animate_elimination(sys, models.random_state(sys, seed=0))
    >>> "<script" in anim.to_jshtml()
    True
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation
    where = "elimination.animate_elimination"
    system = _system(system, where)
    interval = _check.positive_int(interval, "interval (milliseconds per frame)", where=where)
    from .system import check_state
    check_state(system, state)
    fig, axes = plt.subplots(1, 2, figsize=(8.4, 4.2), gridspec_kw=dict(width_ratios=[1.1, 1]))

    def draw(f):
        draw_elimination_step(system, state, f, axes=axes)
        return []

    anim = FuncAnimation(fig, draw, frames=system.n + 1, interval=interval, blit=False)
    return fig, anim


def alternating_chain(n: int, r: float) -> System:
    """A planar chain of n uniform bars of length 1 whose masses alternate r, 1, r, ... (root r).

    Each bar has J = m/12; revolute joints join the bars end to end, the root is pinned.

    Examples
    --------
    >>> [b.mass for b in alternating_chain(4, 1e-3).bodies]
    [0.001, 1.0, 0.001, 1.0]
    """
    where = "elimination.alternating_chain"
    n = _check.positive_int(n, "n (the number of bodies)", where=where)
    r = _check.scalar(r, "r (the mass ratio)", where=where, positive=True)
    bodies, joints = [], []
    for i in range(n):
        m = r if i % 2 == 0 else 1.0
        bodies.append(Body("planar", m, m / 12, name=f"bar {i}"))
        joints.append(Joint("revolute2d", parent_point=(0, 0) if i == 0 else (0.5, 0),
                            child_point=(-0.5, 0)))
    return System(tuple(range(-1, n - 1)), tuple(bodies), tuple(joints), (0.0, -9.81),
                  name=f"alternating chain n={n} r={r:g}")


class MassRatioStudy(NamedTuple):
    """Per mass ratio r: relative errors of yddot against D&G eq. (7) (NaN where the form raised),
    the largest cond(M_hat_j), and per form whether it warned or raised."""

    ratios: np.ndarray
    error: dict
    cond: np.ndarray
    warned: dict
    raised: dict


def mass_ratio_study(ratios, *, n: int = 6, seed: int = 1) -> MassRatioStudy:
    """Accuracy of D&G eq. (9)-(10) and D&G eq. (11)-(12) against D&G eq. (7) on :func:`alternating_chain`.

    For every ratio r the chain of ``n`` bars gets a random consistent state (``seed``); each
    form's yddot is compared with the dense solve of D&G eq. (7), in the relative 2-norm.  An
    :class:`~rfda_teach.errors.RFDAWarning` is recorded in ``warned``, an
    :class:`~rfda_teach.errors.IllConditionedError` in ``raised`` (the error is then NaN).

    Examples
    --------
    >>> s = mass_ratio_study([1.0, 1e-8], n=4)
    >>> bool(s.error["featherstone"].max() < 1e-13), s.warned["lubich"].tolist()
    (True, [False, True])
    """
    from . import dae, models, rfda
    where = "elimination.mass_ratio_study"
    ratios = _check.vector(ratios, None, "ratios", where=where)
    if ratios.size == 0 or np.any(ratios <= 0):
        raise ModelError(f"{where}: ratios must be a non-empty list of positive mass ratios, got {ratios}")
    n = _check.positive_int(n, "n (the number of bodies)", where=where, minimum=2)
    seed = _check.positive_int(seed, "seed", where=where, minimum=0)
    forms = ("lubich", "featherstone")
    error = {f: np.full(ratios.size, np.nan) for f in forms}
    warned = {f: np.zeros(ratios.size, dtype=bool) for f in forms}
    raised = {f: np.zeros(ratios.size, dtype=bool) for f in forms}
    cond = np.zeros(ratios.size)
    for i, r in enumerate(ratios):
        system = alternating_chain(n, float(r))
        state = models.random_state(system, seed=seed)
        ref = dae.forward_dynamics(system, state).ydd
        for f in forms:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", RFDAWarning)
                try:
                    res = rfda.forward_dynamics(system, state, form=f)
                except IllConditionedError:
                    raised[f][i] = True
                    continue
            warned[f][i] = any(issubclass(w.category, RFDAWarning) for w in caught)
            error[f][i] = np.linalg.norm(res.ydd - ref) / np.linalg.norm(ref)
            if f == "featherstone":
                cond[i] = max(np.linalg.cond(M) for M in res.M_hat)
    return MassRatioStudy(ratios, error, cond, warned, raised)
