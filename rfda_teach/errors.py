"""One exception hierarchy for every input the package can refuse.

Every message says *what* was wrong, *where* (body, joint, node, argument)
and *what to do*.  Nothing a user types should surface as a bare
``numpy.linalg.LinAlgError`` or ``IndexError``.

Examples
--------
>>> from rfda_teach.errors import RFDAError, TopologyError
>>> issubclass(TopologyError, RFDAError)
True
"""

from __future__ import annotations


class RFDAError(Exception):
    """Base class of every error raised on purpose by :mod:`rfda_teach`."""


class TopologyError(RFDAError, ValueError):
    """The parent array does not describe a single rooted tree.

    Raised for a cycle, several roots, an unknown parent, or (where a method
    needs it) a body numbered lower than its parent.
    """


class ConstraintRankError(RFDAError, ValueError):
    """A joint's constraint Jacobian G_k is not of full row rank (D&G eq. 1).

    The message names the joint and the rank found.
    """


class SingularCoordinateSelectionError(RFDAError, ValueError):
    """A choice of dependent coordinates makes the reduced Jacobian singular."""


class ModelError(RFDAError, ValueError):
    """Bad physical data or state: non-positive mass, inertia not positive
    definite, NaN/inf, non-unit Euler parameters, wrong shapes or types."""


class ConstraintViolationError(ModelError):
    """A state that violates a joint or a loop closure beyond the tolerance.

    The message names the joint (or loop), the residual and the tolerance, and
    says how to get a consistent state (e.g. ``models.state_from_joints``).
    Functions that check consistency accept ``check=False`` for inner loops.
    """


class IllConditionedError(RFDAError, ArithmeticError):
    """A computation that is well posed in exact arithmetic broke down in
    floating point (e.g. a Cholesky factor of M_hat_k at extreme mass ratios).

    The message names the node, the condition estimate and a stable
    alternative (e.g. ``form="featherstone"``).
    """


class RFDAWarning(UserWarning):
    """A result was computed but is poorly conditioned (e.g. the Lubich form at
    extreme mass ratios); the message names the cause and a stable alternative."""
