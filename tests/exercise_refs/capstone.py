"""Reference solutions and wrong answers for rfda_teach.exercises.capstone (see __init__)."""

import numpy as np
import scipy.linalg


def cut_multipliers(C, gamma, a0, Y):
    """(C Y) mu = gamma - C a0 by Cholesky (C Y = C M^-1 C^T is symmetric positive definite);
    ydd = a0 + Y mu."""
    S = C @ Y
    mu = scipy.linalg.cho_solve(scipy.linalg.cho_factor(0.5 * (S + S.T)), gamma - C @ a0)
    return mu, a0 + Y @ mu


REFERENCE = {"cut_multipliers": cut_multipliers}


def _transposed_rows(C, gamma, a0, Y):
    """C^T C instead of C Y: the wrong small matrix (and a shape the checker names)."""
    mu = np.linalg.lstsq(C @ C.T, gamma - C @ a0, rcond=None)[0]
    return mu, a0 + Y @ mu


def _plus_free(C, gamma, a0, Y):
    """The free motion's violation added instead of subtracted."""
    mu = np.linalg.solve(C @ Y, gamma + C @ a0)
    return mu, a0 + Y @ mu


WRONG = [
    ("cut_multipliers", _plus_free, "gamma - C a_0"),
    ("cut_multipliers", _transposed_rows, "not C C^T"),
]
