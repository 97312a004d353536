r"""Elastic bodies: the 2D cells of a mesh group and their linear elastic material."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fem2d.errors import ArgumentError, ModelError, expect_instance, expect_real
from fem2d.fe import (
    HYPOTHESES,
    axisymmetric_cell_nodal_stresses,
    axisymmetric_stiffness_matrices,
    cell_nodal_stresses,
    elasticity_matrix,
    mass_matrices,
    node_dofs,
    stiffness_matrices,
)
from fem2d.fe.bbar import bbar_cell_nodal_stresses, bbar_stiffness_matrices, bbar_support
from fem2d.fe.fbar_layers import one_cell_thick
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import blocks_of

#: How a body's volumetric strain is integrated (:attr:`Body.volumetric`).
VOLUMETRIC = ("auto", "full", "bbar")

#: The Poisson's ratio from which ``volumetric = "auto"`` takes B-bar (F-bar with ``"finite"``
#: kinematics) where the body's cells lock. Measured on Lamé's thick cylinder (plane strain, and
#: axisymmetric between two smooth planes) and thick sphere (axisymmetric) of radii 1 and 2, 4 and 8
#: cells across the wall (``benchmarks/volumetric_default.py``): from nu = 0.45 the full element's
#: largest radial error is about three times its error at nu = 0.3 on QUAD4, QUAD8, QUAD9 and TRI6
#: (QUAD4, 4 cells, axisymmetric cylinder: 1.0 % at 0.3, 3.3 % at 0.45, 94 % at 0.4999), while
#: B-bar's stays within 10 % of its own error at 0.3 (0.38 %, 0.41 %, 0.42 %). Below it the full
#: element is kept, as it always was.
AUTO_NU = 0.45

#: How a body's strain follows its motion (:attr:`Body.kinematics`).
KINEMATICS = ("small", "corotational", "finite")
#: The frames of a corotational body (:attr:`Body.frame`).
FRAMES = ("element", "body")

#: A body's elastic law (:attr:`Body.law`).
LAWS = ("hooke", "saint_venant_kirchhoff", "neo_hookean")

#: The largest Poisson's ratio of a plane-strain or axisymmetric body of TRI3 cells. Measured on a
#: Lamé thick cylinder (plane strain) and sphere (axisymmetric) of radii 1 and 2, 16 x 32 cells,
#: two TRI3 each: the radial displacement is off by 0.8 % (cylinder) and 2.5 % (sphere) at
#: nu = 0.3, 8.8 % and 23 % at 0.49, 37 % and 68 % at 0.499 (against 0.2 % and 0.4 % for B-bar QUAD4
#: at 8 x 16 cells): the element locks and no mesh refinement a user would make recovers it.
TRI3_NU_LIMIT = 0.49

#: Why F-bar (``volumetric = "bbar"`` with ``kinematics = "finite"``) is refused on QUAD9
#: cells: the compression at which its tangent (J0 that of the cell's mean F) turns indefinite
#: on a block of 4 x 4 cells compressed homogeneously in plane strain (neo-Hookean, smooth
#: supports, one side free), a state the full cells, QUAD4, QUAD8 and TRI6 F-bar carry with a
#: positive definite tangent beyond 30 % (QUAD8 to 40 %, TRI6 to 42 %). It is an instability of
#: the cells, not of the block: the same on 4 x 4 and 8 x 8 cells, earlier on a distorted mesh
#: (:mod:`fem2d.fe.fbar`).
FBAR_UNSTABLE = {
    "quad9": "from 17 % compression at nu = 0.49 to 0.4999, 23 % at 0.3",
}


@dataclass(frozen=True)
class Body:
    r"""An elastic body in plane strain, plane stress or axisymmetry: linear with small
    displacements (``kinematics = "small"``), or turning and stretching (see ``kinematics``).

    It contributes the stiffness :math:`K_e = t \int_e B^T D B \, dA` and the
    mass :math:`M_e = t \int_e \rho N^T N \, dA` (consistent, or lumped by
    row sums) of every cell of ``group``, with :math:`D` Hooke's matrix of
    :func:`~fem2d.fe.elasticity_matrix`.

    An ``"axisymmetric"`` body is a solid of revolution about the y axis: the mesh's
    x is the radius r >= 0 and y the axis z, the strains hold the hoop strain
    :math:`u_r / r` and every integral the weight :math:`2\pi r` instead of the
    thickness (:mod:`fem2d.fe.axisymmetric`). Its stiffness, mass, loads, and so
    the reactions, impulses and energies of a run, are totals over the whole
    circumference; a point force on it is a total ring force (N). The radial
    displacement u_r (``dx``) of its nodes on the axis is held at 0 by the model
    (:meth:`axis_nodes`; a support of the user's on those dofs comes first).

    Parameters
    ----------
    group : str
        Mesh group of 2D cells (QUAD4 / QUAD8).
    E : float
        Young's modulus, Pa (> 0).
    nu : float
        Poisson's ratio, -1 < nu < 1/2.
    rho : float
        Density, kg/m^3 (>= 0; 0 for a body whose dofs are all supported).
    hypothesis : {"plane_strain", "plane_stress", "axisymmetric"}
    thickness : float
        Out-of-plane thickness, m (1 in plane strain: results per metre; an
        axisymmetric body takes none: 1, the default).
    lumped_mass : bool
        Lump the mass matrix (row sums) instead of the consistent one.
    rayleigh : (float, float)
        Rayleigh damping of this body :math:`C_b = a_M M_b + a_K K_b`, as
        ``(a_M, a_K)`` in (1/s, s); (0, 0): undamped.
    kinematics : {"small", "corotational", "finite"}
        How the strain follows the motion (:mod:`fem2d.model.internal`). ``"small"``: the
        linear strain of the displacement, exact while the body turns by less than a few
        hundredths of a radian (a run warns past
        :data:`~fem2d.dynamics.rotation.ROTATION_LIMIT`). ``"corotational"``: Hooke's law in
        a frame that turns with each cell (:mod:`fem2d.fe.corotational`): any rotation, small
        strains; plane strain or plane stress. ``"finite"``: total Lagrangian finite strain
        with the hyperelastic ``law`` (:mod:`fem2d.fe.hyperelastic`); plane strain, or
        axisymmetry (:mod:`fem2d.fe.axisymmetric_hyperelastic`: the hoop stretch
        :math:`1 + u_r / R`, a rubber seal or mount). Both solve each step by Newton iterations.
    frame : {"element", "body"}
        The frame of a ``"corotational"`` body: ``"element"`` (the default, a frame per cell: any
        rotation of the cells, the tangent refactorised as they turn) or ``"body"``, one frame that
        follows the body's rigid rotation (:mod:`fem2d.fe.body_frame`): for a free body whose cells
        turn little relative to one another (a rolling wheel, a tumbling block), whose steps then
        share one factorisation; direct runs only, the body free of supports.
    law : {"hooke", "saint_venant_kirchhoff", "neo_hookean"}
        The elastic law. ``"hooke"`` is the linear law of ``"small"`` and
        ``"corotational"`` bodies, and means Saint Venant-Kirchhoff for a ``"finite"``
        one; the two hyperelastic laws need ``kinematics = "finite"``.
    volumetric : {"auto", "full", "bbar"}
        ``"auto"`` (the default): ``"bbar"`` where the body's cells lock and B-bar (F-bar) serves
        them, that is from nu = :data:`AUTO_NU` = 0.45 in plane strain or axisymmetry on QUAD4,
        QUAD8, QUAD9 and TRI6 cells (with ``"finite"`` kinematics where F-bar is available, see
        below), ``"full"`` otherwise (:meth:`volumetric_of`); a run's notes say what it chose, and
        its warnings where such a body is left to lock (:meth:`volumetric_choices`).
        ``"full"``: the displacement element as it is (it locks as nu nears 1/2);
        ``"bbar"``: B-bar, the volumetric strain projected on a lower-order pressure
        space per cell (:mod:`fem2d.fe.bbar`), for nearly incompressible bodies (nu up
        to 0.4999) in plane strain or axisymmetry, on QUAD4, QUAD8, QUAD9 and TRI6 cells
        (TRI3 cannot be helped: refused; and a TRI3 body with nu above
        :data:`TRI3_NU_LIMIT` = 0.49 is refused in plane strain and axisymmetry, where it locks).
        With ``kinematics = "finite"`` it is F-bar (:mod:`fem2d.fe.fbar`), on QUAD4, QUAD8 and
        TRI6 cells: the law at :math:`\bar F = (J_0 / J)^{1/2} F`, :math:`J_0` the volume change
        of the cell's centre (QUAD4) or of its mean deformation gradient (QUAD8, TRI6). On QUAD9
        cells its tangent turns indefinite under compression (:data:`FBAR_UNSTABLE`): refused.
        In axisymmetry F-bar is :math:`\bar F = (J_0 / J)^{1/3} F`, :math:`J_0` the volume change
        of the cell's ring (:mod:`fem2d.fe.axisymmetric_fbar`), on QUAD4 cells only.
        A ``"corotational"`` body refuses it (its strain is small in a turning frame, where
        B-bar would be the way; not done).

    Examples
    --------
    >>> block = Body("PATIN", E=2.1e11, nu=0.0, rho=7000.0)
    >>> block.hypothesis, block.thickness, block.rayleigh
    ('plane_strain', 1.0, (0.0, 0.0))
    >>> Body("PATIN", E=2.1e11, nu=0.5, rho=7000.0)
    Traceback (most recent call last):
    ...
    fem2d.errors.ModelError: Body('PATIN').nu: expected -1 < nu < 0.5, got 0.5
    """

    group: str
    E: float
    nu: float
    rho: float
    hypothesis: str = "plane_strain"
    thickness: float = 1.0
    lumped_mass: bool = False
    rayleigh: tuple[float, float] = (0.0, 0.0)
    volumetric: str = "auto"
    kinematics: str = "small"
    law: str = "hooke"
    frame: str = "element"

    def __post_init__(self) -> None:
        expect_instance(self, "group", self.group, str, "a group name (str)")
        wanted = {"E": "a Young's modulus > 0 (Pa)", "nu": "-1 < nu < 0.5", "rho": "a density >= 0 (kg/m^3)",
                  "thickness": "a thickness > 0 (m)"}
        for name, what in wanted.items():  # a number (NumPy's too), kept as a float
            object.__setattr__(self, name, expect_real(self, name, getattr(self, name), what))
        given = self.rayleigh
        if not (isinstance(given, tuple | list | np.ndarray) and len(given) == 2):
            raise ArgumentError(self, "rayleigh", f"expected (a_M, a_K) >= 0, got {given!r}")
        rayleigh = tuple(expect_real(self, "rayleigh", a, "(a_M, a_K) >= 0") for a in given)
        if len(rayleigh) != 2 or not all(math.isfinite(a) and a >= 0 for a in rayleigh):
            raise ModelError(self, "rayleigh", f"expected (a_M, a_K) >= 0, got {self.rayleigh}")
        object.__setattr__(self, "rayleigh", rayleigh)
        if not (math.isfinite(self.E) and self.E > 0):
            raise ModelError(self, "E", f"expected a Young's modulus > 0 (Pa), got {self.E!r}")
        if not -1.0 < self.nu < 0.5:
            raise ModelError(self, "nu", f"expected -1 < nu < 0.5, got {self.nu!r}")
        if not (math.isfinite(self.rho) and self.rho >= 0):
            raise ModelError(self, "rho", f"expected a density >= 0 (kg/m^3), got {self.rho!r}")
        if self.hypothesis not in HYPOTHESES:
            raise ModelError(self, "hypothesis", f"expected one of {', '.join(map(repr, HYPOTHESES))}")
        if not (math.isfinite(self.thickness) and self.thickness > 0):
            raise ModelError(self, "thickness", f"expected a thickness > 0 (m), got {self.thickness!r}")
        if self.volumetric not in VOLUMETRIC:
            raise ModelError(self, "volumetric", f"expected one of {', '.join(map(repr, VOLUMETRIC))}, "
                                                 f"got {self.volumetric!r}")
        if self.volumetric == "bbar" and (why := bbar_support("quad4", self.hypothesis)) is not None:
            raise ModelError(self, "volumetric", why)
        self._check_kinematics()
        if self.axisymmetric and self.thickness != 1.0:
            raise ModelError(self, "thickness", f"an axisymmetric body has no thickness (its weight is 2 pi r: "
                                                f"results are for the whole ring), got {self.thickness!r}")

    def _check_kinematics(self) -> None:
        """The kinematics and the law: known names, and a combination this body can take."""
        if self.kinematics not in KINEMATICS:
            raise ModelError(self, "kinematics", f"expected one of {', '.join(map(repr, KINEMATICS))}, "
                                                 f"got {self.kinematics!r}")
        if self.law not in LAWS:
            raise ModelError(self, "law", f"expected one of {', '.join(map(repr, LAWS))}, got {self.law!r}")
        if self.law != "hooke" and self.kinematics != "finite":
            raise ModelError(self, "law", f"{self.law!r} is a finite-strain law: it needs kinematics = \"finite\" "
                                          f"(this body's is {self.kinematics!r})")
        if self.frame not in FRAMES:
            raise ModelError(self, "frame", f"expected one of {', '.join(map(repr, FRAMES))}, got {self.frame!r}")
        if self.frame != "element" and self.kinematics != "corotational":
            raise ModelError(self, "frame", f"a frame per body is for \"corotational\" bodies (this body's "
                                            f"kinematics is {self.kinematics!r})")
        if self.kinematics == "small":
            return
        if self.kinematics == "corotational" and self.axisymmetric:
            raise ModelError(self, "kinematics", "\"corotational\" is for plane bodies (a solid of revolution "
                                                 "turns about its axis only): use \"small\" or a plane hypothesis")
        if self.volumetric == "bbar" and self.kinematics == "corotational":
            raise ModelError(self, "volumetric", "\"bbar\" is for \"small\" and \"finite\" kinematics (F-bar): a "
                                                 "\"corotational\" body integrates its volume change in full; for a "
                                                 "nearly incompressible body that turns, use \"finite\"")
        if self.rayleigh[1]:
            raise ModelError(self, "rayleigh", f"stiffness-proportional damping (a_K = {self.rayleigh[1]!r}) "
                                               f"would damp a {self.kinematics!r} body's rigid rotation: use a_K = 0")

    @property
    def nonlinear(self) -> bool:
        """Whether the body's internal force is nonlinear in its displacement (a
        ``"corotational"`` or ``"finite"`` body)."""
        return self.kinematics != "small"

    @property
    def finite_law(self) -> str:
        """The hyperelastic law of a ``"finite"`` body (``"hooke"`` read as Saint Venant-Kirchhoff)."""
        return "saint_venant_kirchhoff" if self.law == "hooke" else self.law

    @property
    def axisymmetric(self) -> bool:
        """Whether the body is a solid of revolution (x the radius, y the axis)."""
        return self.hypothesis == "axisymmetric"

    def volumetric_of(self, kind: str) -> str:
        """The volumetric strain of the body's cells of ``kind``: ``"full"`` or ``"bbar"`` as
        given, or what ``"auto"`` takes: ``"bbar"`` (F-bar for a ``"finite"`` body) when
        nu >= :data:`AUTO_NU` in plane strain or axisymmetry and B-bar serves these cells,
        ``"full"`` otherwise.

        >>> Body("TUBE", E=2e11, nu=0.4999, rho=1.0, hypothesis="axisymmetric").volumetric_of("quad4")
        'bbar'
        >>> Body("TUBE", E=2e11, nu=0.3, rho=1.0).volumetric_of("quad4")
        'full'
        """
        if self.volumetric != "auto":
            return self.volumetric
        locks = self.nu >= AUTO_NU and self.hypothesis != "plane_stress"
        return "bbar" if locks and self._unrelieved(kind) is None else "full"

    def _unrelieved(self, kind: str) -> str | None:
        """Why neither B-bar nor F-bar can serve the body's cells of ``kind``, or None."""
        if self.kinematics == "corotational":
            return "a \"corotational\" body integrates its volume change in full (use \"finite\" kinematics)"
        if (why := bbar_support(kind, self.hypothesis)) is not None:
            return why.split(" (")[0]
        if self.kinematics == "finite" and self.axisymmetric and kind != "quad4":
            return "F-bar in axisymmetry is for QUAD4 cells only"
        if self.kinematics == "finite" and kind in FBAR_UNSTABLE:
            return f"F-bar's tangent on {kind.upper()} cells turns indefinite under compression"
        return None

    def volumetric_choices(self, mesh: Mesh) -> tuple[list[str], list[str]]:
        """(notes, warnings) of a ``volumetric = "auto"`` body whose cells would lock
        (nu >= :data:`AUTO_NU`, plane strain or axisymmetry): a note for each cell kind that
        takes B-bar (F-bar), a warning for each kind left to lock, with the reason. Empty
        for any other body."""
        notes: list[str] = []
        warned: list[str] = []
        if self.volumetric != "auto" or self.nu < AUTO_NU or self.hypothesis == "plane_stress":
            return notes, warned
        method = "F-bar" if self.kinematics == "finite" else "B-bar"
        for kind in dict.fromkeys(block.kind for block in blocks_of(mesh, self, "group", self.group, dimension=2)):
            what = f"body {self.group!r} (nu = {self.nu:g}, {kind.upper()} cells)"
            if (why := self._unrelieved(kind)) is None:
                notes.append(f"volumetric = \"auto\": {what} takes \"bbar\" ({method}): from nu = {AUTO_NU} full "
                             "cells lock (materials[].volumetric = \"full\" keeps them)")
            else:
                warned.append(f"{what} locks: its displacements come out too small, and {why}; "
                              "materials[].volumetric = \"full\" accepts it, other cells or kinematics avoid it")
        return notes, warned

    @property
    def hooke(self) -> np.ndarray:
        """Hooke's matrix D (3, 3), Pa, in Voigt notation (xx, yy, xy); (4, 4) in the order
        (rr, zz, rz, tt) for an axisymmetric body."""
        return elasticity_matrix(self.E, self.nu, self.hypothesis)

    def element_matrices(self, mesh: Mesh) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Element stiffness and mass matrices of every cell and their dofs, one
        ``(K_e, M_e, dofs)`` per cell kind of the group (each by its own element), shapes
        (n_cells, 2 nn, 2 nn) twice and (n_cells, 2 nn)."""
        lumping = "lumped" if self.lumped_mass else "consistent"
        out = []
        blocks = blocks_of(mesh, self, "group", self.group, dimension=2)
        if self.volumetric == "bbar" and self.kinematics == "finite" and (why := one_cell_thick(blocks)) is not None:
            raise ModelError(self, "volumetric", f"group {self.group!r}: F-bar (\"bbar\" with \"finite\" kinematics): "
                                                 f"{why}")
        for block in blocks:
            if block.kind == "tri3" and self.nu > TRI3_NU_LIMIT and self.hypothesis != "plane_stress":
                raise ModelError(self, "nu", f"{self.nu!r} on the TRI3 cells of group {self.group!r}: above "
                                             f"{TRI3_NU_LIMIT} TRI3 cells lock (their displacements come out far too "
                                             "small, and B-bar cannot relieve them); mesh the body with QUAD4, "
                                             "QUAD8, QUAD9 or TRI6 cells and set volumetric = \"bbar\"")
            if self.volumetric == "bbar":
                if (why := bbar_support(block.kind, self.hypothesis)) is not None:
                    raise ModelError(self, "volumetric", f"group {self.group!r}: {why}")
                if self.kinematics == "finite" and self.axisymmetric and block.kind != "quad4":
                    raise ModelError(self, "volumetric", f"group {self.group!r}: F-bar (\"bbar\" with \"finite\" "
                                                         "kinematics) in axisymmetry is for QUAD4 cells only (its "
                                                         "tangent is measured stable under compression there); mesh "
                                                         "the body with QUAD4 cells")
                if self.kinematics == "finite" and block.kind in FBAR_UNSTABLE:
                    raise ModelError(self, "volumetric", f"group {self.group!r}: F-bar (\"bbar\" with \"finite\" "
                                                         f"kinematics) is for QUAD4, QUAD8 and TRI6 cells: on "
                                                         f"{block.kind.upper()} "
                                                         "cells its tangent loses its stability under compression "
                                                         f"({FBAR_UNSTABLE[block.kind]}, where QUAD4, QUAD8 and "
                                                         "TRI6 hold beyond 30 %); mesh the body with QUAD4, QUAD8 "
                                                         "or TRI6 cells")
            k = self.cell_stiffness(mesh.points, block)
            m = mass_matrices(mesh.points, block, self.rho, self.thickness, lumping, group=self.group,
                              axisymmetric=self.axisymmetric)
            out.append((k, m, node_dofs(block.nodes)))
        return out

    def cell_stiffness(self, points: np.ndarray, block) -> np.ndarray:
        """The small-strain stiffness matrices (n_cells, 2 nn, 2 nn) of a block of the body's cells:
        Hooke's, B-bar's (:func:`~fem2d.fe.bbar.bbar_stiffness_matrices`) or, for a ``"finite"``
        B-bar body, F-bar's tangent at rest (:func:`~fem2d.fe.fbar.fbar_cells`, the in-plane
        dilatation's change spread over two directions instead of three)."""
        bbar = self.volumetric_of(block.kind) == "bbar"
        if bbar and self.kinematics == "finite" and self.axisymmetric:
            from fem2d.fe.axisymmetric_fbar import axisymmetric_fbar_cells

            return axisymmetric_fbar_cells(points, block, np.zeros(2 * len(points)), self.finite_law, self.E,
                                           self.nu, group=self.group).tangent
        if bbar and self.kinematics == "finite":
            from fem2d.fe.fbar import fbar_cells

            return fbar_cells(points, block, np.zeros(2 * len(points)), self.finite_law, self.E, self.nu,
                              self.thickness, group=self.group).tangent
        if bbar:
            return bbar_stiffness_matrices(points, block, self.E, self.nu, self.hypothesis, self.thickness,
                                           group=self.group)
        if self.axisymmetric:
            return axisymmetric_stiffness_matrices(points, block, self.hooke, group=self.group)
        return stiffness_matrices(points, block, self.hooke, self.thickness, group=self.group)

    def cell_nodal_stresses(self, mesh: Mesh, block, u: np.ndarray) -> np.ndarray:
        """Stresses (Pa) of each cell of ``block`` (one of the body's) at its own nodes, shape
        (n_cells, nn, 4): (xx, yy, xy, zz) with the out-of-plane zz, ``nu (sxx + syy)`` in plane
        strain and 0 in plane stress; (rr, zz, rz, tt) in axisymmetry. A ``"finite"`` body's are
        the Cauchy stresses of its deformed cells, a ``"corotational"`` one's Hooke's stresses of
        each cell's strain in its rotated frame, turned back. A B-bar body's
        stresses are those of its strain with the projected dilatation (its pressure
        ``-tr(sigma) / 3`` is the bulk modulus times that dilatation)."""
        bbar = self.volumetric_of(block.kind) == "bbar"
        if self.kinematics == "finite" and self.axisymmetric and bbar:
            from fem2d.fe.axisymmetric_fbar import axisymmetric_fbar_cauchy_cell_nodal_stresses

            return axisymmetric_fbar_cauchy_cell_nodal_stresses(mesh.points, block, u, self.finite_law, self.E,
                                                                self.nu)
        if self.kinematics == "finite" and self.axisymmetric:  # the Cauchy stress of the deformed ring
            from fem2d.fe.axisymmetric_hyperelastic import axisymmetric_cauchy_cell_nodal_stresses

            return axisymmetric_cauchy_cell_nodal_stresses(mesh.points, block, u, self.finite_law, self.E, self.nu)
        if self.kinematics == "finite":  # the Cauchy stress of the deformed cell
            from fem2d.fe.hyperelastic import cauchy_cell_nodal_stresses

            return cauchy_cell_nodal_stresses(mesh.points, block, u, self.finite_law, self.E, self.nu,
                                              fbar=bbar, plane_stress=self.hypothesis == "plane_stress")
        if bbar:
            return bbar_cell_nodal_stresses(mesh.points, block, u, self.E, self.nu, self.hypothesis)
        if self.axisymmetric:
            return axisymmetric_cell_nodal_stresses(mesh.points, block, u, self.hooke)
        if self.kinematics == "corotational":
            from fem2d.fe.corotational import corotational_cell_nodal_stresses

            plane = corotational_cell_nodal_stresses(mesh.points, block, u, self.hooke)
        else:
            plane = cell_nodal_stresses(mesh.points, block, u, self.hooke)
        strain = self.hypothesis == "plane_strain"
        out_of_plane = self.nu * (plane[..., 0] + plane[..., 1]) if strain else np.zeros(plane.shape[:-1])
        return np.concatenate([plane, out_of_plane[..., None]], axis=-1)

    def axis_nodes(self, mesh: Mesh) -> np.ndarray:
        """The nodes of an axisymmetric body on the axis (empty for a plane body), after
        refusing (ModelError on ``hypothesis``) a node at r = x < 0: both up to a round-off
        of 1e-9 times the body's smallest cell size.

        >>> from fem2d.mesh import rectangle
        >>> Body("BODY", E=1.0, nu=0.0, rho=1.0, hypothesis="axisymmetric").axis_nodes(rectangle(1.0, 1.0)).tolist()
        [0, 3]
        """
        if not self.axisymmetric:
            return np.zeros(0, dtype=np.int64)
        size = np.inf
        blocks = blocks_of(mesh, self, "group", self.group, dimension=2)
        for block in blocks:
            size = min(size, float(np.min(np.ptp(mesh.points[block.nodes], axis=1).max(axis=-1))))
        nodes = np.unique(np.concatenate([block.nodes.ravel() for block in blocks]))
        r = mesh.points[nodes, 0]
        if r.min() < -1e-9 * size:
            raise ModelError(self, "hypothesis", f"an axisymmetric body's x is the radius r >= 0, but group "
                                                 f"{self.group!r} has a node at x = {r.min():.6g}")
        return nodes[r <= 1e-9 * size]
