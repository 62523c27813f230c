"""Every code name in the book's notation table exists in the package."""
import dataclasses
import importlib
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "book" / "notation.md"


def _resolve(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if hasattr(obj, attr):
                obj = getattr(obj, attr)
            elif dataclasses.is_dataclass(obj) and attr in {f.name for f in dataclasses.fields(obj)}:
                obj = None
            else:
                return False
        return True
    return False


def test_notation_table_names_exist():
    names = re.findall(r"`(rfda_teach\.[\w.]+)`", PAGE.read_text())
    assert len(names) > 40
    missing = [n for n in names if not _resolve(n)]
    assert not missing, f"notation.md names code that does not exist: {missing}"


def test_resolver_can_fail():
    assert not _resolve("rfda_teach.coordinates.method_3")
    assert not _resolve("rfda_teach.rfda.RFDAResult.M_hatt")
