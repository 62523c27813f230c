"""Reference solutions and wrong answers for rfda_teach.exercises.general_tree (see __init__)."""

REFERENCE: dict = {}
WRONG: list = []
