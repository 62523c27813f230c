"""Draw the chapter-dependency graph of "How to use this book" (book/how_to_use.md).

Run from the repository root:  python book/figures/make_dependencies.py
It writes book/figures/chapter_dependencies.png.  Only matplotlib is needed (no graphviz):
the layout is fixed by hand: chapters in reading order from the top, coloured by part.

An arrow A -> B means "read A before B".  Solid arrows are needed (B uses what A defines);
dashed arrows are helpful (B refers back to A, or compares with it).  Edges implied by a
chain of solid arrows are left out, so the graph shows only direct dependencies; the table
"Prerequisites of each chapter" in how_to_use.md lists the same edges in words.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402
from matplotlib.path import Path as MplPath  # noqa: E402

# (file name, title on the figure, part, x, row); rows grow downwards
CHAPTERS = [
    ("how_to_use", "How to use this book", 0, 0.0, 0.0),
    ("rotations", "Rotations, angular velocity,\nEuler parameters", 0, 0.0, 1.0),
    ("rigid_body", "One rigid body", 0, 0.0, 2.0),
    ("joints", "Joints are constraints", 0, 0.0, 3.0),
    ("constrained", "Constrained dynamics", 0, 0.0, 4.0),
    ("jointspace", "The joint-space baseline", 0, 0.0, 5.0),
    ("spatial_vectors", "Spatial vectors", 0, 3.2, 2.5),
    ("dae", "The absolute-coordinate DAE", 1, 3.2, 4.0),
    ("recursion", "The recursive algorithm", 1, 3.2, 5.0),
    ("elimination", "One elimination", 1, 3.2, 6.0),
    ("featherstone", "Featherstone's example", 1, 3.2, 7.0),
    ("revolute_pair", "The planar revolute pair", 1, 3.2, 8.0),
    ("methods", "Conditions 1, 2;\nMethods 1, 2", 1, 3.2, 9.0),
    ("standard_forms", "Back to the standard forms", 1, 3.2, 10.0),
    ("seeing", "Seeing the coordinates", 1, 3.2, 11.0),
    ("general_tree", "The general tree", 1, 3.2, 12.0),
    ("kane", "Kane with relative\nEuler parameters", 2, 0.0, 6.6),
    ("refpoint", "The analysis\nreference point", 2, 7.0, 3.4),
    ("closed_loops", "Closed loops:\nRCR, ACS, GCL", 2, 7.0, 5.0),
    ("capstone", "One mechanism,\nevery formulation", 2, 7.0, 7.0),
    ("humanoid", "A humanoid and\nother URDF robots", 3, 0.0, 8.6),
]

# (before, after, needed?, route): route None is a straight arrow between the boxes; a number
# is the x of a vertical channel the arrow runs along (beside a column, around the boxes); a
# list is the arrow's waypoints.  The edges are the table "Prerequisites of each chapter" of
# how_to_use.md with every arrow that a chain of solid arrows implies left out.
EDGES = [
    ("how_to_use", "rotations", True, None),
    ("rotations", "rigid_body", True, None),
    ("rigid_body", "joints", True, None),
    ("joints", "constrained", True, None),
    ("constrained", "jointspace", True, None),
    ("rigid_body", "spatial_vectors", True, None),
    ("constrained", "dae", True, None),
    ("dae", "recursion", True, None),
    ("jointspace", "recursion", True, None),
    ("spatial_vectors", "recursion", True, [(4.45, -2.5), (4.75, -2.5), (4.75, -4.85), (4.45, -4.85)]),
    ("recursion", "elimination", True, None),
    ("elimination", "featherstone", True, None),
    ("featherstone", "revolute_pair", True, None),
    ("revolute_pair", "methods", True, None),
    ("methods", "standard_forms", True, None),
    ("methods", "seeing", True, 1.7),
    ("standard_forms", "seeing", False, None),
    ("standard_forms", "general_tree", True, 1.5),
    ("seeing", "general_tree", True, None),
    ("jointspace", "kane", True, None),
    ("recursion", "kane", False, None),
    ("elimination", "refpoint", True, [(4.45, -6.0), (8.6, -6.0), (8.6, -3.4), (8.25, -3.4)]),
    ("spatial_vectors", "closed_loops", True, None),
    # below the recursion box, into closed_loops from underneath
    ("jointspace", "closed_loops", True, [(0.6, -5.33), (0.6, -5.5), (7.0, -5.5), (7.0, -5.33)]),
    ("recursion", "closed_loops", False, [(4.45, -5.15), (5.75, -5.15)]),
    ("general_tree", "humanoid", True, [(3.2, -12.33), (3.2, -12.6), (-1.6, -12.6), (-1.6, -8.6), (-1.25, -8.6)]),
    ("featherstone", "humanoid", False, None),
    ("closed_loops", "capstone", True, [(7.6, -5.33), (7.6, -6.67)]),
    ("elimination", "capstone", True, [(4.45, -6.0), (5.3, -6.0), (5.3, -7.0), (5.75, -7.0)]),
    ("refpoint", "capstone", False, [(8.25, -3.4), (8.45, -3.4), (8.45, -7.0), (8.25, -7.0)]),
    ("kane", "capstone", False, [(0.0, -6.93), (0.0, -7.5), (7.0, -7.5), (7.0, -7.33)]),
]

PARTS = ["Part 0 Foundations", "Part I The special coordinates of RFDA", "Part II Other formulations",
         "Part III Real robots"]
COLOURS = ["#dbe9f6", "#fde3c8", "#d9f0d3", "#eadcf0"]
W, H = 2.5, 0.66                # box size


def draw(path: Path) -> Path:
    """Draw the graph and save it as a PNG at ``path``; returns the path."""
    fig, ax = plt.subplots(figsize=(10.5, 11.5))
    boxes, centre = {}, {}
    for file, title, part, x, row in CHAPTERS:
        y = -row
        box = FancyBboxPatch((x - W / 2, y - H / 2), W, H, boxstyle="round,pad=0.03,rounding_size=0.1",
                             facecolor=COLOURS[part], edgecolor="0.25", linewidth=1.0, zorder=2)
        ax.add_patch(box)
        ax.text(x, y + 0.07, title, ha="center", va="center", fontsize=9.5, zorder=3, linespacing=1.0)
        ax.text(x, y - H / 2 + 0.03, file, ha="center", va="bottom", fontsize=7, family="monospace",
                color="0.35", zorder=3)
        boxes[file], centre[file] = box, (x, y)
    for a, b, needed, route in EDGES:
        style = dict(arrowstyle="-|>", mutation_scale=11, linewidth=1.1 if needed else 0.9,
                     linestyle="-" if needed else (0, (4, 3)), color="0.15" if needed else "0.5",
                     zorder=1)
        (xa, ya), (xb, yb) = centre[a], centre[b]
        if isinstance(route, list):                  # explicit waypoints
            arrow = FancyArrowPatch(path=MplPath(route), **style)
        elif route is None:
            arrow = FancyArrowPatch((xa, ya), (xb, yb), patchA=boxes[a], patchB=boxes[b],
                                    shrinkA=1, shrinkB=1, **style)
        else:
            side_a = xa + W / 2 if route > xa else xa - W / 2
            side_b = xb + W / 2 if route > xb else xb - W / 2
            verts = [(side_a, ya), (route, ya), (route, yb), (side_b, yb)]
            arrow = FancyArrowPatch(path=MplPath(verts), **style)
        ax.add_patch(arrow)
    for part, name in enumerate(PARTS):
        ax.add_patch(FancyBboxPatch((0, 0), 0, 0, facecolor=COLOURS[part], edgecolor="0.25",
                                    label=name))
    ax.plot([], [], color="0.15", label="needed: uses what the earlier chapter defines")
    ax.plot([], [], color="0.5", linestyle=(0, (4, 3)), label="helpful: refers back or compares")
    ax.legend(loc="upper right", fontsize=9.5, frameon=False, handlelength=2.5)
    ax.set_xlim(-2.2, 8.6)
    ax.set_ylim(-12.6, 0.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Chapter dependencies: read a chapter after the chapters its arrows come from",
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


if __name__ == "__main__":
    out = draw(Path(__file__).with_name("chapter_dependencies.png"))
    print(f"wrote {out}")
