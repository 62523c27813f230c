import os

# One BLAS thread per process: the test command runs two pytest-xdist workers on two cores, each
# starting notebook kernels and Chromium; multithreaded BLAS in every one of them oversubscribes
# the cores (a notebook that runs in 12 s alone took 129 s inside the build).  Set before numpy
# is imported anywhere; kernels and subprocesses inherit it.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=100, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=15, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def rel(a, b):
    """Relative difference |a - b| / max(|b|, tiny), norm-wise."""
    import numpy as np
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300))
