r"""Nearly incompressible elasticity without volumetric locking: the B-bar method
(mean dilatation), in plane strain and in axisymmetry.

With :math:`\nu \to 1/2` the bulk modulus :math:`\kappa = E / (3 (1 - 2\nu))` grows without
bound and a displacement element whose volumetric strain cannot vanish pointwise locks:
its displacements come out far too small (a QUAD4 thick cylinder in plane strain at
:math:`\nu = 0.4999`, 4 cells across the wall, is 94 % short; 0.74 % with B-bar).
B-bar (Hughes 1980) keeps the deviatoric strain of the element and replaces its
volumetric strain :math:`\theta = \varepsilon_{xx} + \varepsilon_{yy} +
\varepsilon_{zz}` by its :math:`L^2` projection :math:`\bar\theta` on a lower-order,
per-cell pressure space :math:`\psi` (:data:`PRESSURE_BASIS`, in reference coordinates):

.. math::

    \bar\theta = \psi^T G^{-1} \int_e \psi\, \theta \, dV, \qquad
    G = \int_e \psi \psi^T dV, \qquad
    \bar B_q = B_q + \tfrac{1}{3}\, m \,(\bar b_q - m^T B_q), \qquad
    K_e = \sum_q w_q \det J_q\, \omega_q\, \bar B_q^T D \bar B_q ,

with four strain rows (xx, yy, xy, zz) in plane strain (the zz row of :math:`B` is zero,
:math:`m = (1, 1, 0, 1)`), (rr, zz, rz, tt) in axisymmetry (the hoop row :math:`N_j / r`),
:math:`D` the 4 x 4 Hooke matrix of
:func:`~fem2d.fe.axisymmetric.axisymmetric_elasticity_matrix`, :math:`\bar b_q = \psi_q^T
G^{-1} \int_e \psi\, m^T B\, dV` and :math:`\omega` the thickness or :math:`2\pi r`.
Since :math:`D` is isotropic, :math:`\bar B^T D \bar B = B_{dev}^T 2\mu B_{dev} +
\kappa\, \bar b^T \bar b`: the bulk modulus only meets the projected dilatation, the
shear modulus the full deviatoric strain. The modified strain has a zz component
:math:`(\bar\theta - \theta) / 3` in plane strain: it is the assumed strain, its trace is
:math:`\bar\theta`, and the pressure recovered from it is
:math:`p = -\kappa \bar\theta = -\mathrm{tr}\,\sigma / 3` (:func:`bbar_cell_nodal_stresses`).
A displacement field whose dilatation lies in the pressure space (any linear field: the
patch test) has :math:`\bar\theta = \theta`, so B-bar is exact wherever the full element
is. Mass and loads do not change.

Pressure spaces, chosen by measurement on Lamé's thick cylinder (plane strain) and thick
sphere (axisymmetric) of radii 1 and 2 at :math:`\nu = 0.4999`, n cells across the wall and
2n around the quarter, n = 2, 4, 8 (``tests/test_bbar.py``): a constant per cell for QUAD4
(the mean dilatation). Selective reduced integration (the bulk term at the centroid) gives
the same numbers in plane strain, but in axisymmetry the centroid value of
:math:`u_r / r` is not the cell's mean and its error falls as :math:`h^{1.2}`
(8.6, 3.9, 1.7 %) against :math:`h^{1.9}` for B-bar (6.3, 1.7, 0.45 %); with QUAD8 it is
0.039 % against 0.0013 % at n = 8. TRI6 takes a constant too (P2/P0, the cell's mean
dilatation): a linear pressure (P2/P1) locks on triangles, 3.4 % off on the sphere at n = 8
against 0.062 %, and the bulk term at the centroid alone 1.6 % (0.12 % against 0.009 % on the
cylinder). ``benchmarks/bbar_choice.py`` prints the whole table. QUAD8 and
QUAD9 take a linear :math:`(1, \xi, \eta)` (Q2/P1; a constant gives errors within 7 % of
these, the linear one a linear pressure).
TRI3 has no richer displacement than its constant volumetric strain: B-bar cannot
relieve it and is refused (:data:`PRESSURE_BASIS` has no entry).

Example: a QUAD4 under the linear field :math:`u = (0.1 x, -0.05 y)` keeps its strain, the
zz component included (:math:`\bar\theta = \theta`):

>>> from fem2d.mesh.mesh import CellBlock
>>> xy = np.array([[0.0, 0.0], [2.0, 0.2], [2.3, 1.1], [-0.1, 1.0]])
>>> u = np.concatenate([[0.1 * x, -0.05 * y] for x, y in xy])
>>> bbar_gauss_strains(xy, CellBlock("quad4", np.arange(4)[None]), u)[0, 0].round(12) + 0.0
array([ 0.1 , -0.05,  0.  ,  0.  ])
"""

from __future__ import annotations

import numpy as np

from fem2d.errors import InputError
from fem2d.fe.axisymmetric import _strain_matrices, axisymmetric_elasticity_matrix, radial_weights
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.quadrature import QuadratureRule, gauss_rule
from fem2d.mesh.mesh import CellBlock

