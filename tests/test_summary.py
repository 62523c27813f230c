"""rfda_teach.summary: the pieces every record's one-line repr and notebook table share."""
from rfda_teach import summary


def test_count_by_kind_keeps_first_seen_order():
    assert summary.count_by_kind(["prismatic", "revolute", "prismatic"]) == "2 prismatic + 1 revolute"
    assert summary.count_by_kind(iter(["s"])) == "1 s"
    assert summary.count_by_kind([]) == ""


def test_html_table_escapes_every_cell_and_has_one_row_per_entry():
    t = summary.html_table("R '<x>'", ("a&b", "name"), [(1, "<arm>"), (2, "leg & foot")], "parts & pieces")
    assert t.startswith("<p><code>R &#x27;&lt;x&gt;&#x27;</code></p><details><summary>parts &amp; pieces</summary>")
    assert t.count("<tr>") == 3 and "<th>a&amp;b</th>" in t
    assert "<td>&lt;arm&gt;</td>" in t and "<td>leg &amp; foot</td>" in t and "<arm>" not in t


def test_samples_gives_count_and_span():
    assert summary.samples([0.0, 0.5, 1.0]) == "3 samples, t = 0 … 1 s"
    assert summary.samples([]) == "0 samples"

