"""rfda_teach: a runnable textbook on recursive forward dynamics of multibody systems.

Modules mirror the concepts of Deepak & Ghosal (2008): :mod:`~rfda_teach.tree`,
:mod:`~rfda_teach.bodies`, :mod:`~rfda_teach.joints`, force elements (:mod:`~rfda_teach.forces`),
:mod:`~rfda_teach.system`,
:mod:`~rfda_teach.dae` (D&G eq. 7), :mod:`~rfda_teach.coordinates` (§4-§6, App. A-B),
:mod:`~rfda_teach.rfda` (D&G eq. 8-12), :mod:`~rfda_teach.models`,
:mod:`~rfda_teach.symbolic`; counting scalar multiplications, an optional ``tally`` of the
algorithms themselves (:mod:`~rfda_teach.count`); the joint-space baseline
(:mod:`~rfda_teach.jointspace`); Kane's equations with relative Euler parameters
(:mod:`~rfda_teach.kane`); the analysis reference point (:mod:`~rfda_teach.refpoint`);
closed planar loops: the mechanism record (:mod:`~rfda_teach.loops`), their recursive coordinate
reduction (:mod:`~rfda_teach.rcr`) and its references (:mod:`~rfda_teach.loopref`);
real robots through Pinocchio (:mod:`~rfda_teach.interop`, optional extra ``robots``) and a
compiled fast path (:mod:`~rfda_teach.fastpath`, optional extra ``fast``).

Examples
--------
>>> import numpy as np, rfda_teach as rt
>>> sys = rt.models.figure1_tree()
>>> st = rt.models.random_state(sys, seed=0)
>>> a = rt.rfda.forward_dynamics(sys, st, form="featherstone")
>>> bool(np.allclose(a.ydd, rt.dae.forward_dynamics(sys, st).ydd))
True
"""

from . import errors, count, tree, bodies, joints, forces, system, dae, coordinates, rfda, models  # noqa: F401
from . import simulate  # noqa: F401
from . import benchmark  # noqa: F401
from . import viz, kane, refpoint, loops  # noqa: F401
# interop needs the optional extra "robots" (pinocchio); import it explicitly: from rfda_teach import interop
from .errors import RFDAError, TopologyError, ConstraintRankError, SingularCoordinateSelectionError, ModelError  # noqa: F401
from .system import System, State  # noqa: F401

__version__ = "0.1.0"


def __getattr__(name):
    """``rfda_teach.symbolic`` on first use: sympy takes a third of the package's import time,
    and half of the chapters never use it."""
    if name == "symbolic":
        import importlib

        return importlib.import_module(".symbolic", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
