"""Where F-bar cannot bend: a body one cell thick.

F-bar (:mod:`fem2d.fe.fbar`) gives each cell one volume change :math:`J_0`. Across a
single layer of cells a bent body's volume change varies linearly (stretched on one
side, shortened on the other), and the cell's one value drops that variation: its
strain energy and its stiffness in bending. The elastica (``cases/elastica.toml``,
nu = 0, 20 cells along, tip deflection at P L^2/EI = 1 against the exact 0.3017 L):

==========  ===========  ===========  ===========
cells       1 layer      2 layers     4 layers
==========  ===========  ===========  ===========
TRI6        0.589 (+95 %) 0.347 (+15 %) 0.312 (+3.4 %)
QUAD8       no convergence 0.376 (+25 %)
==========  ===========  ===========  ===========

(nu = 0.49: one layer of TRI6 0.52 L against 0.23 L.) Volumetric "full" on one layer
of TRI6 cells gives 0.3016 L. A body with a single layer of cells through its
thickness is recognised by its cells: most of them have every corner on the body's
boundary (:func:`spanning_cells`); in a body two or more cells thick only the odd
corner cell does.
"""

from __future__ import annotations

import numpy as np

from fem2d.mesh.mesh import CellBlock

#: Corner nodes per 2D cell kind (the first ones of each cell, counter-clockwise).
CORNERS = {"tri3": 3, "tri6": 3, "quad4": 4, "quad8": 4, "quad9": 4}

#: The share of a body's cells with every corner on its boundary above which it is one cell thick.
SPANNING_SHARE = 0.5


def spanning_cells(blocks: list[CellBlock]) -> tuple[int, int]:
    """How many of the cells of ``blocks`` (one body) have every corner on the body's
    boundary (an edge of one cell only), and how many cells there are.

    >>> strip = CellBlock("quad4", np.array([[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6]]))
    >>> spanning_cells([strip])
    (3, 3)
    >>> grid = CellBlock("quad4", np.array([[0, 1, 4, 3], [1, 2, 5, 4], [3, 4, 7, 6], [4, 5, 8, 7]]))
    >>> spanning_cells([grid])  # 2 x 2: each cell has the centre node inside
    (0, 4)
    """
    corners = [block.nodes[:, :CORNERS[block.kind]] for block in blocks if block.kind in CORNERS]
    if not corners:
        return 0, 0
    edges = np.vstack([np.sort(np.stack([c, np.roll(c, -1, axis=1)], axis=2).reshape(-1, 2), axis=1)
                       for c in corners])
    unique, counts = np.unique(edges, axis=0, return_counts=True)
    on_boundary = np.zeros(int(max(c.max() for c in corners)) + 1, dtype=bool)
    on_boundary[unique[counts == 1].ravel()] = True
    spanning = sum(int(np.all(on_boundary[c], axis=1).sum()) for c in corners)
    return spanning, sum(len(c) for c in corners)


def one_cell_thick(blocks: list[CellBlock]) -> str | None:
    """Why F-bar must not take this body (a single layer of cells through its thickness,
    :data:`SPANNING_SHARE`), or None. A body of one cell (a patch of homogeneous strain)
    passes."""
    spanning, total = spanning_cells(blocks)
    if total < 2 or spanning <= SPANNING_SHARE * total:
        return None
    return (f"{spanning} of its {total} cells have every corner on its boundary: a single layer of cells through "
            "its thickness, where F-bar's one volume change per cell drops the bending strain's and the body "
            "comes out far too soft (the elastica on one layer of TRI6 cells: tip deflection +95 %; two layers "
            "+15 %, four +3.4 %; QUAD8: no convergence); mesh it with at least four cells through its thickness, "
            "or set volumetric = \"full\"")
