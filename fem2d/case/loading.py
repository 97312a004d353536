"""Case files: TOML loading, overrides (dotted key = value), validation, built-in registry.

A case is named either by a built-in name (a file ``cases/NAME.toml`` of this
repository) or by the path of a TOML file. Overrides use dotted keys with
TOML values (``time.dt=0.005``, ``post.window=[2.0, 9.5]``,
``contact.method="penalty"``; a bare word such as ``contact.method=penalty``
is taken as a string, since shells eat the quotes).
"""

from __future__ import annotations

import copy
import dataclasses
import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fem2d.case.checks import check_settings, fit_report_to_run
from fem2d.case.fields import Optional, Table, TableList, TableOrList, lookup, tables_of
from fem2d.case.schema import SCHEMA
from fem2d.case.usage import unused_keys
from fem2d.errors import InputError, OverrideError

#: Where the built-in case files live (``FEM2D_CASES`` adds directories in front).
CASES_DIR = Path(__file__).resolve().parents[2] / "cases"


def case_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("FEM2D_CASES", "").split(os.pathsep) if p]
    return [*extra, CASES_DIR]


def builtin_cases() -> list[str]:
    """Names of the built-in cases, sorted."""
    names = {p.stem for d in case_dirs() if d.is_dir() for p in d.glob("*.toml")}
    return sorted(names)


def case_path(name_or_path: str | os.PathLike) -> Path:
    """The TOML file of a built-in case name or an explicit path."""
    text = str(name_or_path)
    path = Path(text)
    if path.suffix == ".toml" or os.sep in text or "/" in text:
        if path.is_dir():
            raise InputError(f"{path}: is a directory; expected a case file (a .toml file)")
        if not path.is_file():
            raise InputError(f"{path}: case file not found")
        return path
    for d in case_dirs():
        candidate = d / f"{text}.toml"
        if candidate.is_file():
            return candidate
    raise InputError(f"unknown case {text!r}; expected a built-in case ({', '.join(builtin_cases())}) or a .toml path")


