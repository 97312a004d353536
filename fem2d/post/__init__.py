"""Post-processing of time histories into reported quantities.

Modal path (code_aster's ``POST_DYNA_MODA_T``): :func:`impact_statistics`
(``OPTION='IMPACT'``) and :func:`wear_power` (``OPTION='USURE'``), on any window.
"""

from fem2d.post.impacts import Impact, ImpactStatistics, impact_statistics
from fem2d.post.wear import wear_power, wear_power_blocks, window_indices

__all__ = ["Impact", "ImpactStatistics", "impact_statistics", "wear_power", "wear_power_blocks", "window_indices"]
