"""Reference solution and wrong answers for rfda_teach.exercises.kane (see __init__)."""


def kane_mass_matrix(masses, inertias, VG, W):
    """Eq. (40) of the Kane notes, written independently of the package."""
    return sum(m * V.T @ V + Wk.T @ I @ Wk for m, I, V, Wk in zip(masses, inertias, VG, W))


REFERENCE = {"kane_mass_matrix": kane_mass_matrix}
WRONG = [
    ("kane_mass_matrix", lambda m, I, V, W: sum(Wk.T @ Ik @ Wk for Ik, Wk in zip(I, W)), "translational term"),
    ("kane_mass_matrix", lambda m, I, V, W: sum(mk * Vk.T @ Vk for mk, Vk in zip(m, V)), "rotational term"),
]