@dataclass(frozen=True)
class Case:
    """A validated case: ``settings`` is the resolved data (defaults filled in,
    overrides applied), ``path`` the file it came from, ``overrides`` the
    ``--set`` pairs that were applied."""

    name: str
    settings: dict
    path: Path | None = None
    overrides: dict[str, Any] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return str(self.path) if self.path else self.name

    def get(self, dotted: str, default: Any = None) -> Any:
        """The value of a dotted key (``time.dt``, ``loads.0.value``), see :func:`setting`."""
        return setting(self.settings, dotted, default)

    def error(self, key: str, message: str) -> InputError:
        """An InputError naming this case's file and ``key``."""
        return InputError(f"{self.where}: {key}: {message}")

    # --- what the rest of fem2d asks of a case: only the case layer reads its settings ---------------

    @property
    def kind(self) -> str:
        """``"direct"`` (finite elements, a Newmark-family scheme), ``"static"`` (finite elements,
        equilibrium at load levels) or ``"modal"`` (a basis of modes)."""
        return self.get("case.kind", "direct")

    @property
    def title(self) -> str:
        """The case's one-line title ("" when it has none)."""
        return self.get("case.title") or ""

    @property
    def end_time(self) -> float:
        """The simulated time (s)."""
        return float(self.get("time.end"))

    @property
    def time_step(self) -> float:
        """The nominal time step (s)."""
        return float(self.get("time.dt"))

    @property
    def has_contact(self) -> bool:
        """Whether a contact table defines a zone (a lone table without slave and master defines none)."""
        zones = tables_of(self.get("contact", []))
        return any(c.get("slave") is not None or c.get("master") is not None for c in zones)

    @property
    def mesh_file(self) -> Path | None:
        """The mesh file (a relative path is taken from the case file's folder), or None for a builder."""
        name = self.get("mesh.file")
        if name is None:
            return None
        path = Path(name)
        return path if path.is_absolute() or self.path is None else self.path.parent / path

    @property
    def snapshots(self) -> int:
        """Every how many steps the displacement field is kept (0: never)."""
        return int(self.get("report.snapshots") or 0)

    def with_snapshots(self, every: int) -> Case:
        """This case keeping the displacement field every ``every`` steps."""
        report = {**self.settings["report"], "snapshots": every}
        return dataclasses.replace(self, settings={**self.settings, "report": report})

    @property
    def reported_dof(self) -> str:
        """What the reported history is: ``"DX at node A (m)"``."""
        component, node = str(self.get("report.component", "dx")).upper(), self.get("report.node")
        return f"{component} at node {node} (m)" if node else f"{component} (m)"

    @property
    def point_mass(self) -> float:
        """The total of the point masses (kg)."""
        return float(sum(nodal.get("mass", 0.0) for nodal in self.get("nodal", [])))

    @property
    def base_excitation(self) -> tuple[float, float] | None:
        """(amplitude a0 in m/s^2, pulsation in rad/s) of a modal case's base excitation, or None."""
        a0, omega = self.get("excitation.a0"), self.get("excitation.omega")
        return None if a0 is None or omega is None else (float(a0), float(omega))

    @property
    def obstacle_mu(self) -> float | None:
        """The Coulomb coefficient of a modal case's obstacle, or None."""
        return self.get("obstacle.mu")

    @property
    def modal_integrator(self) -> str | None:
        """The integrator of a modal case, or None for a direct one."""
        return self.get("modal.integrator") if self.kind == "modal" else None

    def validation_variants(self) -> list[ValidationVariant]:
        """The variants ``fem2d validate`` runs, one per ``[[validation]]`` table."""
        return [
            ValidationVariant(table["label"] or f"variant {i}", dict(table["set"]), dict(table.get("grid") or {}),
                              table["solvers"] == "installed")
            for i, table in enumerate(self.get("validation", []), start=1)
        ]

    def document(self) -> dict[str, Any]:
        """What result.json records of the case: its name, resolved settings and overrides.

        A relative ``mesh.file`` is recorded resolved against the case file's folder, so a
        run directory read back later (``fem2d plot DIR``) finds the mesh wherever it is read.
        """
        settings = self.settings
        mesh_file = self.mesh_file
        if mesh_file is not None and not Path(self.get("mesh.file")).is_absolute():
            settings = {**settings, "mesh": {**settings["mesh"], "file": str(mesh_file.resolve())}}
        return {"case": self.name, "settings": settings, "overrides": self.overrides}


@dataclass(frozen=True)
class ValidationVariant:
    """One ``[[validation]]`` table: its label, the overrides of every run, a grid of
    override values (one run per combination) and whether it runs once per installed
    linear solver (:func:`solver_override` gives that override)."""

    label: str
    overrides: dict[str, Any]
    grid: dict[str, list]
    every_solver: bool


#: The key each axis of a study sets (the studies name axes, the case layer the keys).
STUDY_KEYS = {"method": "contact.method", "discretization": "contact.discretization",
              "element": "mesh.element", "solver": "solver.linear",
              "scheme": "time.scheme", "refine": "mesh.refine", "dt": "time.dt"}


def solver_override(solver: str) -> dict[str, str]:
    """The override that runs a case with the linear solver ``solver``."""
    return {STUDY_KEYS["solver"]: solver}


def refine_overrides(level: int, dt: float | None = None) -> dict[str, Any]:
    """The overrides of refinement level ``level`` (h / 2**level); with ``dt`` (the
    step at level 0) the step halves with h too."""
    out: dict[str, Any] = {STUDY_KEYS["refine"]: int(level)}
    if dt is not None:
        out[STUDY_KEYS["dt"]] = dt / 2**level
    return out


def refine_level(overrides: Mapping[str, Any]) -> int:
    """The refinement level a run's overrides set (0: the case's own mesh)."""
    return int(overrides.get(STUDY_KEYS["refine"], 0))


def setting(settings: Mapping[str, Any], dotted: str, default: Any = None) -> Any:
    """The value of a dotted key in nested settings (list indices allowed), or ``default``.

    >>> setting({"time": {"dt": 0.01}, "loads": [{"value": 2.0}]}, "loads.0.value")
    2.0
    >>> setting({"time": {"dt": 0.01}}, "time.end", "none")
    'none'
    """
    node: Any = settings
    for part in dotted.split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, Mapping) and part in node:
            node = node[part]
        else:
            return default
    return node


