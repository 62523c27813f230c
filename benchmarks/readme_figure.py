"""Draw the README picture: eq. (7) for the Fig. 1 tree and its mass matrix in the coordinates of RFDA.

Run:  python benchmarks/readme_figure.py   (writes book/figures/overview.png)
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import scipy.linalg  # noqa: E402

from rfda_teach import coordinates as co, dae, models, viz  # noqa: E402
from rfda_teach.system import terms  # noqa: E402


def main():
    sys_ = models.figure1_tree()
    st = models.random_state(sys_, seed=1)
    res = dae.forward_dynamics(sys_, st)
    nodes = co.rfda_coordinates(sys_, st)
    nc = nodes[2]
    tr = terms(sys_, st)
    Mv = co.appendix_b(nc.T, scipy.linalg.block_diag(*[tr.M[i] for i in nc.members]))
    fig, axes = plt.subplots(1, 2, figsize=(10, 5))
    viz.plot_eq7(sys_, res, ax=axes[0])
    axes[0].set_title("Eq. (7) for the Fig. 1 tree (13 bars)")
    p = nc.p
    viz.plot_matrix_blocks(np.where(np.abs(Mv) < 1e-12, 0.0, Mv), [slice(0, p), slice(p, Mv.shape[0])],
                           [slice(0, p), slice(p, Mv.shape[0])], ax=axes[1], annotate=False,
                           row_labels=["$y_2$", "$\\xi_2$"], col_labels=["$y_2$", "$\\xi_2$"],
                           title="Node 2 in its coordinates of RFDA: diag($\\hat M_2$, $\\Lambda_2$)")
    fig.tight_layout()
    out = Path(__file__).resolve().parents[1] / "book" / "figures" / "overview.png"
    fig.savefig(out, dpi=90)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
