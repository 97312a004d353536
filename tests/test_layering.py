"""Only the case layer reads a case's settings: everything else asks a Case (kind, title,
end_time, mesh_file, reported_dof...) or gets the objects case/build.py made from them."""

import re
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "fem2d"

#: Reading into the settings dict: ``x.settings["time"]``, ``x.settings.get(...)``, ``setting(x, "a.b")``.
READS = re.compile(r"\.settings\s*(\[|\.get\()|\bsetting\(")


def test_settings_are_read_only_in_the_case_layer():
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if PACKAGE / "case" not in path.parents
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if READS.search(line)
    ]
    assert offenders == [], "\n".join(offenders)


def test_the_check_finds_a_read():
    assert READS.search('t = case.settings["time"]["end"]') and READS.search("r.settings.get('case', {})")
    assert not READS.search("settings=result.case.document()['settings']")
