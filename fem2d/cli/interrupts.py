"""What a Ctrl-C says: the one line :func:`fem2d.cli.main` prints names what was
kept, so it must follow what was already written when the signal came."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with what was kept; :func:`fem2d.cli.main` prints it once every worker
    has stopped (an executor's context closes first), so nothing is written after the
    message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@contextlib.contextmanager
def said_on_interrupt(message: str) -> Iterator[None]:
    """Turn a Ctrl-C inside the block into :class:`Interrupted` carrying ``message``
    (an :class:`Interrupted` raised deeper keeps its own, more precise message)."""
    try:
        yield
    except Interrupted:
        raise
    except KeyboardInterrupt:
        raise Interrupted(message) from None


def after_runs(label: str, n_runs: int, table: str, written: bool) -> str:
    """The message of a Ctrl-C that came once all ``n_runs`` runs had finished."""
    said = f"{table} was written" if written else f"{table} was not written"
    return f"fem2d: {label} interrupted after {n_runs} of {n_runs} runs; every run kept its result.json, {said}"
