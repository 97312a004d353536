r"""code_aster's localised shock law (``CHOC``) for reduced modal models, in 2D.

An obstacle acts on one node whose displacement is a combination of the
modes, :math:`u = \Phi_{node}\, q` (``node_modes``: the two rows of the mode
matrix for the node's x and y dofs). The obstacle is fixed in the frame of the
modal coordinates (for a base excitation in the relative frame: attached to the
base). Its local frame is the unit normal :math:`n` and the tangent
:math:`t = (-n_y, n_x)`; with :math:`p = p_0 + u` the node's position and
:math:`o` the obstacle origin,

* ``"plan_z"`` (code_aster's ``PLAN_Z``): two parallel planes at
  :math:`\pm` ``gap`` from :math:`o` along :math:`n`; :math:`z = (p - o)\cdot n`,
  gap function :math:`d = \mathrm{gap} - |z|`, outward normal
  :math:`n_{out} = -\operatorname{sign}(z)\, n`;
* ``"plane"``: one plane with normal :math:`n` pointing to the free side,
  :math:`d = \mathrm{gap} + (p - o)\cdot n`, :math:`n_{out} = n` (with
  :math:`o = p_0`, ``gap`` is the initial clearance).

Kinematics in the obstacle frame: :math:`v_n = v\cdot n_{out}` (> 0 when
separating), :math:`x_t = (p - o)\cdot t`, :math:`v_t = v\cdot t`.

The law (code_aster's ``FNORM``/``FTANG``), evaluated at each call:

* contact while :math:`d \le 0`: :math:`F_n = \max(0, -K_N d - C_N v_n)` (N);
* sliding if it slid at the previous call, :math:`v_t\, v_t^{prev} \ge 0` and
  :math:`|v_t| > 10^{-6}` m/s: :math:`F_t = -\mu_d F_n \operatorname{sign}(v_t)`,
  and the stick anchor is reset to :math:`(x_t, F_t)`;
* otherwise stuck: :math:`F_t = F_t^{a} - K_T (x_t - x_t^{a}) - C_T v_t`; if
  :math:`|F_t| > \mu_s F_n` it slides as above (anchor reset);
* out of contact the anchor is reset to :math:`(x_t, 0)` and the node is marked
  as not stuck; the recorded :math:`v_t` is 0 out of contact and without
  friction (as code_aster's archive, so a wear power needs friction).

The force on the node is :math:`F_n n_{out} + F_t t`; its generalised force is
:math:`\Phi_{node}^T (F_n n_{out} + F_t t)`. Every call updates the internal
state (anchor, previous :math:`v_t`, stuck flag), exactly as code_aster does,
also at the intermediate evaluations of a multi-stage scheme.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from fem2d.modal.jit import kernel

__all__ = [
    "PLANE",
    "PLAN_Z",
    "REC_CONTACT",
    "REC_D",
    "REC_FN",
    "REC_FT",
    "REC_STUCK",
    "REC_VN",
    "REC_VT",
    "REC_XT",
    "N_REC",
    "V_SLIP_MIN",
    "Obstacle",
    "ObstacleArrays",
    "default_tangential_damping",
    "pack_obstacles",
    "shock_forces",
]

#: obstacle kind codes used in the kernels
PLANE = 0
PLAN_Z = 1
_KINDS = {"plane": PLANE, "plan_z": PLAN_Z}

#: code_aster's sliding-velocity threshold (m/s) below which a node may stick
V_SLIP_MIN = 1.0e-6

#: columns of the per-obstacle record written at each evaluation
REC_FN, REC_FT, REC_D, REC_XT, REC_VN, REC_VT, REC_STUCK, REC_CONTACT = range(8)
N_REC = 8


def default_tangential_damping(
    kt: float, masses: np.ndarray, stiffnesses: np.ndarray, damping_ratios: np.ndarray
) -> float:
    r"""code_aster's tangential damping when ``CT`` is not given (N s/m).

    .. math:: C_T = 2\sqrt{m_g (k_g + K_T)} - 2\,\xi\,\sqrt{k_g m_g}

    with :math:`m_g, k_g, \xi` the generalised mass (kg), stiffness (N/m) and
    damping ratio of the mode of largest generalised mass (modes scaled so that
    their largest component is 1, see :func:`fem2d.modal.basis.modal_basis`).
    Zero when :math:`K_T = 0`.
    """
    if kt == 0.0:
        return 0.0
    masses = np.asarray(masses, dtype=float)
    i = int(np.argmax(masses))  # first of the largest, as code_aster's strict '>' scan
    mg, kg, xi = masses[i], float(np.asarray(stiffnesses)[i]), float(np.asarray(damping_ratios)[i])
    return 2.0 * math.sqrt(mg * (kg + kt)) - 2.0 * xi * math.sqrt(kg * mg)


@dataclass(frozen=True)
class Obstacle:
    """One obstacle of code_aster's shock law acting on one node (SI units).

    Parameters
    ----------
    node_modes : (2, n_modes) array
        Rows of the mode matrix for the node's x and y displacement (m per unit
        modal coordinate); a constrained dof has a zero row.
    kind : {"plan_z", "plane"}
        Plane pair at half clearance ``gap`` (code_aster's ``PLAN_Z``) or a single plane.
    normal : (2,) array
        Obstacle normal (normalised here).
    origin : (2,) array
        Obstacle origin (m).
    position : (2,) array
        Initial position of the node (m).
    gap : float
        ``JEU``: half clearance (plan_z) or initial clearance (plane), m.
    kn, cn : float
        Normal penalty stiffness (N/m) and damping (N s/m).
    kt : float
        Tangential stick stiffness (N/m).
    ct : float or None
        Tangential damping (N s/m); ``None`` applies code_aster's default rule
        (:func:`default_tangential_damping`) once the modal data are known.
    mu_static, mu_dynamic : float
        Coulomb coefficients for the stick limit and for sliding
        (``mu_dynamic=None``: same as ``mu_static``).
    name : str
        Label used in result names.
    """

    node_modes: np.ndarray
    kind: Literal["plan_z", "plane"] = "plan_z"
    normal: np.ndarray = field(default_factory=lambda: np.array([0.0, 1.0]))
    origin: np.ndarray = field(default_factory=lambda: np.zeros(2))
    position: np.ndarray = field(default_factory=lambda: np.zeros(2))
    gap: float = 0.0
    kn: float = 0.0
    cn: float = 0.0
    kt: float = 0.0
    ct: float | None = None
    mu_static: float = 0.0
    mu_dynamic: float | None = None
    name: str = "obstacle"

    def __post_init__(self) -> None:
        phi = np.atleast_2d(np.asarray(self.node_modes, dtype=float))
        if phi.shape[0] != 2:
            raise ValueError(f"obstacle {self.name!r}: node_modes must have 2 rows (x, y), got shape {phi.shape}")
        if self.kind not in _KINDS:
            raise ValueError(f"obstacle {self.name!r}: kind must be 'plan_z' or 'plane', got {self.kind!r}")
        n = np.asarray(self.normal, dtype=float).reshape(2)
        norm = float(np.hypot(n[0], n[1]))
        if norm == 0.0:
            raise ValueError(f"obstacle {self.name!r}: the normal is zero")
        for key in ("kn", "cn", "kt", "mu_static"):
            if getattr(self, key) < 0.0:
                raise ValueError(f"obstacle {self.name!r}: {key} must be >= 0")
        object.__setattr__(self, "node_modes", phi)
        object.__setattr__(self, "normal", n / norm)
        object.__setattr__(self, "origin", np.asarray(self.origin, dtype=float).reshape(2))
        object.__setattr__(self, "position", np.asarray(self.position, dtype=float).reshape(2))

    @property
    def mu_d(self) -> float:
        """Dynamic (sliding) Coulomb coefficient."""
        return self.mu_static if self.mu_dynamic is None else float(self.mu_dynamic)

    @property
    def tangent(self) -> np.ndarray:
        """Unit tangent :math:`t = (-n_y, n_x)`."""
        return np.array([-self.normal[1], self.normal[0]])

    def local(self, u: np.ndarray, v: np.ndarray) -> tuple[float, float, float, float]:
        """Gap :math:`d` (m), :math:`v_n`, :math:`x_t` (m), :math:`v_t` (m/s) for a node displacement/velocity."""
        p = self.position + np.asarray(u, dtype=float) - self.origin
        z = float(p @ self.normal)
        if self.kind == "plan_z":
            s = 1.0 if z >= 0.0 else -1.0
            d, n_out = self.gap - s * z, -s * self.normal
        else:
            d, n_out = self.gap + z, self.normal
        t = self.tangent
        return d, float(np.asarray(v) @ n_out), float(p @ t), float(np.asarray(v) @ t)


@dataclass(frozen=True)
class ObstacleArrays:
    """Obstacles packed for the compiled kernels (see :func:`pack_obstacles`)."""

    kind: np.ndarray  # (n_obs,) int64
    phi: np.ndarray  # (n_obs, 2, n_modes)
    geo: np.ndarray  # (n_obs, 7): p0x, p0y, ox, oy, nx, ny, gap
    par: np.ndarray  # (n_obs, 6): kn, cn, kt, ct, mu_s, mu_d

    def initial_state(self, q0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Stick flags (0) and float state ``[v_t prev, F_t anchor, x_t anchor]`` at ``q0``.

        The anchor starts at the initial tangential coordinate (code_aster starts
        it at 0, which only differs when the node is not at the obstacle origin's
        tangential abscissa).
        """
        n = self.kind.shape[0]
        state = np.zeros((n, 3))
        for i in range(n):
            u = self.phi[i] @ q0
            px = self.geo[i, 0] + u[0] - self.geo[i, 2]
            py = self.geo[i, 1] + u[1] - self.geo[i, 3]
            state[i, 2] = -px * self.geo[i, 5] + py * self.geo[i, 4]
        return np.zeros(n, dtype=np.int64), state


def pack_obstacles(
    obstacles: tuple[Obstacle, ...] | list[Obstacle],
    n_modes: int,
    masses: np.ndarray | None = None,
    stiffnesses: np.ndarray | None = None,
    damping_ratios: np.ndarray | None = None,
) -> ObstacleArrays:
    """Pack obstacles into arrays; resolve ``ct=None`` with code_aster's default rule.

    The modal data (generalised masses, stiffnesses, damping ratios) are needed
    only when some obstacle has ``kt > 0`` and ``ct=None``.
    """
    n = len(obstacles)
    kind = np.zeros(n, dtype=np.int64)
    phi = np.zeros((n, 2, n_modes))
    geo = np.zeros((n, 7))
    par = np.zeros((n, 6))
    for i, ob in enumerate(obstacles):
        if ob.node_modes.shape[1] != n_modes:
            raise ValueError(
                f"obstacle {ob.name!r}: node_modes has {ob.node_modes.shape[1]} columns, expected {n_modes}"
            )
        ct = ob.ct
        if ct is None:
            if ob.kt > 0.0 and masses is None:
                raise ValueError(f"obstacle {ob.name!r}: ct=None needs the modal masses and stiffnesses")
            ct = 0.0 if ob.kt == 0.0 else default_tangential_damping(
                ob.kt, masses, stiffnesses, np.zeros(n_modes) if damping_ratios is None else damping_ratios
            )
        kind[i] = _KINDS[ob.kind]
        phi[i] = ob.node_modes
        geo[i] = [*ob.position, *ob.origin, *ob.normal, ob.gap]
        par[i] = [ob.kn, ob.cn, ob.kt, ct, ob.mu_static, ob.mu_d]
    return ObstacleArrays(kind, phi, geo, par)


@kernel(inline=True)
def shock_forces(q, v, kind, phi, geo, par, iadh, state, fgen, rec):
    r"""Add the obstacles' generalised forces to ``fgen`` and update their state.

    Parameters
    ----------
    q, v : (n_modes,) arrays
        Modal coordinates and velocities at the evaluation point.
    kind, phi, geo, par : arrays
        Packed obstacles (:class:`ObstacleArrays`).
    iadh : (n_obs,) int64 array, in/out
        code_aster's stick flag (1 stuck, 0 sliding or out of contact).
    state : (n_obs, 3) array, in/out
        :math:`v_t` at the previous call, anchor force :math:`F_t^a` (N), anchor
        abscissa :math:`x_t^a` (m).
    fgen : (n_modes,) array, in/out
        Generalised force accumulator (N per unit modal coordinate).
    rec : (n_obs, N_REC) array, out
        :math:`F_n, F_t, d, x_t, v_n, v_t`, stuck flag, contact flag.
    """
    n_obs = kind.shape[0]
    n_modes = q.shape[0]
    for i in range(n_obs):
        ux = 0.0
        uy = 0.0
        vx = 0.0
        vy = 0.0
        for j in range(n_modes):
            ux += phi[i, 0, j] * q[j]
            uy += phi[i, 1, j] * q[j]
            vx += phi[i, 0, j] * v[j]
            vy += phi[i, 1, j] * v[j]
        px = geo[i, 0] + ux - geo[i, 2]
        py = geo[i, 1] + uy - geo[i, 3]
        nx = geo[i, 4]
        ny = geo[i, 5]
        gap = geo[i, 6]
        z = px * nx + py * ny
        if kind[i] == PLAN_Z:
            s = 1.0 if z >= 0.0 else -1.0
            d = gap - s * z
            nox = -s * nx
            noy = -s * ny
        else:
            d = gap + z
            nox = nx
            noy = ny
        vn = vx * nox + vy * noy
        xt = -px * ny + py * nx
        vt = -vx * ny + vy * nx
        fn = 0.0
        ft = 0.0
        vt_rec = 0.0
        contact = 0
        if d <= 0.0:
            contact = 1
            kn = par[i, 0]
            cn = par[i, 1]
            fn = -kn * d - cn * vn
            if fn < 0.0:
                fn = 0.0
            mu_s = par[i, 4]
            mu_d = par[i, 5]
            if mu_s != 0.0 or mu_d != 0.0:
                vt_rec = vt  # code_aster reports v_t only where friction is computed
                kt = par[i, 2]
                ct = par[i, 3]
                avt = abs(vt)
                if vt * state[i, 0] >= 0.0 and iadh[i] == 0 and avt > V_SLIP_MIN:
                    ft = -mu_d * fn * vt / avt
                    state[i, 1] = ft
                    state[i, 2] = xt
                else:
                    iadh[i] = 1
                    ft = state[i, 1] - kt * (xt - state[i, 2]) - ct * vt
                    if abs(ft) > mu_s * fn:
                        iadh[i] = 0
                        ft = 0.0 if avt == 0.0 else -mu_d * fn * vt / avt
                        state[i, 1] = ft
                        state[i, 2] = xt
                state[i, 0] = vt
        else:
            state[i, 1] = 0.0
            state[i, 2] = xt
            iadh[i] = 0
        fx = fn * nox - ft * ny
        fy = fn * noy + ft * nx
        for j in range(n_modes):
            fgen[j] += phi[i, 0, j] * fx + phi[i, 1, j] * fy
        rec[i, REC_FN] = fn
        rec[i, REC_FT] = ft
        rec[i, REC_D] = d
        rec[i, REC_XT] = xt
        rec[i, REC_VN] = vn
        rec[i, REC_VT] = vt_rec
        rec[i, REC_STUCK] = iadh[i]
        rec[i, REC_CONTACT] = contact
