"""Reference solution and wrong answers for rfda_teach.exercises.featherstone (see __init__)."""

import numpy as np


def child_map(angle):
    """E~_2 S_2 = n n^T for a rail at ``angle``: the unit normal n = (sin, -cos)."""
    n = np.array([np.sin(angle), -np.cos(angle)])
    return np.outer(n, n)


REFERENCE = {"child_map": child_map}


def _along_rail(angle):
    t = np.array([np.cos(angle), np.sin(angle)])
    return np.outer(t, t)


WRONG = [
    ("child_map", _along_rail, "rail direction t"),
    ("child_map", lambda a: np.eye(2), "projector of rank one"),
    ("child_map", lambda a: -child_map(a), "sign"),
]
