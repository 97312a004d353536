r"""Nearly incompressible hyperelastic cells without volumetric locking: the F-bar method
(de Souza Neto, Peric, Dutko and Owen 1996), in plane strain, total Lagrangian.

The finite-strain counterpart of B-bar (:mod:`fem2d.fe.bbar`): at each quadrature point the
deformation gradient :math:`F` (2x2, :math:`F_{33} = 1`) is replaced by

.. math::

    \bar F = \alpha F, \qquad \alpha = \Big(\frac{J_0}{J}\Big)^{1/2}, \qquad J = \det F,

with :math:`J_0` one volume change per cell (:data:`CELL_VOLUME_CHANGE`): on QUAD4 (and TRI3,
where it changes nothing) the one at the cell's centre, :math:`J_0 = \det F(\xi = 0)`, the
classical F-bar; on TRI6, QUAD8 and QUAD9 the determinant of the cell's mean deformation
gradient, :math:`J_0 = \det \bar F_0`, :math:`\bar F_0 = \sum_q dX_q F_q / \sum_q dX_q` (on a
QUAD4 the centre's F; on a TRI6 with straight edges, whose F is linear, the centroid's). The
cell's mean volume change, :math:`J_0 = \sum_q dX_q J_q / \sum_q dX_q` (its deformed area over
its reference area), is kept as the variant "mean" the measurements below compare with.
:math:`\bar F` keeps the in-plane isochoric part of :math:`F`
(:math:`\bar F / \sqrt{\det \bar F} = F / \sqrt J`) and takes the cell's volume change,
:math:`\det \bar F = J_0`, as B-bar's constant pressure space. The cell's energy is the
law's (:func:`~fem2d.fe.hyperelastic_laws.material_response`) at :math:`\bar F`, integrated over
the reference cell; its force and tangent are that energy's exact gradient and Hessian in
the nodal displacements (symmetric, but not the usual :math:`G (F \mathbb{C} F + S) G`
form). With :math:`\varphi = \ln J_0` (a function of the cell's displacements, gradient
:math:`\nabla\varphi`, Hessian :math:`\nabla^2\varphi`), :math:`w(F, \varphi) = W(\bar F)`,
:math:`\bar P = \bar F S(\bar F)`, :math:`\mathbb{A}_{aJbL} = \bar F_{aI} \mathbb{C}_{IJKL}
\bar F_{bK} + \delta_{ab} S_{JL}` (the law's :math:`\partial \bar P / \partial \bar F`),
:math:`s = \tfrac12 \bar P : \bar F` and :math:`B_q` the map of the nodal displacements to
:math:`F_q` (:math:`\partial F_{aJ} / \partial u_{ib} = \delta_{ab} \partial N_i / \partial X_J`):

.. math::

    W_e = t \sum_q dX_q\, W(\bar F_q), \qquad
    f = t \sum_q dX_q \big(B_q^T w_F + s_q \nabla\varphi\big), \qquad
    w_F = \alpha \bar P - s F^{-T}, \\
    K = t \sum_q dX_q \big(B_q^T w_{FF} B_q + B_q^T w_{F\varphi} \otimes \nabla\varphi
    + \nabla\varphi \otimes B_q^T w_{F\varphi} + w_{\varphi\varphi} \nabla\varphi \otimes \nabla\varphi
    + s_q \nabla^2\varphi\big),

where, with :math:`y = (F, \varphi)`, :math:`a = \partial\alpha/\partial y = \tfrac{\alpha}{2}
(-F^{-T}, 1)`, :math:`D = \partial \bar F / \partial y = \alpha (\mathbb{I}, 0) + F \otimes a`
and :math:`Q(F)_{aJ,bK} = F^{-1}_{Jb} F^{-1}_{Ka}` (from :math:`\partial F^{-1}_{Ja} /
\partial F_{bK} = -F^{-1}_{Jb} F^{-1}_{Ka}`),

.. math::

    w_{yy} = D^T \mathbb{A} D + (\bar P, 0) \otimes a + a \otimes (\bar P, 0)
    + 2 s \Big(\frac{a \otimes a}{\alpha^2} + \frac12 \begin{pmatrix} Q(F) & 0 \\ 0 & 0
    \end{pmatrix}\Big).

The cell's :math:`\varphi`: at the centre :math:`\nabla\varphi = B_0^T F_0^{-T}`,
:math:`\nabla^2\varphi = -B_0^T Q(F_0) B_0`, with :math:`B_0` the centre's map (that of the
mean F: :math:`B_0 = \sum_q dX_q B_q / \sum_q dX_q`); the mean, with :math:`V = \sum_q dX_q`,
:math:`\nabla J_0 = \tfrac1V \sum_q dX_q J_q B_q^T F_q^{-T}`,
:math:`\nabla^2 J_0 = \tfrac1V \sum_q dX_q J_q B_q^T (F_q^{-T} \otimes F_q^{-T} - Q(F_q)) B_q`,
:math:`\nabla\varphi = \nabla J_0 / J_0`, :math:`\nabla^2 \varphi = \nabla^2 J_0 / J_0 -
\nabla\varphi \otimes \nabla\varphi`.

At :math:`u = 0` the tangent is the small-strain stiffness whose in-plane strain at a point is
:math:`\varepsilon + \tfrac12 (\theta_0 - \theta) I` (:math:`\theta` the dilatation,
:math:`\theta_0` the cell's, :math:`\varepsilon_{zz} = 0`). On QUAD4 the centre value of a
dilatation is its cell mean, and so is the dilatation of the mean F, so on every kind its
volumetric part is that of B-bar with a constant pressure per cell; its deviatoric part is
not B-bar's: B-bar spreads the change of dilatation over three directions
(:math:`\tfrac13 (\bar\theta - \theta)` on xx, yy and zz), plane-strain F-bar over the two
in-plane ones. The deviator of F-bar's strain is B-bar's plus
:math:`(\theta_0 - \theta)(\tfrac16, \tfrac16, -\tfrac13)`, and since the fluctuation
:math:`\theta_0 - \theta` has zero mean over the cell, the two stiffnesses differ by a
shear-modulus term only,

.. math::

    K_{F\text{-bar}}(0) = K_{B\text{-bar}} - \frac{\mu}{3}\, t \sum_q dX_q\,
    (b_0 - b_q)^T (b_0 - b_q), \qquad b_q = m^T B_q ,

which vanishes where the dilatation is uniform in the cell (the patch test) and falls with
the mesh size: F-bar is the softer of the two, by a third of the shear modulus on the
dilatation's fluctuation, and neither carries the bulk modulus on it.

Which :math:`J_0`, measured. On Lamé's thick cylinder (radii 1 and 2, plane strain,
nu = 0.4999, p = 1e-4 E, 4 x 8 QUAD8 cells) the centre value of QUAD8 leaves the radial
displacement 5.8 % off (the volume change at one point of a quadratic quad is a poor
constraint on its area), the mean 0.009 % (small-strain B-bar: 0.004 %). On TRI6 cells
(mapped onto the annulus, their edges curved; largest nodal error of the radial displacement
relative to u(a), p = 1e-7 E, n x 2n squares of two TRI6 each, finite strain), the mean F
and the mean J alike (they differ at second order in the strain):

====  =====  ================  ======  ==================
n     full   mean F or mean J  centre  small-strain B-bar
====  =====  ================  ======  ==================
2     0.245  4.1e-3            1.8e-2  4.2e-3
4     0.040  5.8e-4            4.8e-3  6.4e-4
8     6e-3   8.0e-5            1.2e-3  9.1e-5
16    9e-4   1.1e-5            3.1e-4  1.2e-5
====  =====  ================  ======  ==================

(QUAD4 F-bar: 2.5e-2, 6.4e-3, 1.6e-3, 4.0e-4, order 2): the means converge as h^2.9, the
centre as h^2 only: its gradient is not the mean gradient of a curved TRI6, which then fails
the patch test (a uniform deformation of one curved cell, 30 % strains: force 29 % off; on
curved QUAD8 and QUAD9 cells 69 % off, the means exact to 5e-15). The same on QUAD8 and QUAD9
cells mapped onto the annulus (n x 2n, mid-side nodes on the arcs), the mean F:

==  ======  ============  ============  ============  ============
n   full    QUAD8 mean F  QUAD8 B-bar   QUAD9 mean F  QUAD9 B-bar
==  ======  ============  ============  ============  ============
2   0.566   4.1e-4        5.0e-4        3.2e-4        4.1e-4
4   0.090   3.1e-5        3.9e-5        2.3e-5        3.0e-5
8   6.5e-3  2.1e-6        2.8e-6        1.4e-6        1.9e-6
==  ======  ============  ============  ============  ============

(full QUAD8 and QUAD9 alike; B-bar small-strain): order 3.8 to 4, and a little closer than B-bar (whose pressure is
linear on these cells). The mean J is not stable under compression. The block of the built-in
``compression`` case, 4 x 4 cells compressed homogeneously in plane strain (neo-Hookean, its
right side free), which the full cells and QUAD4 F-bar carry with a positive definite
tangent (free dofs) to 30 % at nu = 0.3, 0.49 and 0.4999, gets a negative tangent eigenvalue
from this compression:

=========================  ========  =========  ===========
cells                      nu = 0.3  nu = 0.49  nu = 0.4999
=========================  ========  =========  ===========
QUAD9, mean J              6.5 %     4.8 %      4.7 %
QUAD8, mean J              21.6 %    16.0 %     15.7 %
QUAD8, centre              > 30 %    29.9 %     29.4 %
TRI6, mean J               > 30 %    24.9 %     24.4 %
TRI6, mean F               > 45 %    42.5 %     42.0 %
QUAD9, mean J, distorted   5.6 %     4.1 %      4.1 %
QUAD8, mean J, distorted   16.2 %    12.2 %     11.9 %
TRI6, mean J, distorted    26.2 %    20.9 %     20.5 %
TRI6, mean F, distorted    > 45 %    39.1 %     38.4 %
TRI6, mean J, curved       20-25 %   15-20 %    15-20 %
TRI6, mean F, curved       > 45 %    35-40 %    35-40 %
QUAD8, mean F              47.4 %    41.0 %     40.4 %
QUAD8, mean F, distorted   44.5 %    37.5 %     36.9 %
QUAD8, mean F, curved      41.3 %    34.3 %     33.7 %
QUAD9, mean F              23.4 %    17.4 %     17.0 %
QUAD9, mean F, distorted   17.6 %    13.1 %     12.8 %
QUAD9, mean F, curved      16.3 %    12.1 %     11.9 %
=========================  ========  =========  ===========

(the same on 8 x 8 cells, where the curved TRI6 hold to 40 % with the mean F, 20 % with the
mean J, QUAD8 with the mean F to 39-40 % at nu = 0.49 and 0.4999 on all three meshes, QUAD9 to
17-20 %; distorted: the inner corner nodes moved at random by up to a quarter of a cell, the
edges straight; curved: then the inner mid-side nodes by up to a twentieth, on a 5 % grid of
compressions, bisected for the quads' mean F; the full cells stay positive definite to 45 % in
all of them). These are instabilities of the cells, not of the block. With the mean J, the
``compression`` case of TRI6 cells follows a bifurcated state at nu = 0.49 (the final force 3.4 % and widening 6.9 %
off the closed form) and its Newton iterations fail at 24 % at nu = 0.4999; with the mean F
it is exact to 1e-9 at nu = 0.3, 0.49 and 0.4999, both laws, on 4 x 4 and 8 x 8 cells; so is
it on QUAD8 cells (to 2e-8). So TRI6 and QUAD8 take the mean F: stable, and as accurate as
B-bar. QUAD9 with the mean F turns indefinite from 17 % (12 % curved), and its ``compression``
case fails (Newton's iterations at nu = 0.49 and 0.4999 on 4 x 4 cells, the closed form missed
by 17 % on 8 x 8 at nu = 0.4999): bodies refuse it. Not homogeneous: the unit block
clamped on its base and top (a half block, its left side a symmetry plane, its right side
free) pressed by 15 % at nu = 0.49 barrels; the top's force (N per m, E = 1e7 Pa) and the
bulge of the right side's middle, n x n cells:

======================  ==================  ==================  ==================
cells                   n = 4               n = 8               n = 16
======================  ==================  ==================  ==================
QUAD4 F-bar             5.09e6, 0.2035      4.84e6, 0.2011      4.73e6, 0.1991
TRI6 F-bar (mean F)     4.46e6, 0.1984      4.54e6, 0.1965      4.56e6, 0.1952
TRI6 full               5.08e6, 0.2120      4.85e6, 0.2027
QUAD8 F-bar (mean F)    4.31e6, 0.2009      4.51e6, 0.1968      4.55e6, 0.1951
QUAD8 full              5.32e6, 0.2061      4.95e6, 0.2039      4.76e6, 0.1996
======================  ==================  ==================  ==================

(QUAD4 F-bar, 32 x 32: 4.66e6, 0.1974; the two close in on each other from either side, slowly
for the singular clamped corners), every final tangent positive definite, TRI6 F-bar's
smallest eigenvalue that of the full TRI6 cells within 8 %, QUAD8 F-bar's that of the full
QUAD8 cells within 3 % (8 x 8) and 0.6 % (16 x 16; 4 x 4: 0.13 against 0.20): no spurious
mode; QUAD8 and TRI6 F-bar agree to 1 % from 8 x 8 cells. At nu = 0.4999 the finer meshes turn
a corner cell inside out, QUAD4 (32 x 32) as TRI6 and QUAD8 (16 x 16); QUAD8 F-bar on 8 x 8
cells gives there 5.05e6, 0.2203 (4 x 4: 4.77e6, 0.2235), the TRI6 of the centre's F 5.09e6,
0.2203, its tangent positive definite (0.056, full QUAD8 at 0.49: 0.057). Bodies
(:class:`~fem2d.model.bodies.Body`) take F-bar on QUAD4, QUAD8 and TRI6 cells.

Example: a linear field, one volume change per cell already, is left as it is (the energy
and force of :func:`~fem2d.fe.hyperelastic.hyperelastic_cells`):

>>> from fem2d.fe.hyperelastic import hyperelastic_cells
>>> from fem2d.mesh.mesh import CellBlock
>>> X = np.array([[0.0, 0.0], [2.0, 0.2], [2.3, 1.1], [-0.1, 1.0]])
>>> cell = CellBlock("quad4", np.arange(4)[None])
>>> u = (X @ np.array([[0.2, 0.1], [-0.3, -0.1]])).ravel()
>>> a = fbar_cells(X, cell, u, "neo_hookean", 1.0, 0.45)
>>> b = hyperelastic_cells(X, cell, u, "neo_hookean", 1.0, 0.45)
>>> bool(np.allclose(a.force, b.force, rtol=1e-12)), bool(np.isclose(a.energy[0], b.energy[0], rtol=1e-12))
(True, True)
"""

