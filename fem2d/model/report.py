"""What a run reports: the displacement of one node, at given times and at its extrema."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fem2d.errors import ModelError
from fem2d.mesh.mesh import Mesh
from fem2d.model.groups import blocks_of, nodes_of
from fem2d.model.supports import COMPONENTS


@dataclass(frozen=True)
class Report:
    """The reported displacement component and the quantities made from it
    (the ``result.json`` quantities ``x_at_T``, ``x_ext_k``, ``t_ext_k``, ``x_rest``, ``t_rest``, ``t_still``; see
    :func:`fem2d.runs.direct_quantities.direct_quantities`).

    Parameters
    ----------
    node : str or None
        A one-node group; None reports no displacement.
    component : {"dx", "dy"}
    at_times : sequence of float
        Instants (s) of ``x_at_T``.
    extrema : int
        How many successive extrema to report.
    modes : int
        Also report the first ``modes`` natural frequencies ``f_1..`` (Hz).
    snapshots : int
        Keep the full displacement every ``snapshots`` records (0: never).
    window : (float, float) or None
        Time window (s) of the impact statistics of the contact force (whole run if None).
    impact_threshold : float
        Normal force (N) above which the contact counts as an impact.
    impact_quiet : float
        A release shorter than this (s) is a re-opening inside one impact (code_aster's DUREE_REPOS).
    energy_tolerance : float
        The run warns when its energy grows by more than this, relative to max(E(0), max|W|).
    bodies : sequence of str
        2D groups whose momentum, mean velocity, kinetic energy and rigid rotation
        are reported (``B_momentum_x``, ..., ``B_rotation``, ``B_rotation_min``,
        ``B_rotation_max``; see :mod:`fem2d.dynamics.measures`).
    reactions : sequence of str
        Groups whose support reactions are reported (``G_reaction_x``, ``G_reaction_y``).
    groups : sequence of str
        Groups (of any dimension) whose mean displacement and velocity are
        reported in both directions: ``G_dx_at_T``, ``G_vx_at_T``, extrema
        ``G_dx_ext_k`` at ``G_dx_t_ext_k``, rest ``G_dx_rest`` from
        ``G_dx_t_rest``, and ``G_vx_min``, ``G_vx_max`` (likewise dy, vy; see
        :mod:`fem2d.dynamics.measures`).
    pressure_at : sequence of float
        Instants (s) at which the contact pressure along every slave surface is
        kept (``pressure.csv``; see :mod:`fem2d.post.pressure`).

    Examples
    --------
    >>> Report("A", "dx", at_times=[1.7, 3.4]).at_times
    (1.7, 3.4)
    """

    node: str | None = None
    component: str = "dx"
    at_times: Sequence[float] = ()
    extrema: int = 2
    modes: int = 0
    snapshots: int = 0
    window: tuple[float, float] | None = None
    impact_threshold: float = 0.0
    impact_quiet: float = 0.0
    energy_tolerance: float = 0.01
    bodies: Sequence[str] = ()
    reactions: Sequence[str] = ()
    groups: Sequence[str] = ()
    pressure_at: Sequence[float] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "at_times", tuple(float(t) for t in self.at_times))
        object.__setattr__(self, "bodies", tuple(self.bodies))
        object.__setattr__(self, "reactions", tuple(self.reactions))
        object.__setattr__(self, "groups", tuple(self.groups))
        if len(set(self.groups)) != len(self.groups):
            raise ModelError(self, "groups", f"a group is listed twice: {list(self.groups)}")
        try:
            object.__setattr__(self, "pressure_at", tuple(float(t) for t in self.pressure_at))
        except (TypeError, ValueError):
            raise ModelError(self, "pressure_at", f"expected instants (s), got {self.pressure_at!r}") from None
        if not all(np.isfinite(t) and t >= 0.0 for t in self.pressure_at):
            raise ModelError(self, "pressure_at", f"expected instants >= 0 (s), got {list(self.pressure_at)}")
        if self.component not in COMPONENTS:
            raise ModelError(self, "component", f"expected 'dx' or 'dy', got {self.component!r}")
        if self.window is not None:
            window = tuple(float(t) for t in self.window)
            if len(window) != 2 or not window[0] < window[1]:
                raise ModelError(self, "window", f"expected (t_start, t_end) with t_start < t_end, got {self.window}")
            object.__setattr__(self, "window", window)
        for name in ("impact_threshold", "impact_quiet", "energy_tolerance"):
            if not getattr(self, name) >= 0:
                raise ModelError(self, name, f"expected a value >= 0, got {getattr(self, name)!r}")
        for name in ("extrema", "modes", "snapshots"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
                raise ModelError(self, name, f"expected an integer >= 0, got {value!r}")

    def body_nodes(self, mesh: Mesh) -> dict[str, np.ndarray]:
        """The nodes of each reported body, by group name."""
        return {
            name: np.unique(np.concatenate([b.nodes.ravel() for b in blocks_of(mesh, self, f"bodies[{i}]", name, 2)]))
            for i, name in enumerate(self.bodies)
        }

    def group_nodes(self, mesh: Mesh) -> dict[str, np.ndarray]:
        """The nodes of each group whose mean motion is reported, by group name."""
        return {name: nodes_of(mesh, self, f"groups[{i}]", name) for i, name in enumerate(self.groups)}

    def reaction_dofs(self, mesh: Mesh, fixed: np.ndarray) -> dict[str, np.ndarray]:
        """The prescribed dofs of each group whose reactions are reported, by group name."""
        out = {}
        for i, name in enumerate(self.reactions):
            nodes = nodes_of(mesh, self, f"reactions[{i}]", name)
            dofs = np.concatenate([2 * nodes, 2 * nodes + 1])
            dofs = dofs[np.isin(dofs, fixed)]
            if not len(dofs):
                raise ModelError(self, f"reactions[{i}]", f"group {name!r} has no prescribed dof (no support)")
            out[name] = dofs
        return out

    def dof(self, mesh: Mesh) -> int | None:
        """The reported dof (interleaved numbering), None without a node."""
        if self.node is None:
            return None
        nodes = nodes_of(mesh, self, "node", self.node)
        if len(nodes) != 1:
            raise ModelError(self, "node", f"group {self.node!r} has {len(nodes)} nodes; expected one")
        return int(2 * nodes[0] + COMPONENTS[self.component])
