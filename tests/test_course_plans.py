"""The course plans of book/how_to_use.md fit the chapters as they are (issue "A class can run
it", item 6): the load table agrees with the measured chapters, every exercise a plan assigns
exists, every plan's weeks are even, and the prerequisites name WSL and ODE integration."""
import re
import statistics
from pathlib import Path

import pytest

from rfda_teach.course import chapter_loads, exercise_labels, plan_loads

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "book" / "how_to_use.md").read_text(encoding="utf-8")
REGENERATE = ("the chapters changed since the table was written (others edit them): re-generate the "
              "table and the hours with `python -m rfda_teach.course --write` "
              "(`python -m rfda_teach.course` only prints them)")


def _section(title):
    """From the heading ``title`` to the next heading of the same or a higher level."""
    i = PAGE.index(title)
    level = title.split(" ")[0]
    ends = [j for h in ("\n## ", "\n### ")[:len(level) - 1] if (j := PAGE.find(h, i + len(title))) > 0]
    return PAGE[i:min(ends, default=len(PAGE))]


def _load_table():
    rows = {}
    for line in PAGE.splitlines():
        m = re.match(r"^\| `(\w+)` \| (\d+) \| (\d+) \| (\d+) / (\d+) / (\d+) / (\d+) \| ([\d.]+) \| ([\d.]+) \| "
                     r"([\d.]+) \|$", line)
        if m:
            rows[m.group(1)] = [float(x) for x in m.groups()[1:]]
    return rows


def test_load_table_agrees_with_the_chapters():
    table, loads = _load_table(), chapter_loads(ROOT)
    assert "rotations" in table and "humanoid" in table, "the table 'measured load per chapter' is missing"
    for name, (words, code, c, d, i, m, read_h, ex_h, total_h) in table.items():
        ld = loads[name]
        measured = [ld.prose_words, ld.code_lines, ld.reading_minutes / 60, ld.exercise_minutes / 60, ld.hours]
        for what, printed, now in zip(["prose words", "code lines", "reading h", "exercises h", "total h"],
                                      [words, code, read_h, ex_h, total_h], measured):
            assert abs(printed - now) <= 0.1 * max(now, 0.5), \
                f"{name}: {what} is {printed} in how_to_use.md but {now:.1f} now; {REGENERATE}"
        counts = [ld.count(k) for k in ("concept", "derivation", "implementation", "misprint")]
        assert abs(sum(counts) - (c + d + i + m)) <= max(1, 0.1 * sum(counts)), \
            f"{name}: {c + d + i + m:.0f} exercises in how_to_use.md, {sum(counts)} now; {REGENERATE}"
    missing = [n for n, ld in loads.items() if n not in table and ld.exercises]
    assert not missing, f"chapters with exercises missing from the load table: {missing}; {REGENERATE}"


def test_every_plan_label_is_an_exercise():
    plans = _section("## Two course plans")
    labels = set(exercise_labels(ROOT))
    cited = re.findall(r"\{ref\}`(?:[^`<]*<)?([\w-]+)>?`", plans)
    assert len(cited) > 40
    unknown = sorted(set(cited) - labels)
    assert not unknown, f"the course plans cite labels that are no exercise of the book: {unknown}"


@pytest.fixture(scope="module")
def plans():
    out = plan_loads(_section("## Two course plans"), ROOT)
    assert len(out) == 2, f"expected two course plans, found {list(out)}"
    return out


def test_plans_have_the_promised_lengths(plans):
    lengths = sorted(len(weeks) for weeks in plans.values())
    assert lengths[0] == 6 and 12 <= lengths[1] <= 14, lengths


def test_weekly_loads_are_even(plans):
    for plan, weeks in plans.items():
        hours = [r + e for _, r, e in weeks]
        median = statistics.median(hours)
        for (week, r, e), h in zip(weeks, hours):
            assert h <= 1.4 * median and h >= median / 1.4, \
                f"{plan}, week {week}: {h:.1f} h against a median week of {median:.1f} h; move reading or exercises"
            assert 4 <= h <= 9, f"{plan}, week {week}: {h:.1f} h of study is not a realistic graduate week"


def test_printed_weekly_hours_agree(plans):
    for plan, weeks in plans.items():
        printed = [tuple(map(float, m)) for m in
                   re.findall(r"\| ([\d.]+) \+ ([\d.]+) = ([\d.]+) \|$", _section("### " + plan), flags=re.M)]
        assert len(printed) == len(weeks), f"{plan}: every week needs its hours column"
        for (week, r, e), (pr, pe, pt) in zip(weeks, printed):
            assert abs(pt - (r + e)) <= 0.1 * (r + e), \
                f"{plan}, week {week}: {pt} h printed, {r + e:.1f} h now; {REGENERATE}"


def test_prerequisites_name_wsl_and_ode_integration():
    who = _section("## Who this book is for")
    assert "WSL" in who and "Windows" in who
    assert "solve_ivp" in who and re.search(r"stiff", who) and re.search(r"step size", who)