from __future__ import annotations

import numpy as np

from fem2d.fe.elasticity import CHUNK
from fem2d.fe.elements import reference_element
from fem2d.fe.geometry import cell_geometry, check_jacobians
from fem2d.fe.hyperelastic_laws import check_law, inverse_2x2, lame, material_response
from fem2d.fe.quadrature import QuadratureRule
from fem2d.fe.response import CellResponse, cell_positions, displacement_gradients, raise_inverted
from fem2d.mesh.mesh import CellBlock

_I2 = np.eye(2)

#: The volume change :math:`J_0` each cell kind gives all its points: "centre" (the centre's F),
#: "mean_F" (the determinant of the cell's mean F) or "mean" (the cell's mean volume change).
CELL_VOLUME_CHANGE = {"tri3": "centre", "quad4": "centre", "quad8": "mean_F", "quad9": "mean_F", "tri6": "mean_F"}


def cell_centre(kind: str) -> QuadratureRule:
    """The one-point rule at the centre of a cell of ``kind``: :math:`\\xi = 0` on a quad, the
    centroid of a triangle.

    >>> cell_centre("tri6").points.tolist()
    [[0.3333333333333333, 0.3333333333333333]]
    """
    corners = 3 if kind.startswith("tri") else 4
    return QuadratureRule(reference_element(kind).nodes[:corners].mean(axis=0)[None], [1.0])


