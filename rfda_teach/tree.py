"""Topology of a tree of rigid bodies (Deepak & Ghosal, §2 and §6).

A tree is given by a *parent array*: ``parent[i]`` is the body that body ``i``
hangs from, ``-1`` for the root, which hangs from the global frame.  The joint
between body ``i`` and its parent carries the same number ``i`` (paper, §2).

Children ``g(i, p)`` and descendants ``h(i, p)`` (section 6 and footnote 6) are
listed in ascending body number, so the descendants of node 2 of Fig. 1 come
out as 4, 5, 7, 10, 11, 12, the order the paper uses.

Examples
--------
>>> topo = Topology.from_parents([-1, 0, 0, 1])
>>> topo.children(0), topo.descendants(0), topo.order
((1, 2), (1, 2, 3), (0, 1, 3, 2))
>>> topo.g(0, 2)   # second child of node 0 (1-based p, as in the paper)
2
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import TopologyError

__all__ = ["Topology", "validate_parents"]


def validate_parents(parents) -> tuple[int, ...]:
    """Check a parent array and return it as a tuple of ints.

    Several bodies may hang from the ground (parent -1): the tree is then a
    forest, as for a fixed-base robot with two arms on its base.  Raises
    :class:`~rfda_teach.errors.TopologyError` for a non-integer entry, an
    unknown parent, no root, a self-loop, or a cycle.  Runs in O(n): every
    body is walked up towards the ground once.


    Examples
    --------
    >>> validate_parents([-1, 0, 1])
    (-1, 0, 1)
    >>> validate_parents([-1, 2, 1])
    Traceback (most recent call last):
    ...
    rfda_teach.errors.TopologyError: bodies 1, 2 form a cycle (1 -> 2 -> 1) and never reach the ground; give one of them a parent on the path to a root (parent -1)
    """
    try:
        seq = list(parents)
    except TypeError as exc:
        raise TopologyError(f"parent array must be a sequence of ints, got {parents!r}") from exc
    if isinstance(parents, (str, bytes)):
        raise TopologyError(f"parent array must be a sequence of ints, got the string {parents!r}")
    n = len(seq)
    if n == 0:
        raise TopologyError("parent array is empty; a tree needs at least one body (parent -1 = ground)")
    out = []
    for i, p in enumerate(seq):
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)):
            raise TopologyError(f"parent of body {i} is {p!r}; use an integer body number or -1 for the ground")
        p = int(p)
        if p < -1 or p >= n:
            raise TopologyError(
                f"body {i} has unknown parent {p}; parents must be -1 (ground) or a body number 0..{n - 1}")
        if p == i:
            raise TopologyError(f"body {i} is its own parent; give it another parent or -1 for the ground")
        out.append(p)
    if -1 not in out:
        raise TopologyError("no root: no body has parent -1; attach at least one body to the ground")
    state = [0] * n                     # 0 unseen, 1 on the current path, 2 known to reach the ground
    for i in range(n):                  # every body is walked once: O(n)
        path, j = [], i
        while j != -1 and state[j] == 0:
            state[j] = 1
            path.append(j)
            j = out[j]
        if j != -1 and state[j] == 1:   # walked back onto the current path: a cycle
            cyc = path[path.index(j):]
            chain = " -> ".join(str(c) for c in cyc + [j])
            raise TopologyError(
                f"bodies {', '.join(str(c) for c in sorted(cyc))} form a cycle ({chain}) and never "
                "reach the ground; give one of them a parent on the path to a root (parent -1)")
        for k in path:
            state[k] = 2
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Topology:
    """A validated tree (or forest): parent array, children, descendants, sweep order.

    ``roots`` are the bodies attached to the ground (parent -1), ascending;
    ``root`` is the first of them.  ``order`` visits every root's subtree in
    turn, each parent before its children (preorder), so a root-to-leaves
    sweep runs over ``order`` and a leaves-to-root sweep over its reverse.
    """

    parents: tuple[int, ...]
    roots: tuple[int, ...]
    _children: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]  # roots' subtrees in turn; every parent before its children (preorder)

    @classmethod
    def from_parents(cls, parents) -> "Topology":
        """Build a topology from a parent array (``-1`` marks the root)."""
        par = validate_parents(parents)
        n = len(par)
        children = [[] for _ in range(n)]
        for i, p in enumerate(par):
            if p >= 0:
                children[p].append(i)
        roots = tuple(i for i, p in enumerate(par) if p == -1)
        order, stack = [], list(reversed(roots))
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(reversed(children[i]))     # children are ascending already
        return cls(par, roots, tuple(tuple(c) for c in children), tuple(order))

    @property
    def root(self) -> int:
        """The first body attached to the ground (the only one for a single tree)."""
        return self.roots[0]

    @property
    def n(self) -> int:
        """Number of bodies."""
        return len(self.parents)

    def parent(self, i: int) -> int:
        """P(i): the parent of node i, -1 for the root."""
        self._check(i)
        return self.parents[i]

    def children(self, i: int) -> tuple[int, ...]:
        """All k with P(k) = i, ascending."""
        self._check(i)
        return self._children[i]

    def g(self, i: int, p: int) -> int:
        """g(i, p): the p-th child of node i (p counts from 1, as in D&G eq. 55)."""
        ch = self.children(i)
        if not 1 <= p <= len(ch):
            raise TopologyError(f"node {i} has {len(ch)} children; g({i}, {p}) needs 1 <= p <= {len(ch)}")
        return ch[p - 1]

    def require_single_root(self, what: str = "this method") -> None:
        """Raise TopologyError unless exactly one body hangs from the ground."""
        if len(self.roots) > 1:
            raise TopologyError(
                f"{what} needs a single root, but bodies {list(self.roots)} all have parent -1; "
                "attach the others to a body (or add a common base body)")

    def descendants(self, i: int) -> tuple[int, ...]:
        """All descendants of node i in ascending order (footnote 6 of the paper)."""
        self._check(i)
        out, stack = [], list(self._children[i])
        while stack:
            k = stack.pop()
            out.append(k)
            stack.extend(self._children[k])
        return tuple(sorted(out))

    def h(self, i: int, p: int) -> int:
        """h(i, p): the p-th descendant of node i (p counts from 1; h(2, 3) = 7 in Fig. 1)."""
        d = self.descendants(i)
        if not 1 <= p <= len(d):
            raise TopologyError(f"node {i} has {len(d)} descendants; h({i}, {p}) needs 1 <= p <= {len(d)}")
        return d[p - 1]

    def is_leaf(self, i: int) -> bool:
        """True for a terminal node."""
        return not self.children(i)

    def depth(self, i: int) -> int:
        """Number of joints between node i and the ground."""
        self._check(i)
        d = 0
        while i != -1:
            i = self.parents[i]
            d += 1
        return d

    def require_parent_numbered_lower(self) -> None:
        """Raise TopologyError unless every body is numbered higher than its parent."""
        for i, p in enumerate(self.parents):
            if p > i:
                raise TopologyError(
                    f"body {i} is numbered lower than its parent {p}; this method needs bodies numbered "
                    "outward from the root (renumber so that parent < child)")

    def _check(self, i) -> None:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(self.parents):
            raise TopologyError(f"node {i!r} does not exist; nodes are 0..{len(self.parents) - 1}")
