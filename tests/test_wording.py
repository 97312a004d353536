"""The project speaks of itself alone: no text in the package, the tests, the cases, the
benchmarks, the README or the docs refers to a document or tracker a user does not have, to
when or where a number was measured, or to a commit.

Each line of every text file under :data:`ROOTS` is matched against :data:`PATTERNS`:

- a reference to an internal specification document (the upper-case word for it);
- an issue number, in prose or in a test's name;
- a timestamp ("YYYY-MM-DD HH:MM", "HH:MM UTC");
- a commit id: a standalone word of 7 to 40 hexadecimal digits with at least one digit and
  one letter a-f; a number (whose digits follow a point) or a hex suffix inside a word (a
  temporary directory's random suffix) is not one;
- the machine of the day (a shared machine, its load at the time).

A failure lists ``file:line: text`` for every hit. The patterns are assembled from pieces so
that this file does not match them itself. ``pytest tests/test_wording.py -k "not README"``
checks the roots but one.
"""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: What is scanned: directories (recursively) and single files, relative to the repository.
ROOTS = ("fem2d", "tests", "cases", "benchmarks", "README.md", "docs")

#: The text files scanned under a directory root.
SUFFIXES = (".py", ".toml", ".md", ".rst", ".txt", ".cfg")

_HEX = r"(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}"

#: name -> compiled pattern; each hit is a line that speaks of something a user does not have.
PATTERNS = {
    "internal specification": re.compile(r"\b" + "SP" + "EC" + r"\b"),
    "issue number": re.compile(r"(?<![A-Za-z])" + "issue" + r"(?:s?\s+#?\d+|_\d+)", re.IGNORECASE),
    "timestamp": re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d\b|\b\d\d:\d\d(?:-\d\d:\d\d)?\s+" + "UT" + "C\\b"),
    # standalone: after the start, a space or an opening bracket/quote; before the end, a space,
    # a closing bracket/quote or punctuation that ends a word (not a point followed by a digit)
    "commit id": re.compile(r"(?:^|(?<=[\s(\[`'\"]))" + _HEX + r"(?=$|[\s)\]`'\",;:!?]|\.(?!\d))"),
    # any hex word (letters only, digits only) where only a commit is named
    "named commit": re.compile(
        r"\b(?:main|com" + r"mit|code of|clone of|until|since|before|worktree add)\s+"
        r"(?:main's\s+)?[0-9a-f]{7,40}\b(?![.\d])",
        re.IGNORECASE,
    ),
    "machine of the day": re.compile(r"\b" + "shared" + r"\s+2-core\b|\b" + "load" + r"\s+0\.\d", re.IGNORECASE),
}


def _text_files(root: Path):
    if root.is_file():
        yield root
        return
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(REPO).parts
        if any(p.startswith((".", "_build")) or p == "__pycache__" for p in parts):
            continue
        if path.is_file() and path.suffix in SUFFIXES:
            yield path


def wording_hits(root: Path) -> list[str]:
    """``file:line: [pattern] text`` for each line of the text files under ``root`` that matches
    one of :data:`PATTERNS`."""
    hits = []
    for path in _text_files(root):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, start=1):
            for name, pattern in PATTERNS.items():
                if pattern.search(line):
                    hits.append(f"{path.relative_to(REPO)}:{number}: [{name}] {line.strip()}")
    return hits


@pytest.mark.parametrize("root", ROOTS)
def test_no_internal_references_timestamps_or_commit_ids(root):
    path = REPO / root
    if not path.exists():
        pytest.skip(f"{root} is not in this checkout")
    hits = wording_hits(path)
    assert not hits, "wording that refers to what a user does not have:\n" + "\n".join(hits)


@pytest.mark.parametrize(
    "line, name",
    [
        ("as in " + "SP" + "EC section 1", "internal specification"),
        ("code_aster SDNV104 A (" + "SP" + "EC 1)", "internal specification"),
        ("What a step keeps (" + "issue" + " 12)", "issue number"),
        ("see " + "Issue" + "s #4 and 5", "issue number"),
        ("def test_case_defaults_meet_" + "issue" + "_10():", "issue number"),
        ("(2026" + "-11-23 19:40 " + "UTC, lo" + "ad 0.4)", "timestamp"),
        ("at 16:45 " + "UTC the run", "timestamp"),
        ("main " + "f072" + "acc):", "commit id"),
        ("Until " + "3073" + "13a it was", "commit id"),
        ("fresh clone of " + "2aca" + "8ed, empty cache", "commit id"),
        ("(19:45, the code of " + "daed" + "bbd)", "named commit"),
        ("(18:09, main " + "9099" + "082) met", "named commit"),
        ("Since " + "17c9" + "568 a System keeps", "named commit"),
        ("on the shared" + " 2-core machine", "machine of the day"),
        ("(at 18:58, " + "load" + " 0.9)", "machine of the day"),
    ],
)
def test_the_patterns_catch_internal_wording(line, name):
    assert PATTERNS[name].search(line)


@pytest.mark.parametrize(
    "line",
    [
        "value = 2.26164125885919e-4",  # a number's digits after the point
        "dt = 1.1904761904761905e-4",
        'out / f"{STAGE_PREFIX}{dead.pid}-abcd1234"',  # a hex suffix inside a word
        "eps = 2.220446049250313e-16",
        "the SPECTRUM of the modes, the Specimen",
        "an issue of accuracy; tissue 12",
        "t = 12:30 s of a run",  # no time zone
        "the load 1.5 kN on 2 cores",
        "before 1000000.5 s, since 1.0e-8",
        "deadbeef facade 1234567",  # hex words without a digit, numbers without a letter
    ],
)
def test_the_patterns_leave_data_alone(line):
    assert not [name for name, pattern in PATTERNS.items() if pattern.search(line)]
