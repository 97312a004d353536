r"""The corotational cells compiled: :func:`~fem2d.fe.corotational.corotational_cells` as one
loop over the cells, run by numba.

:func:`corotational_cells` in :mod:`fem2d.fe.corotational` states the formulation and its
equations and is vectorised over the cells with NumPy: about sixty passes over arrays
of the cells per evaluation. A body stepping on Newton's iterations evaluates its cells
twice or more per step, and those passes cost two to four times the whole step of a
small-strain body (SDNV104's block, ``benchmarks/bench_kinematics.py``). Here the same
equations are one pass: each cell's nodes are read once, its rotation, force and (when
asked) tangent made in registers and written once. :func:`corotational_remainder` also
returns the cell's *remainder* :math:`f_{int} - K_e u_e` (:mod:`fem2d.model.internal`), the
quantity the steps need, without a second pass, and the cell's small-strain energy (the energy
history's). The cells of a structured mesh are translates of each other: their stiffness
matrices are equal to round-off, and :func:`shared_stiffness` keeps one for them all, so the
pass reads a few matrices instead of one per cell (memory, not arithmetic, bounds it).

The kernel is plain Python over arrays, compiled by numba (``cache=True``, in the
directory private to the user of :mod:`fem2d.modal.jit_cache`) the first time a process
needs it; the interpreter runs the same source (slowly) where numba is not wanted, and
the tests check both against the NumPy formulation to round-off.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from fem2d.modal.jit import compiled, kernel

__all__ = ["CellPass", "corotational_remainder", "shared_stiffness"]


@kernel()
def _cells(u, dofs, g0, Xc, K, index, want_tangent, energy, linear, remainder, tangent):  # pragma: no cover
    """One pass over the cells (see :func:`corotational_remainder`), cell ``c`` with the stiffness
    ``K[index[c]]``; returns the number of cells turned inside out (their outputs are not written)."""
    nc, nn = g0.shape[0], g0.shape[1]
    m = 2 * nn
    ue = np.empty(m)
    x = np.empty(m)
    ul = np.empty(m)
    f = np.empty(m)
    Ku = np.empty(m)
    A = np.empty(m)
    B = np.empty(m)
    g = np.empty(m)
    v = np.empty(m)
    Rf = np.empty(m)
    Kv = np.empty(m)
    sym = np.empty(m)
    h = np.empty(m)
    bad = 0
    for c in range(nc):
        mx = 0.0
        my = 0.0
        for j in range(nn):
            ue[2 * j] = u[dofs[c, 2 * j]]
            ue[2 * j + 1] = u[dofs[c, 2 * j + 1]]
            mx += ue[2 * j]
            my += ue[2 * j + 1]
        mx /= nn
        my /= nn
        a = 0.0
        b = 2.0
        f00 = 1.0
        f01 = 0.0
        f10 = 0.0
        f11 = 1.0
        for j in range(nn):
            ux = ue[2 * j] - mx
            uy = ue[2 * j + 1] - my
            ue[2 * j] = ux
            ue[2 * j + 1] = uy
            gx = g0[c, j, 0]
            gy = g0[c, j, 1]
            A[2 * j] = -gy
            A[2 * j + 1] = gx
            B[2 * j] = gx
            B[2 * j + 1] = gy
            a += -gy * ux + gx * uy
            b += gx * ux + gy * uy
            f00 += ux * gx
            f01 += ux * gy
            f10 += uy * gx
            f11 += uy * gy
        if not f00 * f11 - f01 * f10 > 0.0:
            bad += 1
            continue
        kc = index[c]
        r2 = a * a + b * b
        # cos, sin of theta = atan2(a, b) without a transcendental call, and cos - 1 without
        # cancellation: -a^2 / (r (r + b)) where b > 0, (b - r) / r where it is not
        r = math.sqrt(r2)
        co = b / r
        si = a / r
        cm1 = -a * a / (r * (r + b)) if b > 0.0 else (b - r) / r
        for j in range(nn):
            ux = ue[2 * j]
            uy = ue[2 * j + 1]
            X0 = Xc[c, j, 0]
            X1 = Xc[c, j, 1]
            # u_loc = R^T u + (R^T - I) X
            ul[2 * j] = co * ux + si * uy + cm1 * X0 + si * X1
            ul[2 * j + 1] = -si * ux + co * uy - si * X0 + cm1 * X1
            x0 = X0 + ux
            x1 = X1 + uy
            x[2 * j] = x0
            x[2 * j + 1] = x1
            # v = R'^T x, R' = [[-s, -c], [c, -s]]
            v[2 * j] = -si * x0 + co * x1
            v[2 * j + 1] = -co * x0 - si * x1
        e = 0.0
        el = 0.0
        for i in range(m):  # f = K u_loc and K u_e, K read once
            s = 0.0
            t = 0.0
            for k in range(m):
                kik = K[kc, i, k]
                s += kik * ul[k]
                t += kik * ue[k]
            f[i] = s
            Ku[i] = t
            e += ul[i] * s
            el += ue[i] * t
        energy[c] = 0.5 * e
        linear[c] = 0.5 * el
        vf = 0.0
        for i in range(m):
            g[i] = (b * A[i] - a * B[i]) / r2
            vf += v[i] * f[i]
        for j in range(nn):
            f0 = f[2 * j]
            f1 = f[2 * j + 1]
            Rf[2 * j] = co * f0 - si * f1
            Rf[2 * j + 1] = si * f0 + co * f1
        for i in range(m):
            remainder[c, i] = Rf[i] + vf * g[i] - Ku[i]
        if not want_tangent:
            continue
        vKv = 0.0
        wf = 0.0
        for i in range(m):
            s = 0.0
            for k in range(m):
                s += K[kc, i, k] * v[k]
            Kv[i] = s
            vKv += v[i] * s
            wf -= x[i] * Rf[i]
            h[i] = 2.0 * (a * A[i] + b * B[i])
        for j in range(nn):
            k0 = Kv[2 * j]
            k1 = Kv[2 * j + 1]
            f0 = f[2 * j]
            f1 = f[2 * j + 1]
            # q = R Kv, p = R' f
            sym[2 * j] = co * k0 - si * k1 + (-si * f0 - co * f1)
            sym[2 * j + 1] = si * k0 + co * k1 + (co * f0 - si * f1)
        gg = vKv + wf
        for i in range(m):
            ni = i // 2
            ai = i % 2
            for k in range(m):
                nk = k // 2
                dk = k % 2
                # (R K R^T) of the 2 x 2 block of nodes ni, nk: sum_be R_ab K_(ni b)(nk e) R_de
                k00 = K[kc, 2 * ni, 2 * nk]
                k01 = K[kc, 2 * ni, 2 * nk + 1]
                k10 = K[kc, 2 * ni + 1, 2 * nk]
                k11 = K[kc, 2 * ni + 1, 2 * nk + 1]
                if ai == 0:
                    r0, r1 = co, -si
                else:
                    r0, r1 = si, co
                if dk == 0:
                    t0, t1 = co, -si
                else:
                    t0, t1 = si, co
                rkr = r0 * (k00 * t0 + k01 * t1) + r1 * (k10 * t0 + k11 * t1)
                hs = 0.5 * ((A[i] * B[k] - B[i] * A[k] - g[i] * h[k]) + (A[k] * B[i] - B[k] * A[i] - g[k] * h[i])) / r2
                tangent[c, i, k] = rkr + sym[i] * g[k] + g[i] * sym[k] + gg * g[i] * g[k] + vf * hs
    return bad


class CellPass(NamedTuple):
    """What :func:`corotational_remainder` makes of each cell."""

    #: the strain energy :math:`W_e` (J), shape (nc,)
    energy: np.ndarray
    #: the small-strain energy :math:`\tfrac12 u_e^T K_e u_e` of the same displacement (J), shape (nc,)
    linear: np.ndarray
    #: :math:`f^{int}_e - K_e u_e` (N), shape (nc, 2 nn)
    remainder: np.ndarray
    #: :math:`\partial f^{int}_e / \partial u_e` (N/m), shape (nc, 2 nn, 2 nn), or None
    tangent: np.ndarray | None
    #: cells with :math:`\det F \le 0` at the centre (their outputs are not made)
    inverted: int


def shared_stiffness(stiffness: np.ndarray, rtol: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """The distinct matrices of ``stiffness`` (nc, m, m) and each cell's index into them: cells
    whose matrices agree to ``rtol`` of the largest entry (the translated cells of a structured
    mesh, equal to round-off) share one, so a pass reads a few matrices instead of one per cell.

    >>> K = np.stack([np.eye(2), np.eye(2) * (1.0 + 1e-15), 2.0 * np.eye(2)])
    >>> distinct, index = shared_stiffness(K)
    >>> len(distinct), index.tolist()
    (2, [0, 0, 1])
    """
    K = np.asarray(stiffness, dtype=float)
    scale = float(np.max(np.abs(K), initial=0.0)) or 1.0
    keys = np.round(K.reshape(len(K), -1) / (scale * rtol))
    _, first, index = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    return np.ascontiguousarray(K[first]), np.asarray(index, dtype=np.int64).ravel()


def corotational_remainder(
    u: np.ndarray,
    dofs: np.ndarray,
    frame: tuple[np.ndarray, np.ndarray, np.ndarray],
    stiffness: np.ndarray,
    tangent: bool = False,
    index: np.ndarray | None = None,
    interpreted: bool = False,
) -> CellPass:
    r"""Energy, remainder and tangent of corotational cells in one compiled pass.

    With the notation of :func:`~fem2d.fe.corotational.corotational_cells` (its equations,
    the same numbers to round-off), each cell's displacement :math:`u_e` taken about its
    mean node gives

    .. math::

        W_e = \tfrac12 u^{loc\,T} K_e u^{loc}, \qquad
        r_e = f^{int}_e - K_e u_e, \qquad
        K^T_e = \partial f^{int}_e / \partial u_e ,

    the cell's energy, the *remainder* of its internal force over the small-strain one
    (:mod:`fem2d.model.internal`) and its tangent, with the small-strain energy
    :math:`\tfrac12 u_e^T K_e u_e`.

    Parameters
    ----------
    u : ndarray, shape (n_dofs,)
        Displacement of all dofs (m).
    dofs : ndarray, shape (nc, 2 nn)
        The cells' dofs (interleaved x, y per node).
    frame : tuple
        :func:`~fem2d.fe.corotational.corotational_frame` of the cells.
    stiffness : ndarray, shape (nc, 2 nn, 2 nn) or (n_distinct, 2 nn, 2 nn)
        The cells' small-strain stiffness matrices (N/m), one per cell, or the distinct ones
        with ``index`` (:func:`shared_stiffness`).
    tangent : bool
        Also make the tangents.
    index : ndarray of int, shape (nc,), optional
        Each cell's matrix in ``stiffness`` (default: cell c has ``stiffness[c]``).
    interpreted : bool
        Run the kernel's source in the interpreter instead of compiled (slow: for tests).

    Returns
    -------
    CellPass

    Examples
    --------
    A unit square turned by 1 rad: no energy, and a remainder that cancels the
    small-strain force of the rotation's displacement, :math:`-K_e u_e`:

    >>> from fem2d.fe.corotational import corotational_frame
    >>> from fem2d.fe.elasticity import elasticity_matrix, stiffness_matrices
    >>> from fem2d.mesh.mesh import CellBlock
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> block = CellBlock("quad4", [[0, 1, 2, 3]])
    >>> K = stiffness_matrices(X, block, elasticity_matrix(1.0, 0.3))
    >>> c, s = np.cos(1.0), np.sin(1.0)
    >>> u = (X @ np.array([[c, s], [-s, c]]) - X).ravel()
    >>> frame = corotational_frame(X, block)
    >>> out = corotational_remainder(u, frame[2], frame, K, interpreted=True)
    >>> ue = (u.reshape(4, 2) - u.reshape(4, 2).mean(axis=0)).ravel()
    >>> bool(abs(out.energy[0]) < 1e-15 and np.allclose(out.remainder[0], -K[0] @ ue, atol=1e-14)), out.inverted
    (True, 0)
    >>> bool(np.isclose(out.linear[0], 0.5 * ue @ K[0] @ ue))
    True
    """
    g0, Xc, _ = frame
    nc, m = dofs.shape
    if index is None:
        index = np.arange(nc, dtype=np.int64)
    energy, linear = np.zeros(nc), np.zeros(nc)
    remainder = np.zeros((nc, m))
    out_tangent = np.zeros((nc, m, m)) if tangent else np.zeros((0, m, m))
    run = _cells if interpreted else compiled(_cells).dispatcher()  # numba's (no native entry point)
    bad = run(np.ascontiguousarray(u, dtype=float), np.ascontiguousarray(dofs, dtype=np.int64),
              np.ascontiguousarray(g0, dtype=float), np.ascontiguousarray(Xc, dtype=float),
              np.ascontiguousarray(stiffness, dtype=float), np.ascontiguousarray(index, dtype=np.int64),
              bool(tangent), energy, linear, remainder, out_tangent)
    return CellPass(energy, linear, remainder, out_tangent if tangent else None, int(bad))
