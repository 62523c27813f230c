"""Checkers for the exercises of the book's ``general_tree`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports them).

* ``check_subtree_step``: one step of the induction of §6 of Deepak & Ghosal, the two
  diagonal blocks of D&G eq. (57) of a node from its own M_j and its children's data;
* ``check_node_map``: the blocks P_j, R_j of the map of §6's first property (the
  unnumbered map stated before D&G eq. (49)), composed from the children's (D&G eq. 51, 53, 55);
* questions ``ex-gt-size`` (sizes of xi_1, xi_0 and T_0 in a six-body spatial tree),
  ``ex-gt-spatial`` (dim xi_0 of ``models.random_tree(8, kind="spatial", seed=4)``) and
  ``ex-gt-misprint`` (the sign of the multiplier term of D&G eq. (54) at child 4 of node 2 of
  Fig. 1).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from .checking import Case, N_CASES, SEED, options, run_cases
from .questions import question
from .slips import slip

__all__: list = ["check_subtree_step"]

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}


def _step(M_j, children, *, weighted=True, own_lambda=True, lambda_first=False,
          with_children=True, S_sign=-1.0, maps=False):
    """One induction step, D&G eq. (51)-(57), with Method 2; the flags make typical mistakes.
    ``maps=True`` also returns the child maps E~_k S_k stacked child by child."""
    from ..coordinates import S_a, method_2, null_space_E_D
    M_hat = np.array(M_j, dtype=float)
    blocks, ES = [], []
    for M_k, G_k, Q_k, D_k, Lam_k in children:
        E_k = null_space_E_D(G_k)[0]
        if weighted:
            Et = method_2(M_k, E_k, D_k)[0]                   # condition 2 with M_hat_k
        else:
            Et = E_k                                           # condition 2 ignored
        S = S_a(G_k, Q_k, Et)[0] * -S_sign                     # D&G eq. (53)
        ES.append(Et @ S)
        if with_children:
            M_hat = M_hat + S.T @ (Et.T @ M_k @ Et) @ S        # D&G eq. (57)
        own = [D_k.T @ M_k @ D_k]                              # M~_kf of D&G eq. (54)
        if own_lambda:
            own = [Lam_k] + own if lambda_first else own + [Lam_k]
        blocks += own
    Lam = scipy.linalg.block_diag(*blocks) if blocks else np.zeros((0, 0))
    return (M_hat, Lam, np.vstack(ES)) if maps else (M_hat, Lam)


def _with_maps(student_fn):
    """The student's ``(M_hat_j, Lambda_j)`` completed with the reference maps E~_k S_k (so a
    two-result solution is checked as before); a three-result one is passed on unchanged."""
    def fn(M_j, children):
        out = student_fn(M_j, children)
        if isinstance(out, (tuple, list)) and len(out) == 2:
            return (out[0], out[1], _step(M_j, children, maps=True)[2])
        return out
    return fn


def check_subtree_step(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(M_j, children) -> (M_hat_j, Lambda_j)`` or ``(M_hat_j, Lambda_j, ES_j)``,
    one step of §6's induction.

    ``children`` is a list with one tuple ``(M_hat_k, G_k, Q_k, D_k, Lambda_k)`` per child k
    of node j: the child's block of D&G eq. (50), its joint rows of D&G eq. (49), a basis ``D_k`` of
    the null space of ``G_k`` (Appendix A; use it as D~_k, as Method 2 does) and the child's
    own Lambda_k (0 x 0 for a leaf).  The answer is the pair of diagonal blocks of D&G eq. (57),

        M_hat_j  = M_j + sum_k S_k^T (E~_k^T M_hat_k E~_k) S_k,
        Lambda_j = diag over the children, in the given order, of
                   (D~_k^T M_hat_k D~_k, Lambda_k),

    with E~_k satisfying conditions 1 and 2 of §5.1 for M_hat_k (D&G eq. 51) and
    S_k = -(G_k E~_k)^-1 Q_k (D&G eq. 53).  M_hat_j holds S_k twice, so a sign slip in S_k cannot
    show in it: a third result ``ES_j = np.vstack([E~_k @ S_k for each child k])`` (the motion
    of each child driven by body j, independent of the choice of E~_k) is checked too when the
    function returns it.  The cases are the non-leaf nodes of random planar
    and spatial trees; the reference is :func:`rfda_teach.coordinates.rfda_coordinates`.

    Examples
    --------
    >>> from rfda_teach.exercises import check_subtree_step
    >>> def stub(M_j, children):
    ...     raise NotImplementedError
    >>> check_subtree_step(stub).passed
    check_subtree_step: not implemented yet (fill in the function and run this cell again)
    False
    """
    from .. import models
    from ..coordinates import appendix_a, rfda_coordinates
    from ..system import terms
    name = "check_subtree_step"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    s = seed
    while len(cases) < n_cases:
        kind = "planar" if s % 2 == 0 else "spatial"
        sys = models.random_tree(5, kind=kind, seed=s, chain_bias=0.3)
        st = models.random_state(sys, seed=s)
        s += 1
        tr = terms(sys, st)
        nodes = rfda_coordinates(sys, st)
        for j in sys.topology.order:
            kids = sys.topology.children(j)
            if not kids or len(cases) >= n_cases:
                continue
            children = []
            for k in kids:
                jt = tr.joint[k]
                D_k = appendix_a(jt.G, jt.G_d)[1]
                children.append((nodes[k].M_hat, jt.G, jt.Q, D_k, nodes[k].Lambda))
            M_j = tr.M[j]
            ES = _step(M_j, children, maps=True)[2]
            expected = (nodes[j].M_hat, nodes[j].Lambda, ES)
            wrong = [((expected[0], expected[1], -ES), "sign of S_k: eq. (53) has S_k = -(G_k E~_k)^-1 "
                                                      "Q_k, so the child follows body j (E~_k S_k)")]
            for flags, hint in (
                    (dict(weighted=False),
                     "condition 2 must hold with M_hat_k: E~_k needs D~_k^T M_hat_k E~_k = 0 (eq. 51)"),
                    (dict(own_lambda=False),
                     "Lambda_j also carries each child's own Lambda_k: xi~_k = (y~_kf, xi_k), eq. (54)"),
                    (dict(lambda_first=True),
                     "order of the blocks: xi~_k = (y~_kf, xi_k), so D~_k^T M_hat_k D~_k comes before "
                     "Lambda_k"),
                    (dict(with_children=False),
                     "M_hat_j adds S_k^T M~_kc S_k for every child k (eq. 57)")):
                w = _step(M_j, children, maps=True, **flags)
                if not all(np.allclose(a, b) for a, b in zip(w, expected) if a.shape == b.shape) \
                        or any(a.shape != b.shape for a, b in zip(w, expected)):
                    wrong += [((w[0], w[1], ES), hint), (w, hint)]
            sizes = ", ".join(f"{c[0].shape[0]}x{c[0].shape[0]}" for c in children)
            describe = (f"node with {len(kids)} child(ren) in a {kind} tree: M_j "
                        f"{M_j.shape[0]}x{M_j.shape[1]}, children's M_hat_k {sizes}, Lambda_j "
                        f"{expected[1].shape[0]}x{expected[1].shape[1]}")
            cases.append(Case((M_j, children), describe, expected, tuple(wrong)))
    return run_cases(name, _with_maps(student_fn), cases)


