"""The case format, documented from the schema: every key with its type,
default, unit and meaning (``fem2d keys``, ``docs/case-format.md``), and
"did you mean" suggestions for unknown keys.

Keys are written as in a case file: ``time.dt``; ``materials[].E`` for a key of
each ``[[materials]]`` table; ``functions.NAME.type`` for a key of a table
whose name is the user's; ``mesh.params.*`` for free-form keys.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from fem2d.case.fields import Field, Optional, Table, TableList, TableOrList, lookup
from fem2d.case.schema import SCHEMA

#: Units a field's documentation may start with (``"N/m along node1 -> node2"``)
#: or end with after a comma (``"Young's modulus, Pa"``).
UNITS = ("m", "s", "N", "Pa", "kg", "kg/m^3", "N/m", "N s/m", "N/m^3", "rad/s", "rad", "m/s", "m/s^2", "W",
         "Hz", "N s", "1/Pa")
_UNIT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))


@dataclass(frozen=True)
class KeyDoc:
    """One documented key."""

    key: str
    type: str
    default: str
    unit: str
    meaning: str


def split_unit(doc: str) -> tuple[str, str]:
    """``"Young's modulus, Pa"`` -> ``("Pa", "Young's modulus")``; ``"m"`` -> ``("m", "")``.

    >>> split_unit("N/m along node1 -> node2")
    ('N/m', 'along node1 -> node2')
    >>> split_unit("[t_start, t_end], s")
    ('s', '[t_start, t_end]')
    """
    doc = doc.strip()
    m = re.fullmatch(rf"({_UNIT})(?:[,;]?\s+(.*))?", doc, flags=re.S)
    if m:
        return m[1], (m[2] or "").strip()
    m = re.fullmatch(rf"(.*),\s*({_UNIT})", doc, flags=re.S)
    if m:
        return m[2], m[1].strip()
    return "", doc


def _unused_by_kind() -> str:
    """What each kind of case does not read (:mod:`fem2d.case.usage`), as one sentence."""
    from fem2d.case.usage import INTEGRATOR_IGNORES, UNUSED_KEYS, UNUSED_TABLES

    parts = []
    for kind, tables in UNUSED_TABLES.items():
        names = [f"`[{t}]`" for t in tables]
        names += [f"`{t}.{k}`" for t, (keys, _) in UNUSED_KEYS.get(kind, {}).items() if t not in tables for k in keys]
        parts.append(f"{kind}: {', '.join(names)}")
    for integrator, (keys, _) in INTEGRATOR_IGNORES.items():
        parts.append(f"`modal.integrator = \"{integrator}\"`: {', '.join(f'`obstacle.{k}`' for k in keys)}")
    return "; ".join(parts)


def _type(spec: Field) -> str:
    if isinstance(spec, Optional):
        return _type(spec.inner)
    return spec.describe().replace("a number", "number").replace("an integer", "integer")


def _default(spec: Field) -> str:
    if isinstance(spec, Optional):
        return "(none)"
    if spec.required:
        return "(required)"
    value = spec.default
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _walk(spec: Field, path: str, out: list[KeyDoc]) -> None:
    if isinstance(spec, TableList | TableOrList):
        _walk(spec.table, f"{path}[]", out)
        return
    if isinstance(spec, Table):
        for name, sub in spec.fields.items():
            _walk(sub, f"{path}.{name}" if path else name, out)
        if spec.open_keys is not None:
            if isinstance(spec.open_keys, Table):
                _walk(spec.open_keys, f"{path}.NAME", out)
            else:
                unit, meaning = split_unit(spec.doc)
                out.append(KeyDoc(f"{path}.*", _type(spec.open_keys), "", unit, meaning or "free-form keys"))
        return
    unit, meaning = split_unit(spec.doc)
    out.append(KeyDoc(path, _type(spec), _default(spec), unit, meaning))


def key_docs(section: str | None = None) -> list[KeyDoc]:
    """Every key of the case format (of one ``section``), in schema order."""
    out: list[KeyDoc] = []
    _walk(SCHEMA, "", out)
    if section is not None:
        out = [k for k in out if re.split(r"[.\[]", k.key, maxsplit=1)[0] == section]
    return out


def sections() -> list[str]:
    """The top-level sections of a case file."""
    return list(SCHEMA.fields)


def format_keys(section: str | None = None, width: int | None = None) -> str:
    """The text ``fem2d keys [SECTION]`` prints: one row per key, ``width`` characters wide (by
    default the terminal's, ``shutil.get_terminal_size``, which honours ``COLUMNS``), the
    type, default and meaning wrapped onto continuation lines, whole."""
    import shutil

    from fem2d.io.tables import format_wrapped_table

    width = shutil.get_terminal_size((100, 24)).columns if width is None else width
    rows = [[k.key, k.type, k.default, k.unit, k.meaning] for k in key_docs(section)]
    # (a 24-character key and a 17-character default, "node_to_segment", in 80 columns)
    return format_wrapped_table(["key", "type", "default", "unit", "meaning"], rows, width, caps=(40, 12, 17, 8),
                                minimum=15)


def _cell(text: str) -> str:
    """A table cell's text in Markdown: a bar is not a column, ``[a](t)`` not a link."""
    return text.replace("|", "\\|").replace("](", "]\\(")


def markdown_page() -> str:
    """``docs/case-format.md``: an introduction and one table per section."""
    lines = [
        "# The case format",
        "",
        "<!-- generated by `python -m fem2d.case.keys > docs/case-format.md`; "
        "tests/test_case_format.py keeps it in sync with fem2d/case/schema.py -->",
        "",
        "A case is a TOML file (`fem2d run my_case.toml`); `fem2d keys [SECTION]` prints these",
        "tables. `materials[].E` is a key of each `[[materials]]` table; `functions.NAME.type` a key",
        "of a table whose name you choose (`[functions.ramp]`); `mesh.params.*` free-form keys.",
        "Any key can be overridden on the command line: `--set time.dt=0.005`, `--set loads.1.value=1e5`.",
        "",
        "- `[case] extends = \"sdnv104a\"` starts from another case (a built-in name or a path relative",
        "  to this file): its tables are merged key by key, arrays of tables are replaced; a",
        "  `mesh.file` is found from the folder of the file that names it.",
        "- `[[references]]` rows are checked after the run. A row with a `value` is a stored number,",
        "  checked only when the run's physical settings are the case file's (and its `when` holds);",
        "  a row without `value` takes the exact value of `[exact] model` computed for the run's own",
        "  settings. Otherwise the run says \"no reference for these settings\"; that is not a failure.",
        "- `[[validation]]` rows list the variants `fem2d validate` runs (`set`, `grid`, `solvers`).",
        "- A key you write that the chosen path does not read is an error (one line naming the file",
        "  and the key): another scheme's parameter (`time.rho_inf` with `scheme = \"newmark\"`), another",
        "  contact method's option, a load's `value` or `vector` its type does not read, a function's key",
        "  its type does not read, `time.events` without contact, `time.stick_slip` without friction,",
        "  `obstacle.kt` / `obstacle.ct` without friction (`obstacle.mu` = 0),",
        "  and per kind of case: " + _unused_by_kind() + ".",
        "",
    ]
    for section in sections():
        docs = key_docs(section)
        if not docs:
            continue
        spec = SCHEMA.fields[section]
        title = f"[[{section}]]" if isinstance(spec, TableList) else f"[{section}]"
        if isinstance(spec, TableOrList):
            title = f"[{section}] or [[{section}]]"
        lines += [f"## {title}", ""]
        if spec.doc:
            lines += [spec.doc[0].upper() + spec.doc[1:] + ".", ""]
        lines += ["| key | type | default | unit | meaning |", "|---|---|---|---|---|"]
        for k in docs:
            lines.append(f"| `{k.key}` | {_cell(k.type)} | {_cell(k.default)} | {k.unit} | {_cell(k.meaning)} |")
        lines.append("")
    return "\n".join(lines)


def _known_paths() -> list[str]:
    """Every key as the case-format page lists it, a list of tables marked ``[]``."""
    return [k.key for k in key_docs()]


def did_you_mean(key: str, candidates: list[str] | None = None) -> str:
    """``"; did you mean 'time.dt'?"`` for a near miss of a known key, else ``""``;
    list indices of a ``--set`` key are kept (``loads.1.valeu`` -> ``loads.1.value``), and a
    key of a list of tables given without its entry's index is shown with the first one's.

    >>> did_you_mean("time.dtt")
    "; did you mean 'time.dt'?"
    >>> did_you_mean("loads.1.valeu")
    "; did you mean 'loads.1.value'?"
    >>> did_you_mean("materials.rayleigh"), did_you_mean("contact.muu")
    ("; did you mean 'materials.0.rayleigh'?", "; did you mean 'contact.mu'?")
    """
    marked = {path.replace("[]", ""): path for path in (candidates if candidates is not None else _known_paths())}
    parts = key.split(".")
    bare = ".".join(p for p in parts if not p.isdigit())
    close = difflib.get_close_matches(bare, list(marked), n=1, cutoff=0.75)
    if not close:
        return ""
    words = close[0].split(".")
    if any(p.isdigit() for p in parts):
        for i, part in enumerate(parts):
            if part.isdigit() and i <= len(words):
                words.insert(i, part)
    else:  # no index given: the first entry of each list of tables on the way (a table that may be
        # a list, as [contact], takes its keys without one)
        words = []
        for piece in marked[close[0]].split("."):
            name = piece.removesuffix("[]")
            words.append(name)
            if piece != name and isinstance(lookup(SCHEMA, ".".join(words)), TableList):
                words.append("0")
    suggestion = ".".join(words)
    return "" if suggestion == key else f"; did you mean {suggestion!r}?"


if __name__ == "__main__":  # pragma: no cover - regenerates the page
    print(markdown_page())
