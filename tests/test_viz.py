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