def parse_value(text: str) -> Any:
    """An override's value parsed as TOML; a bare word is a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if text and all(c.isalnum() or c in "_-+." for c in text):
            return text
        detail = f"cannot read {text!r} as a TOML value (strings need quotes, lists brackets)"
        raise OverrideError("", "", detail) from None


def parse_overrides(pairs: Iterable[str]) -> dict[str, Any]:
    """``["time.dt=0.005", ...]`` -> ``{"time.dt": 0.005, ...}``."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OverrideError("", repr(pair), "expected KEY=VALUE, e.g. time.dt=0.005")
        value = parse_value(value.strip())
        if key in out:
            raise OverrideError("", key, f"given twice ({out[key]!r} and {value!r}); expected each key once")
        out[key] = value
    return out


def override_pairs(overrides: Mapping[str, Any] | Iterable[str]) -> dict[str, Any]:
    """Overrides as dotted keys and plain values, from a mapping (``{"time.dt": 0.02}``)
    or ``"key=value"`` strings (:func:`parse_overrides`).

    A table of the case format given as a value (``{"time": {"dt": 0.02}}``) sets the
    keys it holds and leaves the table's others as they are (``time.dt``); a NumPy
    scalar (``np.int64(1)``, ``np.float32(0.5)``) is the Python number it holds. One
    string on its own is refused: it would be read a character at a time.

    >>> override_pairs({"time": {"dt": 0.02, "end": 1.0}, "mesh.refine": 1})
    {'time.dt': 0.02, 'time.end': 1.0, 'mesh.refine': 1}
    """
    if isinstance(overrides, str | bytes):
        raise OverrideError("", repr(overrides), "overrides are a mapping ({'time.dt': 0.02}) or a list of "
                            "'key=value' strings, not one string (give it in a list)")
    pairs = overrides if isinstance(overrides, Mapping) else parse_overrides(overrides)
    out: dict[str, Any] = {}
    for key, value in pairs.items():
        if not isinstance(key, str):
            raise OverrideError("", repr(key), "expected a dotted key (a str such as 'time.dt')")
        _flatten(key, value, out)
    return out


