"""Reference solutions and wrong answers for rfda_teach.exercises.general_tree (see __init__)."""

import numpy as np
import scipy.linalg


def _step(M_j, children, *, method="1", own=True, first=False, scale=1.0):
    """One induction step of §6, eq. (51)-(57), written out with numpy only."""
    M_hat = np.array(M_j, dtype=float)
    blocks = []
    for M_k, G_k, Q_k, D_k, Lam_k in children:
        if method == "1":                        # Method 1, C_c = I: eq. (38)
            Et = np.linalg.solve(M_k, G_k.T)
        else:                                    # unweighted: condition 2 fails
            Et = G_k.T @ np.linalg.inv(G_k @ G_k.T)
        S = -np.linalg.solve(G_k @ Et, Q_k)      # eq. (53)
        M_hat = M_hat + scale * S.T @ (Et.T @ M_k @ Et) @ S   # eq. (57)
        mine = D_k.T @ M_k @ D_k                 # M~_kf, eq. (54)
        blocks += ([Lam_k, mine] if first else [mine, Lam_k]) if own else [mine]
    return M_hat, scipy.linalg.block_diag(*blocks)


def subtree_step(M_j, children):
    return _step(M_j, children)


REFERENCE = {"subtree_step": subtree_step}

WRONG = [
    ("subtree_step", lambda M, c: _step(M, c, method="plain"), "condition 2"),
    ("subtree_step", lambda M, c: _step(M, c, own=False), "own Lambda_k"),
    ("subtree_step", lambda M, c: _step(M, c, first=True), "order of the blocks"),
]


def node_map(children):
    """P_j, R_j of §6's first property, rows child by child (stage 4)."""
    P_rows, R_blocks = [], []
    for Et, Dt, S, P_k, R_k in children:
        P_rows += [Et @ S, P_k @ Et @ S]
        R_blocks.append(np.block([[Dt, np.zeros((Dt.shape[0], R_k.shape[1]))],
                                  [P_k @ Dt, R_k]]))
    return np.vstack(P_rows), scipy.linalg.block_diag(*R_blocks)


def _map_no_lower_left(children):
    P, R = node_map(children)
    out, r, c = R.copy(), 0, 0
    for Et, Dt, S, P_k, R_k in children:
        n_k = Dt.shape[0]
        out[r + n_k : r + n_k + P_k.shape[0], c : c + Dt.shape[1]] = 0.0
        r += n_k + P_k.shape[0]
        c += Dt.shape[1] + R_k.shape[1]
    return P, out


def _map_no_follow(children):
    P_rows = []
    for Et, Dt, S, P_k, R_k in children:
        P_rows += [Et @ S, np.zeros((P_k.shape[0], S.shape[1]))]
    return np.vstack(P_rows), node_map(children)[1]


REFERENCE["node_map"] = node_map
WRONG += [
    ("node_map", _map_no_lower_left, "lower-left block"),
    ("node_map", _map_no_follow, "follow body k"),
]
