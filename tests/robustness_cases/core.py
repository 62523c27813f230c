"""Bad-input cases (see tests/robustness_cases/__init__.py for the format)."""
from __future__ import annotations

from rfda_teach import errors  # noqa: F401

from robustness_cases import Case  # noqa: F401

CASES: list = []
COVERED: list = []
EXEMPT: dict = {}
