"""A bounded cache of per-step-size objects (factorisations, condensations)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

#: Step sizes kept: the nominal one, a cut step and a cut of a cut (``time.cut_factor``).
CAPACITY = 3


class StepSizeCache(Generic[T]):
    """Objects keyed by step size, the least recently used dropped beyond ``capacity``.

    A run that cuts its step many times at different instants keeps at most
    ``capacity`` factorisations alive (each can hold hundreds of MB), while the
    nominal step, used between cuts, stays cached.

    >>> cache = StepSizeCache(capacity=2)
    >>> [cache.get(dt, lambda: object()) is not None for dt in (0.01, 0.002, 0.01, 0.0004)]
    [True, True, True, True]
    >>> sorted(cache.keys()), cache.made, cache.distinct
    ([0.0004, 0.01], 3, 3)
    """

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._items: OrderedDict[float, T] = OrderedDict()
        self._seen: set[float] = set()
        #: how many objects were made (a dropped step size that comes back is made again)
        self.made = 0

    def get(self, dt: float, make: Callable[[], T], remake: Callable[[T], T] | None = None) -> T:
        """The object for ``dt``, made by ``make()`` on first use or after it was dropped.

        With ``remake``, a full cache drops its least recently used object *before* the new
        one is made and hands it to ``remake(dropped)``, which may build the new object in
        its place (a factorisation refactorised in the old one's memory).

        >>> cache = StepSizeCache(capacity=1)
        >>> cache.get(0.1, lambda: "f(0.1)"), cache.get(0.1, lambda: "f(0.1) again")
        ('f(0.1)', 'f(0.1)')
        >>> cache.get(0.2, lambda: "f(0.2)", lambda old: f"f(0.2) in the place of {old}"), cache.keys()
        ('f(0.2) in the place of f(0.1)', [0.2])
        """
        item = self._items.get(dt)
        if item is None:
            if remake is not None and len(self._items) >= self.capacity:
                _, dropped = self._items.popitem(last=False)
                item = remake(dropped)
                del dropped
            else:
                item = make()
            self.made += 1
            self._seen.add(dt)
            self._items[dt] = item
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(dt)
        return item

    @property
    def distinct(self) -> int:
        """How many distinct step sizes were seen."""
        return len(self._seen)

    def peek(self, dt: float) -> T | None:
        """The object kept for ``dt`` or None, without making it or marking it as used."""
        return self._items.get(dt)

    def drop(self, dt: float) -> None:
        """Forget the object for ``dt`` (if kept)."""
        self._items.pop(dt, None)

    def clear(self) -> None:
        """Forget every object kept (the counts stay)."""
        self._items.clear()

    def keys(self) -> list[float]:
        return list(self._items)

    def __len__(self) -> int:
        return len(self._items)
