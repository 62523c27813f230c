"""Reference solutions and wrong answers for rfda_teach.exercises.seeing (see __init__)."""

REFERENCE: dict = {}
WRONG: list = []