CHECKERS["subtree_step"] = check_subtree_step


def _map(children, *, lower_left=True, follow=True):
    """P_j, R_j of §6's first property, rows child by child (stage 4); flags make mistakes."""
    P_rows, R_blocks = [], []
    for Et, Dt, S, P_k, R_k in children:
        top = Et @ S
        P_rows += [top, (P_k @ top) if follow else np.zeros((P_k.shape[0], top.shape[1]))]
        low = P_k @ Dt if lower_left else np.zeros((P_k.shape[0], Dt.shape[1]))
        R_blocks.append(np.block([[Dt, np.zeros((Dt.shape[0], R_k.shape[1]))], [low, R_k]]))
    return np.vstack(P_rows), scipy.linalg.block_diag(*R_blocks)


def check_node_map(student_fn, *, n_cases: int = N_CASES, seed: int = SEED):
    """Check ``student_fn(children) -> (P_j, R_j)``, the map of §6's first property for node j.

    ``children`` is a list with one tuple ``(E~_k, D~_k, S_k, P_k, R_k)`` per child k of j:
    the child's matrices of D&G eq. (51) and (53) and the blocks of its own map (``P_k`` is
    0 x p_k and ``R_k`` 0 x 0 for a leaf).  The rows of the answer run child by child, each
    child followed by its descendants in the order of its own ``P_k``; the columns of
    ``R_j`` are xi_j = (y~_kf, xi_k) child by child (D&G eq. 55).  Composing D&G eq. (55), (51) and
    the child's map,

        rows of P_j for child k:   [I; P_k] E~_k S_k,
        block of R_j for child k:  [[D~_k, 0], [P_k D~_k, R_k]].

    Reference: :class:`rfda_teach.coordinates.NodeCoordinates` ``T`` of
    :func:`rfda_teach.coordinates.rfda_coordinates`, its rows regrouped child by child.

    Examples
    --------
    >>> from rfda_teach.exercises import check_node_map
    >>> check_node_map(lambda children: None).passed
    check_node_map: not implemented yet (fill in the function and run this cell again)
    False
    """
    from .. import models
    from ..coordinates import rfda_coordinates
    name = "check_node_map"
    n_cases, seed = options(name, student_fn, n_cases, seed)
    cases = []
    s = seed + 7
    while len(cases) < n_cases:
        kind = "planar" if s % 2 == 0 else "spatial"
        sys = models.random_tree(5, kind=kind, seed=s, chain_bias=0.3)
        st = models.random_state(sys, seed=s)
        s += 1
        nodes = rfda_coordinates(sys, st)
        vs = sys.vel_slices
        for j in sys.topology.order:
            kids = sys.topology.children(j)
            if not kids or len(cases) >= n_cases:
                continue
            nc = nodes[j]
            start, where = 0, {}
            for b in nc.members:
                where[b] = np.arange(start, start + vs[b].stop - vs[b].start)
                start += vs[b].stop - vs[b].start
            rows = np.concatenate([where[b] for k in kids for b in nodes[k].members])
            T = nc.T
            expected = (T[rows, :nc.p], T[rows, nc.p:])
            children = []
            for k in kids:
                Et, Dt, S, _ = nc.child[k]
                children.append((Et, Dt, S, nodes[k].P, nodes[k].R))
            wrong = []
            for flags, hint in ((dict(lower_left=False),
                                 "joint k's free motion moves the descendants too: the lower-left block "
                                 "of R_j is P_k D~_k"),
                                (dict(follow=False),
                                 "the descendants follow body k through P_k: the rows of P_j are "
                                 "[I; P_k] E~_k S_k")):
                w = _map(children, **flags)
                if any(a.shape != b.shape or not np.allclose(a, b) for a, b in zip(w, expected)):
                    wrong.append((w, hint))
            describe = (f"node with {len(kids)} child(ren) in a {kind} tree: P_j "
                        f"{expected[0].shape[0]}x{expected[0].shape[1]}, R_j "
                        f"{expected[1].shape[0]}x{expected[1].shape[1]}")
            cases.append(Case((children,), describe, expected, tuple(wrong)))
    return run_cases(name, student_fn, cases)


