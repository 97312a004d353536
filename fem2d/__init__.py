"""fem2d: 2D finite-element contact dynamics, validated against code_aster's SDNV104, SDND104 and SDND101."""

__version__ = "0.1.0"
