"""The finite-element layer: reference elements, quadrature, vectorised element
matrices (stiffness, mass, springs), loads and COO -> CSR assembly (or dense, for a
small model: :func:`assemble_dense_matrix`).

A typical use, for one elastic block of a :class:`~fem2d.mesh.Mesh`::

    block = mesh.group("PATIN")
    D = elasticity_matrix(2.1e11, 0.0, "plane_strain")
    dofs = node_dofs(block.nodes)
    K = assemble_matrix(stiffness_matrices(mesh.points, block, D), dofs, 2 * mesh.n_nodes)
    M = assemble_matrix(mass_matrices(mesh.points, block, 7000.0, lumping="lumped"), dofs, 2 * mesh.n_nodes)
    f = pressure_load(mesh, "FSUP", 7e4)
"""

from fem2d.fe.assembly import assemble_dense_matrix, assemble_matrix, assemble_vector, node_dofs
from fem2d.fe.axisymmetric import (
    axisymmetric_cell_nodal_stresses,
    axisymmetric_elasticity_matrix,
    axisymmetric_gauss_strains,
    axisymmetric_gauss_stresses,
    axisymmetric_stiffness_matrices,
    radial_weights,
)
from fem2d.fe.bbar import bbar_cell_nodal_stresses, bbar_gauss_strains, bbar_stiffness_matrices
from fem2d.fe.boundary import edge_orientation, outward_normals
from fem2d.fe.discrete import global_spring_matrices, point_mass_matrices, point_spring_matrices, spring_matrices
from fem2d.fe.elasticity import (
    HYPOTHESES,
    cell_nodal_stresses,
    elasticity_matrix,
    gauss_strains,
    gauss_stresses,
    nodal_average,
    nodal_stresses,
    stiffness_matrices,
    von_mises,
)
from fem2d.fe.elements import ELEMENTS, ReferenceElement, reference_element
from fem2d.fe.geometry import CellGeometry, EdgeGeometry, cell_geometry, check_jacobians, edge_geometry
from fem2d.fe.loads import (
    body_force_load,
    body_force_vectors,
    point_force_load,
    pressure_load,
    pressure_vectors,
    traction_load,
    traction_vectors,
)
from fem2d.fe.mass import LUMPINGS, lumped_masses, mass_matrices, scalar_mass_matrices
from fem2d.fe.norms import error_norms, error_rule, integrate_over_cells
from fem2d.fe.quadrature import DEFAULT_GAUSS_POINTS, QuadratureRule, gauss_legendre, gauss_rule, nodal_rule

__all__ = [
    "DEFAULT_GAUSS_POINTS",
    "ELEMENTS",
    "HYPOTHESES",
    "LUMPINGS",
    "CellGeometry",
    "EdgeGeometry",
    "QuadratureRule",
    "ReferenceElement",
    "assemble_dense_matrix",
    "assemble_matrix",
    "assemble_vector",
    "axisymmetric_cell_nodal_stresses",
    "axisymmetric_elasticity_matrix",
    "axisymmetric_gauss_strains",
    "axisymmetric_gauss_stresses",
    "axisymmetric_stiffness_matrices",
    "bbar_cell_nodal_stresses",
    "bbar_gauss_strains",
    "bbar_stiffness_matrices",
    "body_force_load",
    "body_force_vectors",
    "cell_geometry",
    "cell_nodal_stresses",
    "check_jacobians",
    "edge_geometry",
    "edge_orientation",
    "elasticity_matrix",
    "error_norms",
    "error_rule",
    "gauss_legendre",
    "gauss_rule",
    "gauss_strains",
    "gauss_stresses",
    "global_spring_matrices",
    "integrate_over_cells",
    "lumped_masses",
    "mass_matrices",
    "nodal_average",
    "nodal_rule",
    "nodal_stresses",
    "node_dofs",
    "outward_normals",
    "point_force_load",
    "point_mass_matrices",
    "point_spring_matrices",
    "pressure_load",
    "pressure_vectors",
    "radial_weights",
    "reference_element",
    "scalar_mass_matrices",
    "spring_matrices",
    "stiffness_matrices",
    "traction_load",
    "traction_vectors",
    "von_mises",
]