def _flatten(key: str, value: Any, out: dict[str, Any]) -> None:
    spec = lookup(SCHEMA, key)
    if isinstance(spec, Optional) and isinstance(spec.inner, Table):
        spec = spec.inner
    value = _plain(value)
    if isinstance(value, Mapping) and isinstance(spec, Table | TableList | TableOrList) and all(
        isinstance(k, str) and k and "." not in k for k in value
    ):
        for name, inner in value.items():
            _flatten(f"{key}.{name}", inner, out)
        return
    if key in out:
        raise OverrideError("", key, f"given twice ({out[key]!r} and {value!r}); expected each key once")
    out[key] = value


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python value it holds (lists and tables looked into)."""
    if type(value).__module__ == "numpy" and getattr(value, "shape", None) == ():
        return value.item()
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _apply_override(data: dict, key: str, value: Any, where: str) -> None:
    spec = lookup(SCHEMA, key)
    if spec is None:
        from fem2d.case.keys import did_you_mean

        raise OverrideError(where, key, f"unknown key{did_you_mean(key)}")
    if isinstance(spec, Table | TableList | TableOrList) and not isinstance(value, dict | list):
        raise OverrideError(where, key, _a_table(key, spec))
    parts = key.split(".")
    node: Any = data
    for i, part in enumerate(parts[:-1]):
        if isinstance(node, list) and not part.isdigit():
            head = ".".join(parts[:i])
            raise OverrideError(where, key, f"{head} is a list of {len(node)} tables; use {head}.K.{part}")
        if isinstance(node, dict) and part.isdigit() and isinstance(lookup(SCHEMA, ".".join(parts[:i])), TableOrList):
            head = ".".join(parts[:i])
            raise OverrideError(where, key, f"{head} is a single table; use {head}.{'.'.join(parts[i + 1:])}")
        if isinstance(node, list):
            idx = int(part)
            if idx >= len(node):
                raise OverrideError(where, key, f"index {idx} out of range ({len(node)} entries)")
            node = node[idx]
        else:
            if part not in node:
                node[part] = [] if isinstance(lookup(SCHEMA, ".".join(parts[: i + 1])), TableList) else {}
            node = node[part]
    last = parts[-1]
    if isinstance(node, list) and not last.isdigit():
        head = ".".join(parts[:-1])
        raise OverrideError(where, key, f"{head} is a list of {len(node)} tables; use {head}.K.{last}")
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def _a_table(key: str, spec: Table | TableList | TableOrList) -> str:
    """What to say of a table given a single value: ``time is a table; set one of its
    keys, e.g. time.dt``."""
    table = spec if isinstance(spec, Table) else spec.table
    names = list(table.fields)
    settable = [n for n in names if n not in ("name", "group", "label", "type")]  # what names a table, not its values
    example = next((n for n in ("dt", "E", "value", "method") if n in names), (settable or names or ["NAME"])[0])
    if isinstance(spec, TableList):
        return f"{key} is a list of tables; set a key of one of them, e.g. {key}.0.{example}"
    return f"{key} is a table; set one of its keys, e.g. {key}.{example}"


def load_case(name_or_path: str | os.PathLike, overrides: Mapping[str, Any] | Iterable[str] = ()) -> Case:
    """Read, override and validate a case; every problem is one InputError line."""
    return read_case(name_or_path).load(overrides)


@dataclass(frozen=True)
class CaseFile:
    """A case file as read (merged over the cases it ``extends``), not yet validated:
    :meth:`load` gives its :class:`Case` for any overrides, as :func:`load_case` does,
    without reading and parsing the files again (``fem2d validate`` loads each case once
    per variant: 90 loads of 14 files)."""

    path: Path
    raw: dict = field(repr=False)

    def load(self, overrides: Mapping[str, Any] | Iterable[str] = ()) -> Case:
        """Override and validate; ``raw`` is left as read."""
        path = self.path
        pairs = override_pairs(overrides)
        data = copy.deepcopy(self.raw)
        for key, value in pairs.items():
            _apply_override(data, key, value, str(path))
        settings = fit_report_to_run(SCHEMA.check(data, "", str(path)), pairs)
        case = Case(name=settings["case"]["name"], settings=settings, path=path, overrides=pairs)
        _check_consistency(case)
        _check_keys_used(case, self.raw, data, pairs)
        return case


def read_case(name_or_path: str | os.PathLike) -> CaseFile:
    """Read a case file and the cases it extends (one InputError line if it cannot be)."""
    path = case_path(name_or_path)
    return CaseFile(path, _read_with_parents(path, ()))


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: byte {exc.start} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); "
                         "expected a TOML file saved as UTF-8") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None


def _read_with_parents(path: Path, chain: tuple[Path, ...]) -> dict:
    """The raw TOML of ``path`` merged over the case it ``extends`` (recursively)."""
    if path.resolve() in chain:
        raise InputError(f"{path}: case.extends makes a cycle ({' -> '.join(str(p) for p in chain)})")
    raw = _read_toml(path)
    parent = raw.get("case", {}).get("extends")
    if parent is None:
        return raw
    if not isinstance(parent, str):
        raise InputError(f"{path}: case.extends: expected a case name or path, got {parent!r}")
    parent_path = _parent_path(path, parent)
    base = _read_with_parents(parent_path, (*chain, path.resolve()))
    file = base.get("mesh", {}).get("file")
    if isinstance(file, str) and not Path(file).is_absolute():  # the parent's mesh file is in the parent's folder
        base["mesh"]["file"] = os.path.abspath(parent_path.parent / file)
    merged = _merge(base, raw)
    child_mesh = raw.get("mesh", {})
    # a child that names its own mesh source replaces the parent's (a builder case switched to a file)
    if "file" in child_mesh and "geometry" not in child_mesh:
        merged["mesh"].pop("geometry", None)
        if "element" not in child_mesh:  # the child's file says its element, not the parent's mesh
            merged["mesh"].pop("element", None)
        if "params" not in child_mesh:  # the child's own params stay, and are refused with a file
            merged["mesh"].pop("params", None)
    elif "geometry" in child_mesh and "file" not in child_mesh:
        merged["mesh"].pop("file", None)
    merged["case"].pop("extends", None)
    merged["case"].setdefault("title", "")
    return merged


def _parent_path(path: Path, parent: str) -> Path:
    """The file ``case.extends = parent`` of ``path`` names: a path (``.toml`` or with a
    slash) from ``path``'s folder, or a built-in case name; one error line naming ``path``
    and the key when there is none."""
    if parent.endswith(".toml") or "/" in parent or os.sep in parent:
        local = path.parent / parent
        if not local.is_file():
            raise InputError(f"{path}: case.extends: {local}: case file not found")
        return local
    try:
        return case_path(parent)
    except InputError as exc:
        raise InputError(f"{path}: case.extends: {exc}") from None


def _merge(base: dict, child: dict) -> dict:
    """Tables merge key by key; anything else (arrays of tables included) is replaced."""
    out = copy.deepcopy(base)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a case name (the output directory ``results/<name>``), or None.

    A name is one plain path component: not empty, not ``.`` or ``..``, no slash, backslash,
    colon (a drive) or NUL, not starting with ``.`` (hidden, or a way out of ``results/``).

    >>> name_problem("sdnd104") is None, name_problem("../x").split(";")[0]
    (True, "'../x' is a path, not a name")
    """
    if not name:
        return "empty; expected a name, the folder under results/"
    if any(c in name for c in "/\\:\0") or name.startswith("."):
        return (f"{name!r} is a path, not a name; expected the folder name under results/ "
                "(no slash, backslash, colon or leading dot)")
    return None


