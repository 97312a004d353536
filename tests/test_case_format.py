"""The case format documented from the schema: `fem2d keys`, docs/case-format.md, did-you-mean."""

from pathlib import Path

import pytest

from fem2d.case.fields import Table, TableList, TableOrList
from fem2d.case.keys import format_keys, key_docs, markdown_page, split_unit
from fem2d.case.loading import load_case
from fem2d.case.schema import SCHEMA
from fem2d.cli import main
from fem2d.errors import InputError

PAGE = Path(__file__).resolve().parents[1] / "docs" / "case-format.md"


def _leaves(spec, path=""):
    """Every leaf key of the schema, walked here independently of fem2d.case.keys."""
    if isinstance(spec, TableList | TableOrList):
        yield from _leaves(spec.table, path + "[]")
    elif isinstance(spec, Table):
        for name, sub in spec.fields.items():
            yield from _leaves(sub, f"{path}.{name}" if path else name)
        if spec.open_keys is not None:
            yield from _leaves(spec.open_keys, path + (".NAME" if isinstance(spec.open_keys, Table) else ".*"))
    else:
        yield path


def test_keys_and_page_cover_every_key_with_a_meaning(capsys):
    leaves = list(_leaves(SCHEMA))
    assert len(leaves) > 100 and "time.dt" in leaves and "materials[].E" in leaves
    assert [k.key for k in key_docs()] == leaves
    assert main(["keys"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()[2:] if not line.startswith(" ")]
    assert listed == leaves  # one row per key; continuation lines start blank
    page = markdown_page()
    assert all(f"| `{key}` |" in page for key in leaves)
    undocumented = [k.key for k in key_docs() if not k.meaning]
    assert undocumented == [], "document these keys in fem2d/case/schema.py (doc=...)"
    e = {k.key: k for k in key_docs("materials")}["materials[].E"]
    assert (e.type, e.default, e.unit, e.meaning) == ("number > 0 <= 1e+20", "(required)", "Pa", "Young's modulus")
    assert {k.key for k in key_docs("time")} == {leaf for leaf in leaves if leaf.startswith("time.")}
    assert format_keys("time").splitlines()[0].split() == ["key", "type", "default", "unit", "meaning"]


def test_the_page_in_the_repo_is_generated_from_the_schema():
    assert PAGE.read_text(encoding="utf-8") == markdown_page() + "\n", (
        "docs/case-format.md is stale: python -m fem2d.case.keys > docs/case-format.md"
    )


def test_units_split_from_the_documentation():
    assert split_unit("m") == ("m", "")
    assert split_unit("density, kg/m^3") == ("kg/m^3", "density")
    assert split_unit("N s/m (default: code_aster's rule)") == ("N s/m", "(default: code_aster's rule)")
    assert split_unit("mesh group of the nodes") == ("", "mesh group of the nodes")


@pytest.mark.parametrize("columns", [80, 200])
def test_keys_wraps_to_the_terminal_and_loses_nothing(columns, monkeypatch, capsys):
    """`fem2d keys` fits COLUMNS (a word longer than its column aside) and every meaning is
    there whole: the words of each row's lines, joined, are the schema's text."""
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["keys", "contact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # a line may pass the width only by a word longer than its column (at 80 columns the type column
    # is 12 wide, and contact.discretization's choice 'node_to_segment', is 18 characters)
    over = [line for line in lines if len(line) > columns]
    assert all(any(len(word) > 12 for word in line.split()) for line in over), over
    assert len(over) <= 2
    meaning_at = lines[0].index("meaning")
    rows: list[list[str]] = []
    for line in lines[2:]:
        if not line.startswith(" "):
            rows.append([])
        rows[-1].append(line[meaning_at:])
    docs = key_docs("contact")
    assert len(rows) == len(docs)
    for doc, row in zip(docs, rows):
        assert " ".join(" ".join(row).split()) == " ".join(doc.meaning.split())
    e_n = next(" ".join(row) for doc, row in zip(docs, rows) if doc.key == "contact[].e_n")
    assert "above 1e10 x refused" in " ".join(e_n.split())
    if columns == 200:  # wide enough: the type column whole on the key's own line
        assert "'lagrange', 'penalty', 'continuous'" in next(line for line in lines if "contact[].method" in line)


def test_did_you_mean_on_unknown_keys(tmp_path, capsys):
    with pytest.raises(InputError, match=r"override contact.muu: unknown key; did you mean 'contact.mu'\?"):
        load_case("sdnv104a", {"contact.muu": 0.4})
    with pytest.raises(InputError, match=r"override materials.0.rhoo: unknown key; did you mean 'materials.0.rho'\?"):
        load_case("sdnv104a", {"materials.0.rhoo": 1.0})
    # a key of a list of tables without its entry's index: shown with one (it suggested the key itself)
    with pytest.raises(InputError, match=r"override materials.rayleigh: unknown key; did you mean "
                                         r"'materials.0.rayleigh'\?"):
        load_case("sdnv104a", {"materials.rayleigh": [1.0, 0.0]})
    bad = tmp_path / "typo.toml"
    bad.write_text('[case]\nname = "x"\nkind = "direct"\n[time]\ndt = 0.1\nend = 1.0\nschem = "newmark"\n')
    with pytest.raises(InputError, match=r"typo.toml: time.schem: unknown key \(did you mean 'scheme'\?"):
        load_case(bad)
    assert main(["keys", "tme"]) == 2
    assert "did you mean 'time'?" in capsys.readouterr().err
