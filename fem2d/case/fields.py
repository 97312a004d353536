"""A small typed schema for case files: every key, its type and its default.

Validation walks the TOML data alongside the schema and raises an
:class:`~fem2d.errors.InputError` whose single line names the file, the dotted
key and what was expected. Defaults are filled in, so the resolved case
(what ``result.json`` records under ``settings``) says everything the run
used.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any

from fem2d.errors import InputError

_REQUIRED = object()


def _fail(where: str, path: str, expected: str, value: Any) -> InputError:
    shown = repr(value) if not isinstance(value, dict) else "a table"
    return InputError(f"{where}: {path}: expected {expected}, got {shown}")


class Field:
    """Base of all schema nodes; ``default`` is the value used when the key is absent."""

    default: Any = _REQUIRED
    doc: str = ""

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED

    def check(self, value: Any, path: str, where: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass
class Real(Field):
    """A finite real number, optionally bounded (``positive``: > 0)."""

    default: Any = _REQUIRED
    doc: str = ""
    min: float | None = None
    max: float | None = None
    positive: bool = False

    def describe(self) -> str:
        parts = ["a number"]
        if self.positive:
            parts.append("> 0")
        if self.min is not None:
            parts.append(f">= {self.min:g}")
        if self.max is not None:
            parts.append(f"<= {self.max:g}")
        return " ".join(parts)

    def check(self, value, path, where):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise _fail(where, path, self.describe(), value)
        value = float(value)
        if (self.positive and value <= 0) or (self.min is not None and value < self.min) or (
            self.max is not None and value > self.max
        ):
            raise _fail(where, path, self.describe(), value)
        return value


@dataclass
class Integer(Field):
    """An integer, optionally bounded."""

    default: Any = _REQUIRED
    doc: str = ""
    min: int | None = None
    max: int | None = None

    def describe(self) -> str:
        lo = "" if self.min is None else f" >= {self.min}"
        hi = "" if self.max is None else f" <= {self.max}"
        return f"an integer{lo}{hi}"

    def check(self, value, path, where):
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(where, path, self.describe(), value)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise _fail(where, path, self.describe(), value)
        return value


@dataclass
class Boolean(Field):
    default: Any = _REQUIRED
    doc: str = ""

    def describe(self) -> str:
        return "true or false"

    def check(self, value, path, where):
        if not isinstance(value, bool):
            raise _fail(where, path, self.describe(), value)
        return value


@dataclass
class String(Field):
    """A string, optionally one of ``choices``."""

    default: Any = _REQUIRED
    doc: str = ""
    choices: tuple[str, ...] | None = None

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return "a string"

    def check(self, value, path, where):
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            raise _fail(where, path, self.describe(), value)
        return value


@dataclass
class Optional(Field):
    """Either absent/none (``default`` None) or a value of ``inner``'s type.

    TOML has no null: the key is simply left out; ``--set key="none"`` is not
    accepted (overrides set values, they do not unset them).
    """

    inner: Field = None  # type: ignore[assignment]
    default: Any = None
    doc: str = ""

    def describe(self) -> str:
        return self.inner.describe()

    def check(self, value, path, where):
        return None if value is None else self.inner.check(value, path, where)


@dataclass
class Array(Field):
    """A list of items of one type, optionally of fixed ``length``."""

    item: Field = None  # type: ignore[assignment]
    default: Any = _REQUIRED
    doc: str = ""
    length: int | None = None
    min_length: int = 0

    def describe(self) -> str:
        n = f"{self.length} " if self.length is not None else ""
        return f"a list of {n}items, each {self.item.describe()}"

    def check(self, value, path, where):
        if not isinstance(value, list):
            raise _fail(where, path, self.describe(), value)
        if (self.length is not None and len(value) != self.length) or len(value) < self.min_length:
            raise _fail(where, path, self.describe(), value)
        return [self.item.check(v, f"{path}[{i}]", where) for i, v in enumerate(value)]


@dataclass
class Table(Field):
    """A TOML table with known keys; unknown keys are errors."""

    fields: dict[str, Field] = field(default_factory=dict)
    default: Any = None  # absent table -> all defaults
    doc: str = ""
    open_keys: Field | None = None  # type of values for keys not in ``fields`` (a map), None = closed

    def describe(self) -> str:
        return "a table"

    def check(self, value, path, where):
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise _fail(where, path, self.describe(), value)
        out = {}
        for key, val in value.items():
            sub = f"{path}.{key}" if path else key
            spec = self.fields.get(key, self.open_keys)
            if spec is None:
                known = ", ".join(sorted(self.fields)) or "none"
                close = difflib.get_close_matches(key, list(self.fields), n=1, cutoff=0.6)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise InputError(f"{where}: {sub}: unknown key ({hint}known keys here: {known})")
            out[key] = spec.check(val, sub, where)
        for key, spec in self.fields.items():
            if key in out:
                continue
            sub = f"{path}.{key}" if path else key
            if spec.required:
                raise InputError(f"{where}: {sub}: missing; expected {spec.describe()}")
            if isinstance(spec, Table | TableOrList):
                out[key] = spec.check(None, sub, where)
            elif spec.default is not None:
                out[key] = spec.default
        return out


@dataclass
class TableList(Field):
    """A TOML array of tables ``[[name]]``, each checked against ``table``."""

    table: Table = None  # type: ignore[assignment]
    default: Any = field(default_factory=list)
    doc: str = ""

    def describe(self) -> str:
        return "an array of tables"

    def check(self, value, path, where):
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise _fail(where, path, self.describe(), value)
        return [self.table.check(v, f"{path}[{i}]", where) for i, v in enumerate(value)]


@dataclass
class TableOrList(Field):
    """One table ``[name]`` or an array of tables ``[[name]]``, each checked
    against ``table``; the resolved settings keep the form that was given (a
    single table stays a table, so ``name.key`` overrides keep their meaning)."""

    table: Table = None  # type: ignore[assignment]
    default: Any = None  # absent -> the table's defaults
    doc: str = ""

    def describe(self) -> str:
        return "a table or an array of tables"

    def check(self, value, path, where):
        if value is None or isinstance(value, dict):
            return self.table.check(value, path, where)
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            raise _fail(where, path, "a table or a non-empty array of tables", value)
        return [self.table.check(v, f"{path}[{i}]", where) for i, v in enumerate(value)]


def tables_of(value: dict | list[dict]) -> list[dict]:
    """The tables of a :class:`TableOrList` setting, as a list."""
    return list(value) if isinstance(value, list) else [value]


@dataclass
class Any_(Field):
    """Any TOML value (used for ``when`` conditions and ``--set`` maps)."""

    default: Any = None
    doc: str = ""

    def describe(self) -> str:
        return "a value"

    def check(self, value, path, where):
        return value


def lookup(schema: Table, dotted: str) -> Field | None:
    """The schema node of a dotted key (list indices allowed: ``loads.0.value``)."""
    node: Field | None = schema
    for part in dotted.split("."):
        if isinstance(node, TableOrList):
            node = node.table
            if part.isdigit():
                continue
        if isinstance(node, Optional) and isinstance(node.inner, Table):
            node = node.inner
        if isinstance(node, TableList):
            if not part.isdigit():
                return None
            node = node.table
            continue
        if isinstance(node, Table):
            node = node.fields.get(part, node.open_keys)
        else:
            return None
        if node is None:
            return None
    return node
