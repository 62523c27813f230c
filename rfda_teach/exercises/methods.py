"""Questions and checkers of the book's ``methods`` chapter (registered in
:mod:`rfda_teach.exercises`, which re-exports the checkers).

* question ``ex-methods-prismatic``: D_k of the chapter's planar prismatic joint, by geometry
  (a 3 x 1 column of unit length, up to sign).
"""

from __future__ import annotations

import numpy as np

from .questions import question  # noqa: F401  (registers the chapter's questions)

__all__: list = []

#: name -> checker, merged into :data:`rfda_teach.exercises.CHECKERS`
CHECKERS: dict = {}

#: the slide axis of the chapter's prismatic joint, from body j's x-hat axis (rad)
THETA_U = 0.7


def _slider():
    """The chapter's slider: body j free, body k on a prismatic joint along THETA_U, at the
    state ``st_s`` of the notebook (``models.random_state(slider, seed=5)``)."""
    from .. import models
    from ..bodies import Body
    from ..joints import Joint
    from ..system import System, terms
    slider = System((-1, 0), (Body("planar", 2.0, 0.4), Body("planar", 1.0, 0.1)),
                    (Joint("free2d"),
                     Joint("prismatic2d", parent_point=(0.3, 0.0), child_point=(0.0, 0.2),
                           parent_frame=THETA_U)))
    st = models.random_state(slider, seed=5)
    return st, terms(slider, st)


def _unit(x) -> np.ndarray:
    x = np.asarray(x, dtype=float).reshape(3, 1)
    return x / np.linalg.norm(x)


def _axis(angle: float) -> np.ndarray:
    """A pure slide along the world direction ``angle``, as a unit 3 x 1 column."""
    return _unit([np.cos(angle), np.sin(angle), 0.0])


def _phi_j() -> float:
    return float(_slider()[0].y[2])


@question("ex-methods-prismatic", up_to_sign=True,
          hint="D_k spans the null space of G_k: which motion of body k does the joint "
               "allow, and does it turn the body?",
          slips=[(lambda ref: _axis(THETA_U),
                  "the slide axis is fixed in body j: in world axes its angle includes "
                  "body j's angle phi_j = st_s.y[2]"),
                 (lambda ref: _axis(_phi_j() + THETA_U + np.pi / 2),
                  "that direction is across the slide axis, the one the joint forbids"),
                 (lambda ref: _unit([0.0, 0.0, 1.0]),
                  "a prismatic joint allows no relative rotation: D_k does not turn body k")])
def _ex_methods_prismatic():
    """Appendix A's D_k of the slider at ``st_s``, scaled to unit length."""
    from ..coordinates import appendix_a
    jt = _slider()[1].joint[1]
    return _unit(appendix_a(jt.G, jt.G_d)[1])
