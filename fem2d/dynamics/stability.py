r"""The largest natural frequency of a system, for the step limit of a
conditionally stable (explicit) scheme.

The undamped central difference is stable for :math:`\omega_{max} \Delta t
\le 2`, with :math:`\omega_{max}^2` the largest eigenvalue of
:math:`K \phi = \omega^2 M \phi` on the free dofs (the mass the scheme
integrates with). A damping matrix entering the step centred (as in
:class:`~fem2d.dynamics.impact.PaoliSchatzman`) does not lower that limit.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def largest_frequency(K: sp.spmatrix, M: sp.spmatrix) -> float:
    r""":math:`\omega_{max}` (rad/s): the square root of the largest eigenvalue
    of :math:`K \phi = \omega^2 M \phi`.

    A diagonal (lumped) mass gives the symmetric standard problem
    :math:`M^{-1/2} K M^{-1/2}`; a consistent mass the generalized one. The
    largest eigenvalue is found by Lanczos iterations
    (``scipy.sparse.linalg.eigsh``, ``which="LA"``), dense below 200 dofs.
    Lanczos approaches it from below; the relative tolerance 1e-8 leaves the
    limit :math:`2/\omega_{max}` exact to that tolerance.

    >>> import scipy.sparse as sp
    >>> K = sp.diags([[-1.0] * 3, [2.0] * 4, [-1.0] * 3], [-1, 0, 1])  # a chain of 4 unit masses
    >>> round(largest_frequency(K, sp.identity(4)), 6)  # 2 sin(2 pi / 5)
    1.902113
    """
    import scipy.linalg as la
    import scipy.sparse.linalg as spla

    K = sp.csr_matrix(K)
    M = sp.csr_matrix(M)
    n = K.shape[0]
    if n == 0:
        return 0.0
    diagonal = M.diagonal()
    lumped = (M - sp.diags(diagonal)).count_nonzero() == 0
    if lumped:
        if np.any(diagonal <= 0.0):
            raise ValueError("the mass matrix has a free dof without mass: no finite step limit")
        scale = sp.diags(1.0 / np.sqrt(diagonal))
        A = (scale @ K @ scale).tocsr()
        if n < 200:
            top = la.eigvalsh(A.toarray())[-1]
        else:
            top = spla.eigsh(A, k=1, which="LA", tol=1e-8, return_eigenvectors=False)[0]
    elif n < 200:
        top = la.eigh(K.toarray(), M.toarray(), eigvals_only=True)[-1]
    else:
        top = spla.eigsh(K.tocsc(), k=1, M=M.tocsc(), which="LA", tol=1e-8, return_eigenvectors=False)[0]
    return float(np.sqrt(max(top, 0.0)))


def frequency_lower_bound(K: sp.spmatrix, M: sp.spmatrix, iterations: int = 12) -> float:
    r"""A lower bound of :math:`\omega_{max}` (rad/s) from a few power
    iterations, without solving with M: the Rayleigh quotient
    :math:`x^T K x / x^T M x` of any x is at most :math:`\omega_{max}^2`.

    The iterates are :math:`x \leftarrow D^{-1} K x` with D the diagonal of M
    (exact for a lumped mass), from a fixed pseudo-random start; a step
    :math:`\Delta t > 2/\text{bound}` is then certainly above the limit, with
    no eigensolver (the usual case of an implicit step).

    >>> import scipy.sparse as sp
    >>> K = sp.diags([[-1.0] * 3, [2.0] * 4, [-1.0] * 3], [-1, 0, 1])
    >>> bound = frequency_lower_bound(K, sp.identity(4))
    >>> 1.8 < bound <= largest_frequency(K, sp.identity(4))
    True
    """
    K = sp.csr_matrix(K)
    M = sp.csr_matrix(M)
    if K.shape[0] == 0:
        return 0.0
    diagonal = M.diagonal()
    inverse = np.where(diagonal > 0.0, 1.0 / np.where(diagonal > 0.0, diagonal, 1.0), 0.0)
    x = np.random.default_rng(0).standard_normal(K.shape[0])
    best = 0.0
    for _ in range(iterations):
        mass = float(x @ (M @ x))
        if mass > 0.0:
            best = max(best, float(x @ (K @ x)) / mass)
        x = inverse * (K @ x)
        norm = np.linalg.norm(x)
        if not norm > 0.0:
            break
        x /= norm
    return float(np.sqrt(best))
