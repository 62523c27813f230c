import pytest

from rfda_teach.errors import TopologyError
from rfda_teach.models import FIGURE1_PARENTS
from rfda_teach.tree import Topology


def test_figure1_children_and_descendants():
    t = Topology.from_parents(FIGURE1_PARENTS)
    assert t.descendants(2) == (4, 5, 7, 10, 11, 12)     # footnote 6
    assert t.h(2, 3) == 7                                 # footnote 6: h(2,3) = 7
    assert t.children(0) == (1, 2, 3)
    assert t.g(5, 2) == 11
    assert t.root == 0 and t.n == 13
    pos = {k: i for i, k in enumerate(t.order)}
    assert all(pos[p] < pos[i] for i, p in enumerate(t.parents) if p >= 0)
    assert [t.is_leaf(i) for i in (6, 12, 2)] == [True, True, False]
    assert t.depth(12) == 5


def test_order_parent_first_for_unsorted_numbering():
    t = Topology.from_parents([2, -1, 1, 0])
    pos = {k: i for i, k in enumerate(t.order)}
    assert pos[1] < pos[2] < pos[0] < pos[3]
    with pytest.raises(TopologyError, match="body 0 is numbered lower than its parent 2"):
        t.require_parent_numbered_lower()


@pytest.mark.parametrize("parents, msg", [
    ([-1, 2, 1], r"bodies 1, 2 form a cycle"),
    ([-1, 5], r"body 1 has unknown parent 5"),
    ([1, 0], r"no root"),
    ([-1, 1], r"body 1 is its own parent"),
    ([-1, 0.5], r"parent of body 1 is 0.5"),
    ([], r"empty"),
])
def test_bad_topologies(parents, msg):
    with pytest.raises(TopologyError, match=msg):
        Topology.from_parents(parents)


def test_bad_node_queries():
    t = Topology.from_parents([-1, 0])
    with pytest.raises(TopologyError, match="node 7 does not exist"):
        t.children(7)
    with pytest.raises(TopologyError, match=r"g\(0, 2\)"):
        t.g(0, 2)
    with pytest.raises(TopologyError, match=r"h\(1, 1\)"):
        t.h(1, 1)


def test_several_roots_make_a_forest():
    t = Topology.from_parents([-1, -1, 0, 1, 1])
    assert t.roots == (0, 1) and t.root == 0
    assert t.order == (0, 2, 1, 3, 4)
    assert t.children(1) == (3, 4) and t.depth(4) == 2
    with pytest.raises(TopologyError, match=r"needs a single root, but bodies \[0, 1\]"):
        t.require_single_root("the test")


def test_long_cycle_is_named():
    with pytest.raises(TopologyError, match=r"bodies 1, 2, 3 form a cycle \(1 -> 3 -> 2 -> 1\)"):
        Topology.from_parents([-1, 3, 1, 2])
