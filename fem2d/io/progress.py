"""A progress bar on stderr for runs longer than a second.

It stays silent when disabled (``--quiet``), when stderr is not a terminal,
and during the first second of a run, so short runs and logs stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``with ProgressBar(label, total) as bar: ... bar.update(done)``."""

    def __init__(
        self, label: str, total: float, enabled: bool = True, stream: TextIO | None = None, delay: float = 1.0
    ) -> None:
        self.label = label
        self.total = float(total) if total else 1.0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.delay = delay
        self._start = time.perf_counter()
        self._last = 0.0
        self._shown = False

    def __enter__(self) -> ProgressBar:
        self._start = time.perf_counter()
        return self

    def update(self, done: float) -> None:
        """Report progress (same unit as ``total``, e.g. simulated seconds)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        elapsed = now - self._start
        if elapsed < self.delay or now - self._last < 0.1:
            return
        self._last = now
        frac = min(max(done / self.total, 0.0), 1.0)
        width = 30
        filled = int(width * frac)
        eta = elapsed * (1 - frac) / frac if frac > 0 else float("nan")
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {100 * frac:5.1f}%  {elapsed:6.1f} s  eta {eta:5.1f} s")
        self.stream.flush()
        self._shown = True

    def __exit__(self, *exc) -> None:
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
