"""Time the assembly of K and M on the SDNV104 sliding-block mesh.

Run: ``python benchmarks/bench_assembly.py [max_refine]`` (default 6). For each
element and refinement level it prints the cell and dof counts and the wall
time (best of a few runs) of

* K: element stiffness of PATIN and BATI + COO -> CSR assembly,
* M: consistent element mass of PATIN + COO -> CSR assembly,
* Ml: lumped mass of PATIN (row-sum QUAD4 / HRZ QUAD8) assembled as a
  vector and put on a diagonal CSR matrix.

Mesh generation (Gmsh) is not timed.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import scipy.sparse as sp

from fem2d.fe import (
    assemble_matrix,
    assemble_vector,
    elasticity_matrix,
    lumped_masses,
    mass_matrices,
    node_dofs,
    stiffness_matrices,
)
from fem2d.mesh import Mesh, sliding_block

RHO = 7000.0
D_BLOCK = elasticity_matrix(2.1e11, 0.0, "plane_strain")
D_SUPPORT = elasticity_matrix(1e11, 0.0, "plane_strain")


def stiffness(mesh: Mesh) -> sp.csr_matrix:
    """K of the block and the support."""
    patin, bati = mesh.group("PATIN"), mesh.group("BATI")
    ke = [
        stiffness_matrices(mesh.points, patin, D_BLOCK, group="PATIN"),
        stiffness_matrices(mesh.points, bati, D_SUPPORT, group="BATI"),
    ]
    return assemble_matrix(ke, [node_dofs(patin.nodes), node_dofs(bati.nodes)], 2 * mesh.n_nodes)


def consistent_mass(mesh: Mesh) -> sp.csr_matrix:
    """Consistent M of the block (the support has rho = 0)."""
    patin = mesh.group("PATIN")
    return assemble_matrix(
        mass_matrices(mesh.points, patin, RHO, group="PATIN"), node_dofs(patin.nodes), 2 * mesh.n_nodes
    )


def lumped_mass(mesh: Mesh) -> sp.csr_matrix:
    """Lumped M of the block, as a diagonal matrix."""
    patin = mesh.group("PATIN")
    m = np.repeat(lumped_masses(mesh.points, patin, RHO, group="PATIN"), 2, axis=1)
    return sp.diags(assemble_vector(m, node_dofs(patin.nodes), 2 * mesh.n_nodes)).tocsr()


def best_of(func, mesh: Mesh, repeat: int) -> tuple[float, sp.csr_matrix]:
    """Smallest wall time of ``repeat`` calls of ``func(mesh)``, and the last result."""
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = func(mesh)
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(max_refine: int = 6) -> None:
    header = ("element", "refine", "cells", "dofs", "nnz(K)", "K (s)", "M (s)", "Ml (s)")
    print("{:7s} {:>6s} {:>8s} {:>8s} {:>10s} {:>8s} {:>8s} {:>8s}".format(*header))
    for element in ("quad4", "quad8"):
        for refine in range(max_refine + 1):
            mesh = sliding_block(element, refine)
            repeat = 5 if refine < 5 else 3
            tk, K = best_of(stiffness, mesh, repeat)
            tm, M = best_of(consistent_mass, mesh, repeat)
            tl, Ml = best_of(lumped_mass, mesh, repeat)
            assert abs(M.sum() / 2 - RHO) < 1e-9 * RHO and abs(Ml.sum() / 2 - RHO) < 1e-9 * RHO
            cells = len(mesh.group("PATIN")) + len(mesh.group("BATI"))
            n = 2 * mesh.n_nodes
            print(f"{element:7s} {refine:6d} {cells:8d} {n:8d} {K.nnz:10d} {tk:8.3f} {tm:8.3f} {tl:8.3f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
