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
