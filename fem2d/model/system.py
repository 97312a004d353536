"""The assembled system: sparse K, M (C), load vector f(t), constrained dofs.

Dofs are interleaved (2 i is DX of node i, 2 i + 1 its DY). Solvers work on
the *free* dofs; prescribed dofs keep a constant value (zero in every case
here), lifted into the right-hand side.

The matrices are CSR, or dense ndarrays for a small model assembled with
``Model.assemble(dense=True)`` (the modal path of a few hundred dofs, which runs on
NumPy alone: scipy.sparse is imported only where a sparse matrix is made or asked for).

A run steps on the free-free blocks :math:`K_{ff}`, :math:`M_{ff}`, :math:`C_{ff}`
(:attr:`System.K_free`, :attr:`System.M_free`, :attr:`System.C_free`). Once such a block is
made, a CSR ``K``, ``M`` or ``C`` on all dofs is kept as that block and the rest (the
entries of the prescribed rows and columns), and made again, the same matrix entry for
entry, when it is asked for (the reactions, an exact model, a prescribed displacement's
lift): a level-6 SDNV104 run held both, 137 MB where 68 MB do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from fem2d.contact.problem import ContactZone
from fem2d.mesh.mesh import Mesh
from fem2d.model.timefunctions import TimeFunction

if TYPE_CHECKING:
    import scipy.sparse as sp

    from fem2d.model.internal import NonlinearBodies

#: A system matrix: CSR, or dense for a model assembled densely.
Matrix: TypeAlias = "sp.csr_matrix | np.ndarray"


def dense_array(matrix: Matrix) -> np.ndarray:
    """A system matrix as an ndarray: a CSR one expanded, a dense one as it is (not copied).

    >>> dense_array(np.eye(2)).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    return matrix if isinstance(matrix, np.ndarray) else matrix.toarray()


@dataclass(frozen=True)
class Load:
    """A load vector (all dofs, N) scaled by a function of time."""

    vector: np.ndarray
    function: TimeFunction
    label: str = ""


@dataclass(frozen=True)
class Motion:
    """Prescribed displacements that follow a time function:
    ``u[dofs] = values * function(t)`` on top of the constant ``fixed_values``
    (a support moved by a displacement history, a moving rigid obstacle)."""

    dofs: np.ndarray
    values: np.ndarray
    function: TimeFunction
    label: str = ""


