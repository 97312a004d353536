"""What the contact solves of one zone keep from one call to the next.

A :class:`ContactWorkspace` belongs to the coupling of one contact zone with
the time step (:class:`fem2d.dynamics.coupling.ContactCoupling`), which hands
it to every step's :class:`~fem2d.contact.problem.CondensedProblem`. Each of
its entries is the last value of a derived array together with what it was
derived from, so that a step that repeats the previous one's pairing, statuses
or compliance does not rebuild them. Nothing is shared between runs: two
simulations in one process (two threads) each have their own workspace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(eq=False)
class ContactWorkspace:
    """Per-zone memory of the last derived arrays (see the module docstring).

    Every entry is a pair ``(key, value)``: the value is handed back while
    the key is the same object (``is``) or compares equal, whichever the
    entry's owner chooses. The values are read-only arrays or tuples of
    them, shared with the caller.

    >>> ws = ContactWorkspace()
    >>> ones = ws.unit_weights(3)
    >>> ones is ws.unit_weights(3), ones.flags.writeable
    (True, False)
    """

    entries: dict[str, tuple[Any, Any]] = field(default_factory=dict, repr=False)

    def last(self, name: str, key: Any, make: Callable[[], Any], same: Callable[[Any, Any], bool] | None = None) -> Any:
        """The value of ``name`` kept for ``key``, or ``make()`` kept in its place.

        ``same(old_key, key)`` says whether the kept value still holds (default: ``old_key is key``).
        """
        old = self.entries.get(name)
        if old is not None and (old[0] is key if same is None else same(old[0], key)):
            return old[1]
        value = make()
        self.entries[name] = (key, value)
        return value

    def unit_weights(self, n: int) -> np.ndarray:
        """``np.ones(n)``, read-only (the weights of the discrete methods)."""
        return self.last("ones", n, lambda: _read_only(np.ones(n)), _equal)

    def slave_ids(self, n: int) -> np.ndarray:
        """``np.arange(n)``, read-only (a slave node never pairs with its own edges)."""
        return self.last("slave_ids", n, lambda: _read_only(np.arange(n)), _equal)


def _equal(a: Any, b: Any) -> bool:
    return a == b


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array