CHECKERS["node_map"] = check_node_map
__all__.append("check_node_map")


# ----------------------------------------------------------------------------- questions

#: joint type -> p_kf, the joint speeds of a spatial joint
_P_KF = {"free": 6, "spherical": 3, "revolute": 1, "prismatic": 1}

#: the tree of ex-gt-size: parents and joint types
_SIZE_PARENTS = (-1, 0, 0, 1, 1, 2)
_SIZE_JOINTS = ("free", "spherical", "revolute", "prismatic", "free", "revolute")


def _size_tree():
    from .. import models
    from ..bodies import Body
    from ..joints import Joint
    from ..system import System
    tree = System(_SIZE_PARENTS, tuple(Body("spatial", 1.0, np.eye(3)) for _ in range(6)),
                  tuple(Joint(t) for t in _SIZE_JOINTS), (0.0, 0.0, -9.81))
    return tree, models.random_state(tree, seed=0)


def _size_answer(per_joint, below=True):
    """(dim xi_1, dim xi_0, rows, columns of T_0) with ``per_joint(type)`` entries per joint;
    ``below=False`` counts the children only (a typical slip)."""
    tree, _ = _size_tree()
    topo = tree.topology

    def dim(j):
        ks = topo.descendants(j) if below else topo.children(j)
        return sum(per_joint(_SIZE_JOINTS[k]) for k in ks)
    return (dim(1), dim(0), 6 * tree.n, 6 + dim(0))


