"""Reference solutions and wrong answers for rfda_teach.exercises.standard_forms (see __init__)."""

REFERENCE: dict = {}
WRONG: list = []