@dataclass
class System:
    """Everything the time integrators need, as arrays.

    ``K`` is the total stiffness (bodies + discrete springs), ``K_springs``
    the part due to discrete springs (for the energy split), ``M`` the mass,
    ``C`` the damping (None: undamped): CSR matrices, or all dense ndarrays
    (:attr:`dense`) for a small model assembled so. ``fixed`` / ``fixed_values`` are the
    prescribed dofs and their values, ``motions`` the prescribed
    displacements that vary in time (on prescribed dofs whose mass coupling
    to the free dofs is zero: their force on the free dofs is
    :math:`-K_{fc} u_c(t)`). ``zones`` are the contact zones.
    ``initial_velocity`` / ``initial_displacement`` are full dof vectors
    (None: zero). ``nonlinear`` holds the ``"corotational"`` and ``"finite"`` bodies, whose
    internal force is :math:`K u` plus a remainder :math:`g(u)` (:mod:`fem2d.model.internal`).
    """

    mesh: Mesh
    K: Matrix
    M: Matrix
    K_springs: Matrix
    fixed: np.ndarray
    fixed_values: np.ndarray
    loads: list[Load] = field(default_factory=list)
    C: Matrix | None = None
    initial_velocity: np.ndarray | None = None
    zones: list[ContactZone] = field(default_factory=list)
    motions: list[Motion] = field(default_factory=list)
    initial_displacement: np.ndarray | None = None
    #: the bodies that turn or stretch (:mod:`fem2d.model.internal`); None when every body is small
    nonlinear: NonlinearBodies | None = None

    @property
    def n_dofs(self) -> int:
        return self.__dict__["_n_dofs"]

    @property
    def dense(self) -> bool:
        """Whether the matrices are dense ndarrays (a small model assembled densely) rather than CSR."""
        return self.__dict__["_dense"]

    @cached_property
    def free(self) -> np.ndarray:
        mask = np.ones(self.n_dofs, dtype=bool)
        mask[self.fixed] = False
        return np.flatnonzero(mask)

    @cached_property
    def free_index(self) -> np.ndarray:
        """Position of each dof among the free dofs, -1 for a prescribed dof."""
        index = np.full(self.n_dofs, -1, dtype=np.int64)
        index[self.free] = np.arange(len(self.free))
        return index

    def restrict(self, matrix: Matrix | sp.spmatrix | None) -> Matrix | None:
        """The free-free block of a full matrix: CSR for a sparse one, an ndarray for a dense one."""
        if matrix is None:
            return None
        if isinstance(matrix, np.ndarray):
            return matrix[np.ix_(self.free, self.free)]
        import scipy.sparse as sp  # already loaded: the matrix is sparse

        return sp.csr_matrix(matrix[self.free][:, self.free])

    @cached_property
    def K_free(self) -> Matrix:
        return self._free_block("K")

    @cached_property
    def M_free(self) -> Matrix:
        return self._free_block("M")

    def _free_block(self, name: str) -> Matrix | None:
        """The free-free block of ``K``, ``M`` or ``C``; a CSR matrix on all dofs is then kept as
        that block and the rest (see the module docstring, :func:`_full_matrix`)."""
        full = _full_matrix(self, name)
        block = self.restrict(full)
        if block is not None and not isinstance(full, np.ndarray):
            csr = full.tocsr()
            free = np.zeros(csr.shape[0], dtype=bool)
            free[self.free] = True
            rows = np.repeat(np.arange(csr.shape[0], dtype=csr.indices.dtype), np.diff(csr.indptr))
            rest = ~(free[rows] & free[csr.indices])  # the entries of a prescribed row or column
            # kept with the block and the free dofs of the split: the matrix is made again from these
            # even when a caller has changed ``fixed`` and dropped the cached blocks since
            self.__dict__["_rest"][name] = (type(csr), self.free, block, rows[rest], csr.indices[rest],
                                            csr.data[rest])
            del self.__dict__["_full"][name]
        return block

    @cached_property
    def C_free(self) -> Matrix | None:
        return self._free_block("C")

    @cached_property
    def _lift(self) -> np.ndarray:
        """-K_fc u_c: the force of the prescribed displacements on the free dofs."""
        if not np.any(self.fixed_values):
            return np.zeros(len(self.free))
        u_c = np.zeros(self.n_dofs)
        u_c[self.fixed] = self.fixed_values
        return -(self.K @ u_c)[self.free]

    @cached_property
    def _motion_lifts(self) -> list[np.ndarray]:
        """-K_fc u_c of each motion at unit amplitude, on the free dofs."""
        lifts = []
        for motion in self.motions:
            u_c = np.zeros(self.n_dofs)
            u_c[motion.dofs] = motion.values
            lifts.append(-(self.K @ u_c)[self.free])
        return lifts

    def prescribed_at(self, t: float) -> np.ndarray:
        """All dofs' prescribed values at t (zero on free dofs), m."""
        out = np.zeros(self.n_dofs)
        out[self.fixed] = self.fixed_values
        for motion in self.motions:
            out[motion.dofs] += motion.function(t) * motion.values
        return out

    def prescribed_velocity_at(self, t: float) -> np.ndarray:
        r"""All dofs' prescribed velocities at t (zero on free and fixed dofs), m/s:
        :math:`\dot u_c = \sum_m v_m f_m'(t)`, the slope of each motion's time
        function by a centred difference (exact for a piecewise-linear history
        between its breakpoints; the mean of both slopes at one)."""
        out = np.zeros(self.n_dofs)
        h = 1e-7 * max(1.0, abs(t))
        for motion in self.motions:
            slope = (motion.function(t + h) - motion.function(t - h)) / (2.0 * h)
            out[motion.dofs] += slope * motion.values
        return out

    def force(self, t: float) -> np.ndarray:
        """External load vector on all dofs at time t (N)."""
        f = np.zeros(self.n_dofs)
        for load in self.loads:
            f += load.function(t) * load.vector
        return f

    def force_free(self, t: float) -> np.ndarray:
        """Load on the free dofs at time t, prescribed displacements lifted: :meth:`force`
        on the free dofs (the same sums, on the free parts of the load vectors, taken once)
        plus :meth:`lift_free`."""
        f = np.zeros(len(self.free))
        for load, vector in zip(self.loads, self._free_load_vectors()):
            f += load.function(t) * vector
        return f + self.lift_free(t)

    def _free_load_vectors(self) -> list[np.ndarray]:
        """The loads' vectors on the free dofs, kept while the list holds the same loads."""
        kept = self.__dict__.get("_free_loads")
        if kept is None or len(kept[0]) != len(self.loads) or any(a is not b for a, b in zip(kept[0], self.loads)):
            kept = self.__dict__["_free_loads"] = (list(self.loads), [load.vector[self.free] for load in self.loads])
        return kept[1]

    @property
    def has_prescribed_displacements(self) -> bool:
        """Whether some prescribed dof is ever displaced (a non-zero value or a motion)."""
        return bool(np.any(self.fixed_values)) or bool(self.motions)

    def lift_free(self, t: float) -> np.ndarray:
        """The force of the prescribed displacements on the free dofs at t,
        :math:`-K_{fc} u_c(t)` (N): part of :meth:`force_free`, not an external load."""
        f = self._lift.copy()
        for motion, lift in zip(self.motions, self._motion_lifts):
            f += motion.function(t) * lift
        return f

    def expand(self, values_free: np.ndarray, prescribed: bool = True) -> np.ndarray:
        """A full dof vector from free-dof values; prescribed dofs get their
        values (``prescribed=True``, for displacements) or zero (for
        velocities, accelerations and forces)."""
        full = np.zeros(self.n_dofs)
        full[self.free] = values_free
        if prescribed:
            full[self.fixed] = self.fixed_values
        return full