def _det(H: np.ndarray) -> np.ndarray:
    """``det(I + H) - 1``, without the round-off of ``1 + ...``."""
    return H[..., 0, 0] + H[..., 1, 1] + H[..., 0, 0] * H[..., 1, 1] - H[..., 0, 1] * H[..., 1, 0]


def _pair(G: np.ndarray, M: np.ndarray, dx: np.ndarray) -> np.ndarray:
    r""":math:`\sum_q dx_q B_q^T M_q B_q` (c, nn, 2, nn, 2) of the 4 x 4 ``M`` (c, q, a, J, b, L)
    and the shape gradients ``G`` (c, q, nn, 2): one matmul per cell."""
    c, nq, nn, _ = G.shape
    GA = np.einsum("cqiJ,cqaJbL->ciabqL", G * dx[..., None, None], M).reshape(c, nn * 4, nq * 2)
    K = np.matmul(GA, G.transpose(0, 1, 3, 2).reshape(c, nq * 2, nn)).reshape(c, nn, 2, 2, nn)
    return K.transpose(0, 1, 2, 4, 3)


def _volume_change(kind: str, points, sub: CellBlock, ue: np.ndarray, geo, H: np.ndarray, group: str | None,
                   order: int = 2):
    r"""``(phi, dphi, d2phi)``: :math:`\varphi = \ln J_0` of each cell (c,), its gradient
    (c, nn, 2) and Hessian (c, nn, 2, nn, 2) in the cell's displacements (module docstring);
    NaN where a determinant is <= 0. ``order`` 0: ``phi`` alone (None for the others), 1: and
    its gradient."""
    how = CELL_VOLUME_CHANGE.get(kind, "centre")
    if how in ("centre", "mean_F"):
        if how == "centre":
            G0 = cell_geometry(points, sub, cell_centre(kind), group, check=False).grad  # (c, 1, nn, 2)
        else:  # the gradient of the cell's mean F
            G0 = (np.einsum("cq,cqiJ->ciJ", geo.dx, geo.grad) / geo.dx.sum(axis=1)[:, None, None])[:, None]
        H0 = displacement_gradients(ue, G0)
        Fi, _ = inverse_2x2(_I2 + H0)
        j0 = _det(H0)[:, 0]
        with np.errstate(invalid="ignore"):
            phi = np.where(j0 > -1.0, np.log1p(j0), np.nan)
        if order == 0:
            return phi, None, None
        dphi = np.einsum("cqiJ,cqJa->cia", G0, Fi)
        if order == 1:
            return phi, dphi, None
        d2phi = -_pair(G0, np.einsum("cqJb,cqKa->cqaJbK", Fi, Fi), np.ones((len(ue), 1)))
        return phi, dphi, d2phi
    j = _det(H)
    V = geo.dx.sum(axis=1)
    J = 1.0 + j
    Fi, _ = inverse_2x2(_I2 + H)
    w = geo.dx * J / V[:, None]
    with np.errstate(invalid="ignore"):
        phi = np.where((j > -1.0).all(axis=1), np.log1p((geo.dx * j).sum(axis=1) / V), np.nan)
    if order == 0:
        return phi, None, None
    J0 = np.exp(phi)
    dphi = np.einsum("cqiJ,cqJa,cq->cia", geo.grad, Fi, w) / J0[:, None, None]
    if order == 1:
        return phi, dphi, None
    M = np.einsum("cqJa,cqLb->cqaJbL", Fi, Fi) - np.einsum("cqJb,cqKa->cqaJbK", Fi, Fi)
    d2phi = _pair(geo.grad, M, w) / J0[:, None, None, None, None] - np.einsum("cia,cjb->ciajb", dphi, dphi)
    return phi, dphi, d2phi