#: Cells per chunk when building element matrices, to bound the temporaries.
CHUNK = 4096

#: The volumetric strain ``m^T eps`` of the four-row strain (xx, yy, xy, zz) / (rr, zz, rz, tt).
_TRACE = np.array([1.0, 1.0, 0.0, 1.0])


def _constant(xi: np.ndarray) -> np.ndarray:
    return np.ones((len(xi), 1))


def _linear(xi: np.ndarray) -> np.ndarray:
    return np.column_stack([np.ones(len(xi)), xi[:, 0], xi[:, 1]])


#: The pressure space of each cell kind B-bar serves: ``psi(xi)`` (nq, n_p) at reference points.
PRESSURE_BASIS = {"quad4": _constant, "quad8": _linear, "quad9": _linear, "tri6": _constant}

#: The hypotheses B-bar serves (plane stress does not lock: its bulk stiffness stays E / (2 (1 - nu))).
BBAR_HYPOTHESES = ("plane_strain", "axisymmetric")


def bbar_support(kind: str, hypothesis: str) -> str | None:
    """Why B-bar cannot serve cells of ``kind`` under ``hypothesis``, or None when it can.

    >>> bbar_support("quad8", "axisymmetric") is None
    True
    >>> bbar_support("tri3", "plane_strain").split(" (")[0]
    'TRI3 cells cannot be freed of volumetric locking by B-bar'
    """
    if hypothesis not in BBAR_HYPOTHESES:
        return (f"B-bar serves {' and '.join(BBAR_HYPOTHESES)} bodies; {hypothesis} does not lock "
                "(its bulk stiffness stays E / (2 (1 - nu))): use \"full\"")
    if kind not in PRESSURE_BASIS:
        return (f"{kind.upper()} cells cannot be freed of volumetric locking by B-bar (their volumetric strain "
                "is already one constant per cell): mesh the body with TRI6, QUAD4, QUAD8 or QUAD9 cells")
    return None


def _check(kind: str, hypothesis: str) -> None:
    why = bbar_support(kind, hypothesis)
    if why is not None:
        raise InputError(f"B-bar: {why}")


def _strains(geo, axisymmetric: bool, r: np.ndarray | None = None) -> np.ndarray:
    """The four-row B (nc, nq, 4, 2 nn) at the points of ``geo``: zz row zero in plane strain."""
    if axisymmetric:
        return _strain_matrices(geo, geo.x[..., 0] if r is None else r)
    grad = geo.grad
    nc, nq, nn, _ = grad.shape
    B = np.zeros((nc, nq, 4, nn, 2))
    B[:, :, 0, :, 0] = grad[..., 0]
    B[:, :, 1, :, 1] = grad[..., 1]
    B[:, :, 2, :, 0] = grad[..., 1]
    B[:, :, 2, :, 1] = grad[..., 0]
    return B.reshape(nc, nq, 4, 2 * nn)


def _projection(geo, B: np.ndarray, kind: str, axisymmetric: bool) -> np.ndarray:
    r"""``A`` (nc, n_p, 2 nn): the coefficients of :math:`\bar\theta` on the pressure space,
    :math:`A = G^{-1} \int_e \psi\, m^T B\, dV`, from ``geo`` and ``B`` at the points of the
    default rule of the kind."""
    dv = geo.dx * (radial_weights(geo.x) if axisymmetric else 1.0)  # the thickness cancels
    psi = PRESSURE_BASIS[kind](_rule_points(kind, None))  # (q, p)
    G = np.einsum("qp,qs,cq->cps", psi, psi, dv)
    H = np.einsum("qp,cq,cqj->cpj", psi, dv, np.einsum("m,cqmj->cqj", _TRACE, B))
    return np.linalg.solve(G, H)


def _default_projection(points: np.ndarray, block: CellBlock, axisymmetric: bool, group: str | None) -> np.ndarray:
    geo = cell_geometry(points, block, None, group, check=False)
    check_jacobians(geo.det, block.kind, group)
    return _projection(geo, _strains(geo, axisymmetric), block.kind, axisymmetric)


def _rule_points(kind: str, rule: QuadratureRule | None) -> np.ndarray:
    return (gauss_rule(kind) if rule is None else rule).points


def _bbar(B: np.ndarray, A: np.ndarray, psi: np.ndarray) -> np.ndarray:
    r""":math:`\bar B = B + \frac{1}{3} m (\bar b - m^T B)` with :math:`\bar b_q = \psi_q^T A`."""
    theta_bar = np.einsum("qp,cpj->cqj", psi, A)
    theta = np.einsum("m,cqmj->cqj", _TRACE, B)
    return B + _TRACE[None, None, :, None] * ((theta_bar - theta) / 3.0)[:, :, None, :]