def _full_matrix(system: System, name: str) -> Matrix | None:
    """``K``, ``M`` or ``C`` on all dofs: as given (None: no damping), or made again from the
    free-free block and the rest (disjoint entries: each value is the one given, in canonical
    CSR order).

    >>> import scipy.sparse as sp
    >>> from fem2d.mesh.mesh import Mesh
    >>> k = sp.csr_matrix(np.array([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]]))
    >>> s = System(Mesh(np.zeros((2, 2)), {}), k, sp.identity(3, format="csr"), sp.csr_matrix((3, 3)),
    ...            np.array([0]), np.zeros(1))
    >>> s.K_free.toarray().tolist()
    [[2.0, -1.0], [-1.0, 2.0]]
    >>> (s.K != k).nnz, s.n_dofs
    (0, 3)
    >>> s = System(Mesh(np.zeros((2, 2)), {}), sp.csr_array(k), sp.identity(3, format="csr"),
    ...            sp.csr_matrix((3, 3)), np.array([0]), np.zeros(1))
    >>> _ = s.K_free; type(s.K).__name__
    'csr_array'
    """
    kept_full = system.__dict__["_full"]
    if name in kept_full:
        return kept_full[name]
    csr, free, kept, rows, cols, values = system.__dict__["_rest"][name]  # split by System._free_block
    block, n = kept.tocoo(), system.n_dofs
    # one canonical CSR (of the class given: csr_matrix or csr_array) from the two disjoint sets of
    # triplets (a sum of sparse matrices would drop stored zeros)
    full = csr((np.concatenate((block.data, values)),
                (np.concatenate((free[block.row], rows)), np.concatenate((free[block.col], cols)))), shape=(n, n))
    kept_full[name] = full
    return full


def _matrix_property(name: str) -> property:
    """``System.K``, ``System.M``, ``System.C``: the matrix on all dofs (see :func:`_full_matrix`)."""

    def get(self: System) -> Matrix:
        return _full_matrix(self, name)

    def set_(self: System, value: Matrix) -> None:
        self.__dict__.setdefault("_full", {})[name] = value
        self.__dict__.setdefault("_rest", {}).pop(name, None)
        if name == "K":  # (read without making K again)
            self.__dict__["_n_dofs"] = value.shape[0]
            self.__dict__["_dense"] = isinstance(value, np.ndarray)

    return property(get, set_, doc=f"``{name}`` on all dofs (CSR, or dense for a model assembled densely).")


System.K = _matrix_property("K")  # type: ignore[assignment]  # after @dataclass: its field, made a property
System.M = _matrix_property("M")  # type: ignore[assignment]
System.C = _matrix_property("C")  # type: ignore[assignment]