def _check_consistency(case: Case) -> None:
    """Rules that span keys (the schema checks each key alone)."""
    s = case.settings
    problem = name_problem(case.name)
    if problem is not None:
        raise case.error("case.name", problem)
    if s["time"].get("dt") is None:
        raise case.error("time.dt", "missing; expected a number > 0 (s)")
    if s["time"].get("end") is None:
        raise case.error("time.end", "missing; expected a number > 0 (s)")
    if s["time"]["dt"] > s["time"]["end"]:
        raise case.error("time.dt", f"{s['time']['dt']} is larger than time.end = {s['time']['end']}")
    min_dt = s["time"].get("min_dt")
    if min_dt is not None and min_dt > s["time"]["dt"] and min_dt != lookup(SCHEMA, "time.min_dt").default:
        # (the default is taken down to time.dt where it is larger: build.py)
        raise case.error("time.min_dt", f"{min_dt} s is larger than time.dt = {s['time']['dt']} s; "
                         "expected the smallest step a failed step may be cut to, at most time.dt")
    if s["case"]["kind"] in ("direct", "static"):
        mesh = s["mesh"]
        if (mesh.get("geometry") is None) == (mesh.get("file") is None):
            raise case.error("mesh", "give exactly one of mesh.geometry (a builder) or mesh.file")
        if not s["materials"]:
            raise case.error("materials", f"a {s['case']['kind']} case needs at least one [[materials]] table")
    for i, load in enumerate(s["loads"]):
        needs = "value" if load["type"] == "pressure" else "vector"
        if load.get(needs) is None:
            raise case.error(f"loads[{i}].{needs}", f"missing for a {load['type']} load")
        fn = load["function"]
        if fn != "constant" and fn not in s["functions"]:
            raise case.error(f"loads[{i}].function", f"no [functions.{fn}] table (known: {sorted(s['functions'])})")
    for i, ref in enumerate(s["references"]):
        if ref.get("value") is None and s["exact"].get("model") is None:
            raise case.error(f"references[{i}].value", "missing, and the case names no [exact] model to compute it")
        if ref.get("value") is not None and not ref["source"]:
            raise case.error(f"references[{i}].source", "missing; say where the stored value comes from")
        levels = ref.get("refine")
        if levels is not None and levels[0] > levels[1]:
            raise case.error(f"references[{i}].refine", f"expected [first, last] with first <= last, got {levels}")
    curve = case.get("report.curve.function")
    if curve is not None:
        from fem2d.exact.curves import curve_name, unknown_curve

        if curve_name(curve) is None:  # named only, never imported: a case file is data
            raise case.error("report.curve.function", unknown_curve(curve))
    if s["report"]["error_bars"]:
        _check_error_bars(case)
    window = s["post"].get("window")
    if window is not None and not window[0] < window[1]:
        raise case.error("post.window", f"expected [t_start, t_end] with t_start < t_end, got {window}")
    check_settings(case)