def bbar_stiffness_matrices(
    points: np.ndarray,
    block: CellBlock,
    E: float,
    nu: float,
    hypothesis: str = "plane_strain",
    thickness: float = 1.0,
    group: str | None = None,
) -> np.ndarray:
    r"""B-bar element stiffness matrices (N/m) of a block of QUAD4, QUAD8, QUAD9 or TRI6
    cells, in plane strain (times ``thickness``) or axisymmetry (whole ring, weight
    :math:`2\pi r`): :math:`K_e = \sum_q w_q \det J_q\, \omega_q \bar B_q^T D \bar B_q`
    (module docstring), every cell at once.

    Returns
    -------
    ndarray, shape (n_cells, 2 nn, 2 nn)
        Symmetric, interleaved local dofs ``(DX_0, DY_0, DX_1, ...)``.

    Examples
    --------
    On a square at nu = 0.4999 the full QUAD4 resists the bending mode u_x = x y, whose
    volumetric strain y averages to zero, with the bulk modulus: its energy
    :math:`((\lambda + 2\mu) + \mu) 4/3` is 2223 times E. B-bar gives it the shear
    modulus alone, :math:`\mu\, 28/9 = 1.037 E`:

    >>> from fem2d.fe.elasticity import elasticity_matrix, stiffness_matrices
    >>> xy = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    >>> cell = CellBlock("quad4", np.arange(4)[None])
    >>> bend = np.array([1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0])  # u_x = x y
    >>> full = stiffness_matrices(xy, cell, elasticity_matrix(1.0, 0.4999))[0]
    >>> bbar = bbar_stiffness_matrices(xy, cell, 1.0, 0.4999)[0]
    >>> round(float(bend @ full @ bend), 1), round(float(bend @ bbar @ bend), 4)
    (2223.3, 1.0371)
    """
    _check(block.kind, hypothesis)
    axisymmetric = hypothesis == "axisymmetric"
    D = axisymmetric_elasticity_matrix(E, nu)
    nc, nn = block.nodes.shape
    K = np.empty((nc, 2 * nn, 2 * nn))
    psi = PRESSURE_BASIS[block.kind](_rule_points(block.kind, None))
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = CellBlock(block.kind, block.nodes[start : start + CHUNK])
        geo = cell_geometry(points, sub, None, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        B = _strains(geo, axisymmetric)
        Bb = _bbar(B, _projection(geo, B, block.kind, axisymmetric), psi)
        weighted = Bb * (geo.dx * (radial_weights(geo.x) if axisymmetric else thickness))[..., None, None]
        K[start : start + CHUNK] = np.einsum("cqmi,cqmj->cij", weighted, np.einsum("mn,cqnj->cqmj", D, Bb))
    return K


def bbar_gauss_strains(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    hypothesis: str = "plane_strain",
    rule: QuadratureRule | None = None,
    group: str | None = None,
) -> np.ndarray:
    r"""The B-bar strains :math:`\bar\varepsilon = \bar B u_e` (n_cells, nq, 4) at the points of
    ``rule`` (default: the kind's Gauss rule), (xx, yy, xy, zz) in plane strain (engineering
    shear) or (rr, zz, rz, tt) in axisymmetry; their trace is the projected dilatation
    :math:`\bar\theta`. Jacobians are checked at the Gauss points only, so ``rule`` may be the
    nodes; on the axis the hoop strain is its limit :math:`\partial u_r / \partial r`."""
    _check(block.kind, hypothesis)
    axisymmetric = hypothesis == "axisymmetric"
    u = np.asarray(u, dtype=float).ravel()
    if u.size != 2 * len(points):
        raise InputError(f"displacement vector has {u.size} entries; expected 2 x {len(points)} nodes")
    ue = u[2 * block.nodes[..., None] + np.arange(2)].reshape(len(block), -1)
    A = _default_projection(points, block, axisymmetric, group)
    geo = cell_geometry(points, block, rule, group, check=False)
    r = None
    if axisymmetric:
        scale = float(np.abs(points[:, 0]).max(initial=0.0)) or 1.0
        r = np.where(np.abs(geo.x[..., 0]) <= 1e-12 * scale, 0.0, geo.x[..., 0])
    psi = PRESSURE_BASIS[block.kind](_rule_points(block.kind, rule))
    return np.einsum("cqmj,cj->cqm", _bbar(_strains(geo, axisymmetric, r), A, psi), ue)


def bbar_cell_nodal_stresses(points: np.ndarray, block: CellBlock, u: np.ndarray, E: float, nu: float,
                             hypothesis: str = "plane_strain") -> np.ndarray:
    r"""Stresses :math:`\sigma = D \bar\varepsilon` (Pa) of each cell at its own nodes, shape
    (n_cells, nn, 4): (xx, yy, xy, zz) in plane strain, (rr, zz, rz, tt) in axisymmetry.
    The mean stress is the one of the projected dilatation,
    :math:`\mathrm{tr}\,\sigma / 3 = \kappa \bar\theta`."""
    element = reference_element(block.kind)
    at_nodes = QuadratureRule(element.nodes, np.ones(element.n_nodes))
    strain = bbar_gauss_strains(points, block, u, hypothesis, at_nodes)
    return strain @ axisymmetric_elasticity_matrix(E, nu).T
