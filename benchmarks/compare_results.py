"""Compare the quantities of two trees of ``result.json`` files to the last printed digit.

``fem2d validate`` and ``fem2d run`` print every quantity with ten significant digits
(``io.tables.cell``); two versions of fem2d agree when every quantity of every run prints
the same. Runs are matched by their path relative to the tree's root (``<case>/<variant>``);
a run or a quantity present on one side only is a difference. With ``--checks`` the checks
are compared too: each reference value (printed like a quantity) and its OK/NOOK status.

How to run it (all 55 runs of ``fem2d validate``, about two minutes each on two cores)::

    # the reference tree, from the commit to compare against (REV: a branch, tag or commit)
    git worktree add /tmp/old REV
    python -m venv /tmp/old/.venv && /tmp/old/.venv/bin/pip install -q -e '/tmp/old[pardiso]'
    (cd /tmp/old && .venv/bin/fem2d validate --out /tmp/old_validate --no-plots --quiet)
    # the tree of this checkout
    fem2d validate --out /tmp/new_validate --no-plots --quiet
    python benchmarks/compare_results.py /tmp/old_validate /tmp/new_validate [--checks]

Exit status 0 when both trees hold the same runs with the same quantities printing the
same digits, 1 otherwise (each difference is listed, with its relative size).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

DIGITS = 10


def printed(value: object, digits: int = DIGITS) -> str:
    """The text a report shows for ``value``: ``digits`` significant digits for numbers.

    >>> printed(0.1 + 0.2)
    '0.3'
    >>> printed(1.23456789012345)
    '1.23456789'
    >>> printed(float("nan"))
    'nan'
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return f"{value:.{digits}g}"


def quantities(root: Path, checks: bool = False) -> dict[str, dict]:
    """The ``quantities`` of every ``result.json`` under ``root``, keyed by relative folder;
    with ``checks``, also each check's reference and status (``check <quantity>: reference``,
    ``check <quantity>: status``)."""
    out = {}
    for path in sorted(root.rglob("result.json")):
        doc = json.loads(path.read_text())
        values = dict(doc["quantities"])
        if checks:
            for check in doc.get("checks", []):
                name = f"check {check['quantity']}"
                values[f"{name}: reference"] = check["reference"]
                values[f"{name}: status"] = "OK" if check["passed"] else "NOOK"
        out[str(path.parent.relative_to(root))] = values
    return out


def differences(old: dict[str, dict], new: dict[str, dict], digits: int = DIGITS) -> list[str]:
    """One line per run or quantity present on one side only or printing differently.

    >>> differences({"a": {"x": 1.0}}, {"a": {"x": 1.0 + 1e-14}})
    []
    >>> differences({"a": {"x": 1.0}}, {"a": {"x": 1.001}})
    ['a: x 1 -> 1.001 (relative 1e-03)']
    """
    lines = []
    for run in sorted(set(old) | set(new)):
        if run not in new or run not in old:
            lines.append(f"{run}: only in {'old' if run in old else 'new'}")
            continue
        a, b = old[run], new[run]
        for name in sorted(set(a) | set(b)):
            if name not in a or name not in b:
                lines.append(f"{run}: {name} only in {'old' if name in a else 'new'}")
                continue
            sa, sb = printed(a[name], digits), printed(b[name], digits)
            if sa != sb:
                rel = ""
                if isinstance(a[name], (int, float)) and isinstance(b[name], (int, float)):
                    scale = max(abs(a[name]), abs(b[name]))
                    if scale > 0 and math.isfinite(scale):
                        rel = f" (relative {abs(a[name] - b[name]) / scale:.0e})"
                lines.append(f"{run}: {name} {sa} -> {sb}{rel}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="folder of the reference result.json files")
    parser.add_argument("new", type=Path, help="folder of the result.json files to check")
    parser.add_argument("--digits", type=int, default=DIGITS, help="significant digits compared")
    parser.add_argument("--checks", action="store_true", help="compare the checks' references and statuses too")
    args = parser.parse_args(argv)
    old, new = quantities(args.old, args.checks), quantities(args.new, args.checks)
    if not old:
        print(f"no result.json under {args.old}")
        return 1
    lines = differences(old, new, args.digits)
    n = sum(len(q) for q in old.values())
    for line in lines:
        print(line)
    print(f"{len(old)} runs, {n} {'quantities and checks' if args.checks else 'quantities'}: "
          + ("identical to the last printed digit" if not lines else f"{len(lines)} differences"))
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