def _check_error_bars(case: Case) -> None:
    """``report.error_bars`` needs a mesh family with a coarser level than the run's own."""
    s = case.settings
    if s["case"]["kind"] == "modal":
        raise case.error("report.error_bars", "a modal case runs on a basis of modes: there is no mesh size h to "
                         "refine; expected a direct or static case")
    if s["mesh"].get("geometry") == "single_node":
        raise case.error("report.error_bars", "the single_node mesh has no cells to refine: no mesh family; "
                         "expected a mesh.geometry builder with cells or a mesh.file")
    if s["mesh"]["refine"] < 1:
        raise case.error("report.error_bars", "mesh.refine = 0 is the coarsest level of the mesh family: there is "
                         "no coarser level to compare with; expected mesh.refine >= 1 (2 or more for three levels)")


def _choices(data: Mapping[str, Any]) -> tuple[str, str, list[str], str, bool]:
    """(kind, time scheme, method of each contact zone, modal integrator, whether some
    contact zone has friction) that raw case data chooses."""
    def chosen(table: Any, key: str, dotted: str) -> str:
        value = table.get(key) if isinstance(table, Mapping) else None
        return value if isinstance(value, str) else lookup(SCHEMA, dotted).default

    def mu(zone: Any) -> float:
        value = zone.get("mu") if isinstance(zone, Mapping) else None
        return float(value) if isinstance(value, int | float) else lookup(SCHEMA, "contact.mu").default

    zones = data.get("contact") or []
    zones = [zones] if isinstance(zones, Mapping) else zones
    kind = (data.get("case") or {}).get("kind")
    friction = any(mu(zone) > 0.0 for zone in zones)
    return (kind if isinstance(kind, str) else "direct", chosen(data.get("time"), "scheme", "time.scheme"),
            [chosen(zone, "method", "contact.method") for zone in zones],
            chosen(data.get("modal"), "integrator", "modal.integrator"), friction)


def _check_keys_used(case: Case, raw: dict, data: dict, overrides: Mapping[str, Any]) -> None:
    """A key the chosen path ignores is an error (:mod:`fem2d.case.usage`), e.g. ``time.gamma``
    with ``time.scheme = "generalized_alpha"``, or ``[obstacle]`` (the modal shock law) in a
    direct case: a direct run takes a rigid plane or circle as a contact master.

    The settings hold defaults, so what the user wrote is read from ``raw`` (the file, after
    ``extends``), checked against the file's own choices, and from ``data`` (overrides applied):
    a key an override sets is checked against the final choices and named as an override. An
    override that changes a choice (``--set time.scheme=hht``, a study's axis) sets aside the
    file's keys of the choice it replaces.
    """
    def why_obstacle(key: str, why: str) -> str:
        if key == "obstacle":
            why += " (a rigid obstacle in a direct run is a [contact] zone with a [contact.plane] or [contact.circle]"
            why += " master)"
        return why

    for _dotted, key, why in unused_keys(raw, *_choices(raw)):
        raise case.error(key, why_obstacle(key, why))
    for dotted, key, why in unused_keys(data, *_choices(data)):
        given = next((k for k in overrides if k == dotted or k.startswith(dotted + ".")), None)
        if given is not None:
            raise OverrideError(case.where, given, why_obstacle(key, why))


def __getattr__(name: str) -> Any:
    """References live in their own module (which imports this one); ``make_checks``
    and ``references_for`` stay importable from here, resolved on first use so that
    either module can be imported first."""
    if name in ("make_checks", "references_for"):
        from fem2d.case import references

        return getattr(references, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
