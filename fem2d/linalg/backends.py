"""Every registered backend, imported in registration order (the default first)."""

from fem2d.linalg import pardiso  # noqa: I001,F401
from fem2d.linalg import superlu  # noqa: F401
from fem2d.linalg import cholmod  # noqa: F401
