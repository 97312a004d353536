"""Text tables: quantities of a run and code_aster TEST_RESU-style checks."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np


def cell(value: Any, fmt: str = ".10g") -> str:
    """A table cell: numbers by the format spec ``fmt`` (10 significant digits),
    None as ``-``.

    >>> cell(1 / 3), cell(None), cell(2), cell(float("inf")), cell(0.5, ".2e")
    ('0.3333333333', '-', '2', 'nan', '5.00e-01')
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return "nan" if not math.isfinite(value) else format(float(value), fmt)
    return str(value)


#: The diagnostics of a direct run (contact, impacts, energy), named with or without a zone's
#: prefix: :func:`format_quantities` sums them up in one line unless asked for every quantity.
DIAGNOSTICS = ("max_penetration", "friction_dissipation", "n_left_master", "work_loads", "energy_drift",
               "energy_growth", "n_impacts", "f_max_abs", "f_max_mean", "f_max_std", "n_reopenings",
               "normal_impulse", "tangential_impulse", "f_n_max", "peak_pressure", "contact_half_width",
               "contact_extent", "chatter_openings", "numerical_dissipation", "work_motions", "damping_dissipation")
#: The diagnostics the summary line shows, when the run has them.
SUMMARY = ("energy_growth", "f_n_max", "max_penetration", "n_impacts", "chatter_openings")
_IMPACT_ROW = re.compile(r"^(.*_)?impact_\d+_")


def is_diagnostic(name: str) -> bool:
    """Whether ``name`` is a direct run's diagnostic rather than a reported quantity.

    >>> is_diagnostic("x_at_1.70"), is_diagnostic("impact_3_f_max"), is_diagnostic("LESC/LMAI_f_n_max")
    (False, True, True)
    """
    return bool(_IMPACT_ROW.match(name)) or any(name == d or name.endswith("_" + d) for d in DIAGNOSTICS)


_IMPACT = re.compile(r"^(?P<zone>.*_)?impact_(?P<k>\d+)_(?P<what>.+)$")


def impact_table(quantities: dict[str, float]) -> tuple[list[str], list[list]]:
    """The per-contact rows of a direct run's impact statistics (``impact_K_*`` quantities, with a
    zone's prefix when there are several): ``impacts.csv``'s header and rows, one row per contact.

    >>> impact_table({"impact_1_f_max": 2.0, "impact_1_t_peak": 0.1, "impact_2_f_max": 3.0, "x": 1.0})
    (['zone', 'impact', 'f_max', 't_peak'], [['', 1, 2.0, 0.1], ['', 2, 3.0, None]])
    """
    rows: dict[tuple[str, int], dict[str, float]] = {}
    names: list[str] = []
    for name, value in quantities.items():
        match = _IMPACT.match(name)
        if match is None:
            continue
        what = match["what"]
        names += [] if what in names else [what]
        rows.setdefault(((match["zone"] or "").rstrip("_"), int(match["k"])), {})[what] = value
    return (["zone", "impact", *names],
            [[zone, k, *(row.get(what) for what in names)] for (zone, k), row in sorted(rows.items())])


def format_quantities(result, every: bool = False) -> str:
    """One line per quantity of a run; on a direct run, unless ``every``, the reported quantities
    one a line and the diagnostics (contact, impacts, energy) summed up in one line, every one of
    them in ``result.json``."""
    title = result.case.title
    if result.case.overrides:  # the title describes the case file; say what this run changed
        title += " [" + ", ".join(f"{k}={v}" for k, v in result.case.overrides.items()) + "]"
    lines = [f"{result.case.name}: {title}"]
    fold = not every and "energy_growth" in result.quantities  # a direct run: it has an energy balance
    folded = {}
    for name, value in result.quantities.items():
        if fold and is_diagnostic(name):
            folded[name] = value
        else:
            lines.append(f"  {name:<24s} {cell(value)}")
    if folded:
        shown = ", ".join(f"{name} {cell(folded[name], '.3g')}" for name in SUMMARY if name in folded)
        table = " and impacts.csv" if impact_table(folded)[1] else ""
        lines.append(f"  and {len(folded)} diagnostics in result.json{table} (fem2d run --all prints them)"
                     + (f": {shown}" if shown else ""))
    return "\n".join(lines)


def check_cells(check: dict) -> list[str]:
    """The TEST_RESU cells of one check: quantity, reference, source, computed
    value, error, tolerance (rel/abs), OK/NOOK."""
    err = check["relative_error"]
    return [
        check["quantity"],
        cell(check["reference"]),
        check["source"],
        cell(check["value"]),
        "-" if err is None else f"{err:.2e}",
        f"{check['tolerance']:g} {'rel' if check['relative'] else 'abs'}",
        "OK" if check["passed"] else "NOOK",
    ]


def check_rows(results: Sequence, labels: Sequence[str] | None = None) -> list[list[str]]:
    """Rows of the TEST_RESU table: case, then :func:`check_cells`."""
    rows = []
    for i, result in enumerate(results):
        label = labels[i] if labels else result.case.name
        rows += [[label, *check_cells(c)] for c in result.checks]
    return rows


HEADER = ["case", "quantity", "reference", "source", "computed", "error", "tolerance", "status"]


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], max_width: int = 60) -> str:
    """A plain fixed-width text table (long cells are cut to ``max_width``)."""
    cells = [[str(c)[:max_width] for c in row] for row in [header, *rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_wrapped_table(header: Sequence[str], rows: Sequence[Sequence[str]], width: int,
                         caps: Sequence[int] = (), minimum: int = 20) -> str:
    """A fixed-width text table ``width`` characters wide whose cells wrap, at spaces, onto
    continuation lines instead of being cut (nothing is lost): column ``i`` is as wide as its
    longest cell, or, when that leaves the last column fewer than 40 characters, ``caps[i]``
    if that is less; the last takes what is left (at least ``minimum``).
    A word longer than its column keeps its line.

    >>> print(format_wrapped_table(["key", "meaning"], [["a.b", "one two three four"]], 14))
    key  meaning
    ---  --------------------
    a.b  one two three four
    >>> print(format_wrapped_table(["key", "meaning"], [["a.b", "one two three four five six seven"]], 25))
    key  meaning
    ---  --------------------
    a.b  one two three four
         five six seven
    """
    import textwrap

    n = len(header)
    cells = [[str(c) for c in row] for row in [header, *rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(n)]
    if width - sum(widths[:-1]) - 2 * (n - 1) < min(widths[-1], 40):  # too narrow for the last column: cap the others
        for i, cap in enumerate(caps[: n - 1]):
            widths[i] = max(min(widths[i], cap), len(header[i]))
    widths[-1] = max(minimum, width - sum(widths[:-1]) - 2 * (n - 1))
    lines = []
    for row in cells:
        wrapped = [textwrap.wrap(c, w, break_long_words=False, break_on_hyphens=False) or [""]
                   for c, w in zip(row, widths)]
        for k in range(max(len(w) for w in wrapped)):
            parts = [w[k] if k < len(w) else "" for w in wrapped]
            lines.append("  ".join(c.ljust(w) for c, w in zip(parts, widths)).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_checks(results: Sequence, labels: Sequence[str] | None = None) -> str:
    """The TEST_RESU-style table of the checks of one or more runs."""
    return format_table(HEADER, check_rows(results, labels))