@question("ex-gt-size",
          hint="each joint inside the subtree adds its p_kf joint speeds (free 6, spherical 3, "
               "revolute and prismatic 1); T_0 maps (y_0, xi_0) to the velocities of all six "
               "bodies",
          slips=[(lambda ref: _size_answer(lambda t: _P_KF[t], below=False),
                  "xi_j collects the joint speeds of every descendant of j, not of its "
                  "children only: xi_k of each child comes along"),
                 (lambda ref: _size_answer(lambda t: 6 - _P_KF[t]),
                  "you counted the constrained directions p_kc of each joint; xi_j holds the "
                  "free ones, p_kf"),
                 (lambda ref: (ref[0], ref[1], ref[3], ref[2]),
                  "rows and columns of T_0 swapped: T_0 maps (y_0, xi_0) to the velocities of "
                  "all six bodies")])
def _ex_gt_size():
    """(dim xi_1, dim xi_0, rows of T_0, columns of T_0) from the package's coordinates."""
    from ..coordinates import rfda_coordinates
    nodes = rfda_coordinates(*_size_tree())
    return (nodes[1].Lambda.shape[0], nodes[0].Lambda.shape[0], *nodes[0].T.shape)


def _spatial_tree():
    from .. import models
    return models.random_tree(8, kind="spatial", seed=4)


@question("ex-gt-spatial",
          hint="add p_kf over the joints below the root: revolute 1, spherical 3, free 6",
          slips=[(lambda ref: sum(jt.n_dof for jt in _spatial_tree().joints),
                  "joint 0 joins the root to the ground: it is not below the root and adds "
                  "nothing to xi_0"),
                 (lambda ref: len(_spatial_tree().joints) - 1,
                  "one entry per joint is too few: each joint adds its p_kf joint speeds"),
                 (lambda ref: sum(_spatial_tree().joints[k].n_dof
                                  for k in _spatial_tree().topology.children(0)),
                  "xi_0 collects the joint speeds of every joint below the root, not only of "
                  "the root's children")])
def _ex_gt_spatial():
    """dim xi_0 of the spatial tree, from the package's coordinates of RFDA."""
    from .. import models
    from ..coordinates import rfda_coordinates
    tree = _spatial_tree()
    return rfda_coordinates(tree, models.random_state(tree, seed=4))[0].Lambda.shape[0]


@question("ex-gt-misprint",
          hint="evaluate both sides with ydd and lam of eq. (7) and compare them entry by entry",
          slips=[(lambda ref: -ref,
                  "that is the sign of eq. (54) as the paper prints it; evaluate both sides "
                  "again with ydd and lam of eq. (7)")])
def _ex_gt_misprint():
    """``sign`` with E~_k^T (M_hat_k ydd_k - f_hat_k) = sign (G_k E~_k)^T lambda_k at child
    k = 4 of node 2 of Fig. 1 (the chapter's state, Method 2)."""
    from .. import dae, models, rfda
    from ..coordinates import rfda_coordinates
    from ..system import terms
    tree = models.figure1_tree()
    state = models.random_state(tree, seed=1)
    tr = terms(tree, state)
    nodes = rfda_coordinates(tree, state, method="method2")
    lub = rfda.forward_dynamics(tree, state, form="lubich")
    ref = dae.forward_dynamics(tree, state)
    k = 4
    Et = nodes[2].child[k][0]
    lhs = Et.T @ (nodes[k].M_hat @ ref.ydd[tree.vel_slices[k]] - lub.f_hat[k])
    rhs = (tr.joint[k].G @ Et).T @ ref.lam[tree.con_slices[k]]
    sign = float(np.round(lhs @ rhs / (rhs @ rhs)))
    if not np.allclose(lhs, sign * rhs, atol=1e-8):
        raise AssertionError("ex-gt-misprint: the two sides are not proportional")
    return sign


# ----------------------------------------------------------------------------- typical slips

@slip("check_subtree_step", "S_k = +(G_k E~_k)^-1 Q_k (seen through ES_j)", hint="sign of S_k")
def _slip_subtree_S_sign(M_j, children):
    return _step(M_j, children, S_sign=1.0, maps=True)


@slip("check_subtree_step", "E~_k = E_k, condition 2 ignored", hint="condition 2")
def _slip_subtree_unweighted(M_j, children):
    return _step(M_j, children, weighted=False)


@slip("check_subtree_step", "the children's own Lambda_k left out", hint="own Lambda_k")
def _slip_subtree_no_lambda(M_j, children):
    return _step(M_j, children, own_lambda=False)


@slip("check_node_map", "the lower-left block P_k D~_k left out", hint="lower-left block")
def _slip_node_map_lower_left(children):
    return _map(children, lower_left=False)


@slip("check_node_map", "the descendants do not follow body k", hint="follow body k")
def _slip_node_map_follow(children):
    return _map(children, follow=False)
