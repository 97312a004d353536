"""Base excitation of a modal run: the support accelerates as a sine."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fem2d.errors import ModelError


@dataclass(frozen=True)
class BaseAcceleration:
    r"""The base accelerates as :math:`a_0 \sin(\omega t)` along ``direction``;
    in the moving frame every node feels :math:`-M\, \iota\, a(t)` with
    :math:`\iota` the unit direction on every node (code_aster's MULT_APPUI
    absent: one uniform base motion).

    >>> BaseAcceleration(a0=2.0, omega=10.0, direction=(0.0, 2.0)).unit
    array([0., 1.])
    """

    a0: float
    omega: float
    direction: tuple[float, float] = (1.0, 0.0)

    def __post_init__(self) -> None:
        direction = tuple(float(v) for v in self.direction)
        if len(direction) != 2 or not np.hypot(*direction) > 0:
            raise ModelError(self, "direction", f"expected a non-zero (x, y) direction, got {self.direction}")
        object.__setattr__(self, "direction", direction)
        if not self.omega >= 0:
            raise ModelError(self, "omega", f"expected a circular frequency >= 0 (rad/s), got {self.omega!r}")

    @property
    def unit(self) -> np.ndarray:
        """The unit direction of the base motion."""
        d = np.asarray(self.direction, dtype=float)
        return d / np.linalg.norm(d)
