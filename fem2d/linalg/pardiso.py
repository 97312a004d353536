r"""Intel MKL PARDISO, called directly through ``ctypes`` on the ``mkl`` wheel's runtime library.

Three backends share one binding: ``pardiso-cholesky`` (matrix type 2, real
symmetric positive definite: :math:`A = P^T L L^T P`), ``pardiso-ldlt``
(type -2, symmetric indefinite :math:`LDL^T` with Bunch-Kaufman pivoting, the
closest match to code_aster's LDLT) and ``pardiso`` (type 11, supernodal LU,
the closest match to code_aster's MULT_FRONT). The symmetric types read the
upper triangle only.

The binding is a single call per phase: no copy or hash of the matrix per
solve (pypardiso compares or hashes the whole matrix at every solve to decide
whether it is factorised, which made its solves as slow as SuperLU's). The
pointers to the matrix, the handle and the parameters are made once per
factorisation, so a solve of a small system costs about 7 us of Python
instead of 30 (a contact run of 42 dofs does two sweeps per step).

With ``boundary`` rows the factorisation eliminates them last and returns the
dense Schur complement of those rows,

.. math::

    S = A_{bb} - A_{bi} A_{ii}^{-1} A_{ib},

and a solve splits into a forward sweep that leaves the reduced right-hand
side :math:`g = r_b - A_{bi} A_{ii}^{-1} r_i` in the boundary rows
(:meth:`PardisoFactorization.forward`), a dense solve :math:`x_b = S^{-1} g`
done by the caller, and a backward sweep from :math:`x_b`
(:meth:`PardisoFactorization.backward`): one forward and one backward sweep in
all (MKL's phases 331 and 333 with ``iparm[35] = 1``).

A matrix with the same sparsity pattern and new values (:math:`K + c\,M` for
another step size) is factorised again in the same handle
(:meth:`PardisoFactorization.refactorize`): phase 22 reuses the ordering and
symbolic analysis of phase 11 and the memory of the old factors, about a third
of the time of a new factorisation at level 6 (0.60 s against 1.76 s), and no
new memory. That makes the trial steps of the stick/slip locator, each of its
own size, affordable.
"""

from __future__ import annotations

import ctypes
import os

import numpy as np
import scipy.sparse as sp

from fem2d.errors import NumericalError
from fem2d.linalg.base import SINGULAR_CAUSE, SolverBackend, is_upper_triangular, singular_matrix_error
from fem2d.linalg.default import mkl_runtime

_INSTALL = "install MKL with `pip install mkl` (a dependency of fem2d on x86_64)"
_PTR = ctypes.c_void_p


#: The backend name of each PARDISO matrix type, for messages.
MTYPE_NAMES = {2: "pardiso-cholesky", -2: "pardiso-ldlt", 11: "pardiso"}


def _available() -> bool:
    return mkl_runtime() is not None


def _refactorizer(mtype: int):
    """The backend's ``refactorize_fn`` for matrix type ``mtype``: ``matrix`` factorised in
    ``old``'s handle when it has the same pattern, type and boundary, otherwise from scratch
    (``old`` freed first, so that two sets of factors are never held at once)."""

    def refactorize(old: object, matrix: sp.csr_matrix, boundary: np.ndarray | None = None) -> PardisoFactorization:
        if isinstance(old, PardisoFactorization) and old.alive and old.mtype == mtype:
            same_rows = (boundary is None and old.boundary is None) or (
                boundary is not None and old.boundary is not None
                and np.array_equal(np.sort(np.asarray(boundary, dtype=np.int64)), old.boundary))
            if same_rows and old.same_pattern(matrix):
                return old.refactorize(matrix)
        if isinstance(old, PardisoFactorization):
            old.free()
        return PardisoFactorization(matrix, mtype, boundary)

    return refactorize


