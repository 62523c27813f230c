"""The test command's own machinery: what keeps it on two workers and under its time budget."""
import pytest

pytestmark = pytest.mark.xdist_group("ci")


def test_xdist_groups_keep_their_tests_on_one_worker(request):
    """``--dist loadgroup`` sends every test marked ``xdist_group("book")`` to one worker, so the
    book is built once; pytest-xdist does it by appending ``@<group>`` to the node id.  pytest 9.2
    keeps node ids where xdist 3.8 cannot change them: the groups were silently split and the
    book built and the PDF typeset twice (requirements.txt pins pytest below 9.2)."""
    if not getattr(request.config.option, "loadgroup", False):      # set on the workers by xdist
        pytest.skip("not run with -n N --dist loadgroup (the README's test command uses it)")
    assert request.node.nodeid.endswith("@ci"), (
        f"node id {request.node.nodeid!r} has no '@ci' group suffix: pytest-xdist's loadgroup does not "
        "work with this pytest (pin pytest below 9.2 in requirements.txt)")