def fbar_gradients(H: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``(Hbar, alpha, ok)``: :math:`\bar H = \bar F - I = \alpha H + (\alpha - 1) I` of the
    displacement gradients ``H`` (c, nq, 2, 2) of cells whose volume change is
    :math:`J_0 = e^\varphi` (``phi``, (c,)), :math:`\alpha = (J_0 / J)^{1/2}`; ``ok`` (c,):
    the cells whose determinants are all > 0 (elsewhere ``alpha`` is NaN)."""
    j = _det(H)
    ok = (j > -1.0).all(axis=1) & np.isfinite(phi)
    with np.errstate(invalid="ignore", divide="ignore"):
        half_log = 0.5 * (phi[:, None] - np.log1p(j))
    half_log[~ok] = np.nan
    alpha = np.exp(half_log)
    return alpha[..., None, None] * H + np.expm1(half_log)[..., None, None] * _I2, alpha, ok


def fbar_cells(
    points: np.ndarray,
    block: CellBlock,
    u: np.ndarray,
    law: str,
    E: float,
    nu: float,
    thickness: float = 1.0,
    rule: QuadratureRule | None = None,
    group: str | None = None,
    tangent: bool = True,
) -> CellResponse:
    r"""Energy, internal force and tangent of F-bar hyperelastic plane-strain cells (module
    docstring), every cell at once. Parameters, returns and errors as
    :func:`~fem2d.fe.hyperelastic.hyperelastic_cells` (``InvertedCells`` where
    :math:`\det F \le 0` at a quadrature point or at the centre).

    Examples
    --------
    On a square at nu = 0.4999 the full QUAD4 resists the bending mode u_x = x y, whose
    volumetric strain y averages to zero, with the bulk modulus (2223 times E); F-bar's tangent
    at u = 0 gives it a shear-modulus energy, :math:`\mu\,(28/9 - 4/9)` against B-bar's
    :math:`\mu\, 28/9 = 1.037 E` (:func:`~fem2d.fe.bbar.bbar_stiffness_matrices`):

    >>> xy = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    >>> cell = CellBlock("quad4", np.arange(4)[None])
    >>> bend = np.array([1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0])  # u_x = x y
    >>> K = fbar_cells(xy, cell, np.zeros(8), "neo_hookean", 1.0, 0.4999).tangent[0]
    >>> round(float(bend @ K @ bend), 4)
    0.8889
    """
    check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    nc, nn = block.nodes.shape
    energy = np.zeros(nc)
    force = np.zeros((nc, nn, 2))
    KT = np.zeros((nc, nn, 2, nn, 2)) if tangent else None
    n_bad = 0
    for start in range(0, nc, CHUNK):  # chunks of cells, not a loop per cell
        sub = CellBlock(block.kind, block.nodes[start : start + CHUNK])
        m = len(sub)
        geo = cell_geometry(points, sub, rule, group, check=False)
        check_jacobians(geo.det, block.kind, group, offset=start)
        H = displacement_gradients(ue[start : start + m], geo.grad)
        phi, dphi, d2phi = _volume_change(block.kind, points, sub, ue[start : start + m], geo, H, group,
                                          2 if tangent else 1)
        Hbar, alpha, ok = fbar_gradients(H, phi)
        n_bad += int((~ok).sum())
        if n_bad:
            continue  # only count the rest
        Fbar = _I2 + Hbar
        W, S, _, CC = material_response(Fbar, law, mu, lam, tangent, Hbar)
        dx = geo.dx * thickness
        nq = dx.shape[1]
        energy[start : start + m] = np.einsum("cq,cq->c", dx, W)
        F = _I2 + H
        Fi, _ = inverse_2x2(F)
        Fit = np.swapaxes(Fi, -1, -2)
        P = Fbar @ S
        s = 0.5 * np.einsum("cqaJ,cqaJ->cq", P, Fbar)
        wF = alpha[..., None, None] * P - s[..., None, None] * Fit
        Gdx = geo.grad * dx[..., None, None]
        s_total = np.einsum("cq,cq->c", dx, s)
        force[start : start + m] = np.einsum("cqiJ,cqaJ->cia", Gdx, wF) + s_total[:, None, None] * dphi
        if not tangent:
            continue
        A = (np.einsum("cqaI,cqIJKL,cqbK->cqaJbL", Fbar, CC, Fbar, optimize=True)
             + np.einsum("ab,cqJL->cqaJbL", _I2, S)).reshape(m, nq, 4, 4)
        half = 0.5 * alpha
        a = np.concatenate([(-half[..., None, None] * Fit).reshape(m, nq, 4), half[..., None]], axis=-1)
        D = np.einsum("cqk,cqy->cqky", F.reshape(m, nq, 4), a)
        D[..., :4] += alpha[..., None, None] * np.eye(4)
        P5 = np.concatenate([P.reshape(m, nq, 4), np.zeros((m, nq, 1))], axis=-1)
        curv = np.einsum("cqy,cqz->cqyz", a, a) / (alpha**2)[..., None, None]
        curv[..., :4, :4] += 0.5 * np.einsum("cqJb,cqKa->cqaJbK", Fi, Fi).reshape(m, nq, 4, 4)
        w = (np.swapaxes(D, -1, -2) @ A @ D + np.einsum("cqy,cqz->cqyz", P5, a)
             + np.einsum("cqy,cqz->cqyz", a, P5) + 2.0 * s[..., None, None] * curv)
        c = np.einsum("cqiJ,cqaJ->cia", Gdx, w[..., :4, 4].reshape(m, nq, 2, 2))
        KT[start : start + m] = (
            _pair(geo.grad, w[..., :4, :4].reshape(m, nq, 2, 2, 2, 2), dx)
            + np.einsum("cia,cjb->ciajb", c, dphi) + np.einsum("cia,cjb->ciajb", dphi, c)
            + np.einsum("cq,cq->c", dx, w[..., 4, 4])[:, None, None, None, None]
            * np.einsum("cia,cjb->ciajb", dphi, dphi)
            + s_total[:, None, None, None, None] * d2phi
        )
    if n_bad:
        raise_inverted(n_bad, group)
    return CellResponse(
        energy=energy,
        force=force.reshape(nc, 2 * nn),
        tangent=None if KT is None else KT.reshape(nc, 2 * nn, 2 * nn),
    )


def fbar_cauchy_cell_nodal_stresses(
    points: np.ndarray, block: CellBlock, u: np.ndarray, law: str, E: float, nu: float
) -> np.ndarray:
    r"""Cauchy stress of each F-bar cell at its own nodes (Pa), shape (nc, nn, 4): (xx, yy, xy, zz),

    .. math::

        \sigma = \frac{1}{J_0} \bar F S(\bar F) \bar F^T, \qquad \sigma_{zz} = \frac{S_{33}}{J_0},

    with :math:`\bar F` made at each node from :math:`F` there and the cell's :math:`J_0`
    (:math:`\det \bar F = J_0`): the pressure of a cell is the one of its volume change.

    Raises
    ------
    InvertedCells
        If ``det F <= 0`` at a node or at the centre of some cell.

    Examples
    --------
    A uniform stretch is left as it is: the square of
    :func:`~fem2d.fe.hyperelastic.cauchy_cell_nodal_stresses`.

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> u = (X * [0.1, 0.0]).ravel()
    >>> fbar_cauchy_cell_nodal_stresses(X, CellBlock("quad4", [[0, 1, 2, 3]]), u, "saint_venant_kirchhoff",
    ...                                 2.6, 0.3)[0, 0].round(6)
    array([0.40425 , 0.143182, 0.      , 0.143182])
    """
    check_law(law)
    mu, lam = lame(E, nu)
    _, ue = cell_positions(points, block, u)
    element = reference_element(block.kind)
    gauss = cell_geometry(points, block, None, check=False)
    phi, _, _ = _volume_change(block.kind, points, block, ue, gauss, displacement_gradients(ue, gauss.grad), None,
                               order=0)
    geo = cell_geometry(points, block, QuadratureRule(element.nodes, np.ones(element.n_nodes)), check=False)
    Hbar, _, ok = fbar_gradients(displacement_gradients(ue, geo.grad), phi)
    if not ok.all():
        raise_inverted(int((~ok).sum()), None)
    Fbar = _I2 + Hbar
    J0 = 1.0 + _det(Hbar)
    _, S, S33, _ = material_response(Fbar, law, mu, lam, tangent=False, H=Hbar)
    sigma = np.einsum("cqaI,cqIJ,cqbJ->cqab", Fbar, S, Fbar) / J0[..., None, None]
    return np.stack([sigma[..., 0, 0], sigma[..., 1, 1], sigma[..., 0, 1], S33 / J0], axis=-1)