def _upper(matrix: sp.csr_matrix) -> sp.csr_matrix:
    """The upper triangle of a CSR matrix: the matrix itself when it is one (no copy).

    >>> a = sp.csr_matrix(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> _upper(a).toarray().tolist()
    [[2.0, 1.0], [0.0, 2.0]]
    >>> u = _upper(a); _upper(u) is u
    True
    """
    return matrix if is_upper_triangular(matrix) else sp.triu(matrix, format="csr")


def _same_memory(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays are views of the same memory with the same layout (equal without a comparison).

    >>> x = np.arange(4); _same_memory(x, x[:]), _same_memory(x, x.copy())
    (True, False)
    """
    return (a.ctypes.data == b.ctypes.data and a.shape == b.shape and a.strides == b.strides
            and a.dtype == b.dtype)


class PardisoFactorization:
    """PARDISO factors of ``matrix`` (kept in MKL's memory until this object is freed).

    Parameters
    ----------
    matrix
        Square CSR matrix; symmetric for ``mtype`` 2 and -2.
    mtype
        PARDISO matrix type: 2 (SPD), -2 (symmetric indefinite) or 11 (general).
    boundary
        Row indices eliminated last; the factorisation then holds their Schur
        complement in :attr:`schur` (rows in increasing index order, see :attr:`boundary`).
    """

    def __init__(self, matrix: sp.csr_matrix, mtype: int, boundary: np.ndarray | None = None) -> None:
        # MKL on one thread unless the environment says otherwise: its default GNU OpenMP layer
        # deadlocks in a process forked after the parent used it (fem2d's worker pools), and
        # idle OpenMP threads spinning after each call slowed a shared machine several times over
        os.environ.setdefault("MKL_THREADING_LAYER", "SEQUENTIAL")
        self._pardiso = ctypes.CDLL(str(mkl_runtime())).pardiso
        self._pardiso.restype = None
        self.mtype = mtype
        if mtype in (2, -2):
            matrix = _upper(matrix)
        matrix.sort_indices()
        self.n = matrix.shape[0]
        self._data = np.ascontiguousarray(matrix.data, dtype=float)
        # zero-based CSR (iparm[34] = 1): the matrix's own index arrays when they are 32-bit, shared and
        # never written (the stepper's K_eff of every step size shares one pattern); a one-based copy
        # was 8.6 MB at level 6, and its comparison in same_pattern as much again at each step size
        self._indptr = np.ascontiguousarray(matrix.indptr, dtype=np.int32)
        self._indices = np.ascontiguousarray(matrix.indices, dtype=np.int32)
        del matrix
        self._pardiso_setup(boundary)
        self._factorize(12)

    def _pardiso_setup(self, boundary: np.ndarray | None) -> None:
        """The handle and parameters (phase 11's inputs)."""
        mtype = self.mtype
        self._handle = np.zeros(64, dtype=np.int64)
        self._args: tuple | None = None
        self._iparm = np.zeros(64, dtype=np.int32)
        self._iparm[0] = 1  # the values below, not the defaults
        self._iparm[1] = 3  # METIS nested dissection, parallel (MKL's default with iparm[0] = 0)
        # two steps of iterative refinement in a full solve (phase 33; MKL's default, which the
        # LU and LDL^T backends keep); none for a Cholesky factor of an SPD matrix, whose solve
        # they made ten times slower
        self._iparm[7] = 0 if mtype == 2 else 2
        self._iparm[9] = 13 if mtype == 11 else 8  # pivot perturbation 1e-13 (LU) / 1e-8 (symmetric)
        self._iparm[10] = 1 if mtype == 11 else 0  # scaling: LU only (MKL's default)
        self._iparm[12] = 1 if mtype == 11 else 0  # weighted matching: LU only
        self._iparm[34] = 1  # zero-based row and column indices (SciPy's)
        self._perm = np.zeros(self.n, dtype=np.int32)
        #: boundary rows (sorted) and their Schur complement, when asked for
        self.boundary: np.ndarray | None = None
        self.schur: np.ndarray | None = None
        if boundary is not None:
            self.boundary = np.sort(np.asarray(boundary, dtype=np.int64))
            self._perm[self.boundary] = 1
            self._iparm[35] = 1

    def _factorize(self, phase: int) -> None:
        """Phase 12 (analysis and factorisation) or 22 (factorisation on the analysis kept),
        with the Schur complement of the boundary rows when there are some."""
        out = np.zeros(1) if self.boundary is None else np.zeros((len(self.boundary), len(self.boundary)))
        self._call(phase, np.zeros(1), out, 1)
        if self.boundary is not None:
            self.schur = 0.5 * (out + out.T)  # symmetric by construction: drop the round-off

    def same_pattern(self, matrix: sp.csr_matrix) -> bool:
        """Whether ``matrix`` (as this backend reads it: its upper triangle for the symmetric
        types) has the sparsity pattern of the factorised matrix."""
        if matrix.shape != (self.n, self.n):
            return False
        if self.mtype in (2, -2):
            matrix = _upper(matrix)
        matrix.sort_indices()
        return len(matrix.indices) == len(self._indices) and all(
            _same_memory(mine, theirs) or np.array_equal(mine, theirs)
            for mine, theirs in ((self._indptr, matrix.indptr), (self._indices, matrix.indices)))

    def refactorize(self, matrix: sp.csr_matrix) -> PardisoFactorization:
        """The factorisation of ``matrix``, which has this one's sparsity pattern, made in this
        one's handle and memory (phase 22 on the kept analysis; ``ValueError`` for another
        pattern). This object gives its handle away: it cannot solve any more."""
        if not self.alive:
            raise ValueError("this PARDISO factorisation gave its handle away")
        if not self.same_pattern(matrix):
            raise ValueError("refactorize: the matrix has another sparsity pattern")
        if self.mtype in (2, -2):
            matrix = _upper(matrix)
        new = object.__new__(PardisoFactorization)
        new.__dict__.update(self.__dict__)
        if matrix.data is not new._data:  # (the caller may have written them in place: matrix_values)
            np.copyto(new._data, matrix.data)  # the new values in the same memory: no new allocation
        new._iparm = self._iparm.copy()
        new._args = None  # the pointers of the call are made again (its parameters are a new array)
        new.schur = None
        self._handle = None  # given away: neither freed nor used by this object any more
        self._data = self._indptr = self._indices = None
        self.schur = None
        new._factorize(22)
        return new

    @property
    def matrix_values(self) -> np.ndarray | None:
        """The factorised matrix's values (CSR order, upper triangle for the symmetric types), which
        :meth:`refactorize` overwrites: a caller may write the next matrix's values into them."""
        return self._data

    @property
    def alive(self) -> bool:
        """Whether this object holds its factors (not given away by :meth:`refactorize`)."""
        return self._handle is not None

    def _call(self, phase: int, b: np.ndarray, x: np.ndarray, nrhs: int) -> None:
        args = self._args
        if args is None:  # the pointers to the matrix, handle and parameters, made once (they never move)
            ints = {name: ctypes.c_int32(value) for name, value in (("one", 1), ("mtype", self.mtype), ("n", self.n),
                                                                      ("zero", 0))}
            self._ints = ints
            self._phase, self._nrhs, self._error = ctypes.c_int32(0), ctypes.c_int32(1), ctypes.c_int32(0)
            ptr = ctypes.cast
            args = self._args = (
                ptr(self._handle.ctypes.data, _PTR), ctypes.byref(ints["one"]), ctypes.byref(ints["one"]),
                ctypes.byref(ints["mtype"]), ctypes.byref(self._phase), ctypes.byref(ints["n"]),
                ptr(self._data.ctypes.data, _PTR), ptr(self._indptr.ctypes.data, _PTR),
                ptr(self._indices.ctypes.data, _PTR), ptr(self._perm.ctypes.data, _PTR), ctypes.byref(self._nrhs),
                ptr(self._iparm.ctypes.data, _PTR), ctypes.byref(ints["zero"]),
            )  # fmt: skip
        self._phase.value, self._nrhs.value, self._error.value = phase, nrhs, 0
        self._pardiso(*args, _PTR(b.ctypes.data), _PTR(x.ctypes.data), ctypes.byref(self._error))
        error = self._error.value
        if error == -4:
            raise singular_matrix_error(MTYPE_NAMES[self.mtype], f"MKL PARDISO phase {phase}: error -4 (a zero pivot)")
        if error != 0:
            raise NumericalError(f"MKL PARDISO phase {phase} failed with error {error}; {SINGULAR_CAUSE}")

    def _sweep(self, phase: int, b: np.ndarray) -> np.ndarray:
        if not self.alive:
            raise ValueError("this PARDISO factorisation gave its handle away (refactorize)")
        b = np.asarray(b, dtype=float)
        if b.shape == (self.n,) and b.flags.c_contiguous:  # one right-hand side: no reshape nor copy
            x = np.zeros(self.n)
            self._call(phase, b, x, 1)
            return x
        columns = np.asfortranarray(b.reshape(self.n, -1))  # PARDISO reads column-major right-hand sides
        x = np.zeros_like(columns, order="F")
        self._call(phase, columns, x, columns.shape[1])
        return np.ascontiguousarray(x).reshape(b.shape)

    def solve(self, b: np.ndarray) -> np.ndarray:
        """x with A x = b; ``b`` is (n,) or (n, k) and x has the same shape."""
        if self.schur is not None:
            y = self.forward(b)
            rows = self.boundary
            y[rows] = np.linalg.solve(self.schur, y[rows])
            return self.backward(y)
        return self._sweep(33, b)

    def forward(self, b: np.ndarray) -> np.ndarray:
        """The forward sweep of a factorisation with a Schur complement: the
        reduced right-hand side g is left in the boundary rows."""
        return self._sweep(331, b)

    def backward(self, y: np.ndarray) -> np.ndarray:
        """The backward sweep from :meth:`forward`'s output whose boundary rows hold
        the boundary solution :math:`x_b`: the full solution."""
        return self._sweep(333, y)

    def free(self) -> None:
        """Release MKL's memory of these factors (phase -1); the object cannot solve any more."""
        if getattr(self, "_handle", None) is not None and self._handle.any():
            self._call(-1, np.zeros(1), np.zeros(1), 1)
        self._handle = None

    def __del__(self) -> None:
        try:
            self.free()
        except Exception:  # interpreter shutdown: MKL may be gone already
            pass


PARDISO_CHOLESKY = SolverBackend(
    name="pardiso-cholesky",
    description="Intel MKL PARDISO Cholesky (symmetric positive definite), Schur complement on the boundary",
    factorize_fn=lambda a, boundary=None: PardisoFactorization(a, 2, boundary),
    refactorize_fn=_refactorizer(2),
    available_fn=_available,
    install=_INSTALL,
    symmetric=True,
    schur=True,
    upper_triangle=True,
)

PARDISO_LDLT = SolverBackend(
    name="pardiso-ldlt",
    description="Intel MKL PARDISO symmetric indefinite LDL^T, Bunch-Kaufman pivoting",
    factorize_fn=lambda a, boundary=None: PardisoFactorization(a, -2, boundary),
    refactorize_fn=_refactorizer(-2),
    available_fn=_available,
    install=_INSTALL,
    symmetric=True,
    schur=True,
    upper_triangle=True,
)

PARDISO = SolverBackend(
    name="pardiso",
    description="Intel MKL PARDISO supernodal LU",
    factorize_fn=lambda a: PardisoFactorization(a, 11),
    # no refactorisation in place: phase 22 would keep the scaling and weighted matching that
    # phase 11 computed from the first matrix's values (solutions 1e-12 apart, run quantities 1e-7)
    available_fn=_available,
    install=_INSTALL,
)
