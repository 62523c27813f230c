"""Reference solutions and typical wrong answers of the later chapters' exercise checkers.

One module per chapter module of :mod:`rfda_teach.exercises` (``seeing``, ``standard_forms``,
``general_tree``), each with

* ``REFERENCE``: checker name (a key of ``rfda_teach.exercises.CHECKERS``) -> a correct solution;
* ``WRONG``: list of ``(checker name, wrong function, word the hint must contain)``.

``tests/test_exercises.py`` merges them into its own tables, so every generic test (reference
passes, stub is "not implemented yet", output never contains the expected numbers, ...) runs
on these checkers too.
"""
