"""TOML as the web page and the CLI read it: the page's reader (templates/web/toml.js) against the official toml-test
suite (its TOML 1.0.0 cases, tests/data/toml-test/) and the CLI's reader (exporter/validation.py read_toml, tomllib);
files as Windows editors save them (CRLF, a byte-order mark) read alike by both

Every valid case is read as the suite says and as tomllib reads it, or refused for a value kind the page leaves out
(and the file does hold); every invalid case is refused; no file is read by the page differently from the CLI.
"""

from __future__ import annotations

import datetime
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from exporter.cli import main
from exporter.errors import InputFileError
from exporter.validation import read_toml
from tests.conftest import FIXTURES, ROOT, run_node

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

SUITE_ROOT = ROOT / "tests" / "data" / "toml-test"
SUITE = [name for name in (SUITE_ROOT / "files-toml-1.0.0").read_text(encoding="utf-8").splitlines()
         if name.endswith(".toml")]
DRIVER = ROOT / "tests" / "js" / "toml_cases.mjs"
# The value kinds the page refuses by design (toml.js's header), as TomlError.refused names them
REFUSED_KINDS = {"float", "datetime", "large"}
MAX_WHOLE = 2**53 - 1

# Files of our own: as GMs' editors save them, and the faults an outside check found the page reading
OWN_VALID = {
    "crlf-with-comments": (b'# Saved on Windows\r\nsystem = "gurps4e" # the rules\r\n\r\n[sides.a]\r\nname = "A"\r\n'
                           b'note = """\r\nfirst\r\nsecond"""\r\n# the end\r\n'),
    "leading-bom": b'\xef\xbb\xbfsystem = "gurps4e"\nprocedure = "partial"\n',
    "leading-bom-and-crlf": b'\xef\xbb\xbf# Notepad\r\nsystem = "gurps4e"\r\n',
    "sub-table-under-each-array-element": (b'[[sides.a.members]]\nname = "Ava"\n[sides.a.members.gear]\nknife = true\n'
                                           b'[[sides.a.members]]\nname = "Brom"\n[sides.a.members.gear]\nknife = false\n'
                                           b'[sides.a.members.gear.case]\nopen = 1\n'),
    "array-element-under-array-element": b'[[a]]\n[[a.b]]\nx = 1\n[[a.b]]\nx = 2\n[[a]]\n[[a.b]]\nx = 3\n',
    "dotted-keys-then-sub-table": b'[a]\nb.c = 1\nb.d = 2\n[a.b.e]\nf = 3\n',
    "whole-numbers-at-the-edges": (b'top = 9007199254740991\nbottom = -9_007_199_254_740_991\nhex = 0x1F\n'
                                   b'octal = 0o17\nbinary = 0b101\nzero = -0\n'),
    "keys-that-name-object-members": b'__proto__ = 1\nconstructor.prototype.polluted = 2\n[hasOwnProperty]\nx = 3\n',
    "integer-keys-out-of-order": b'b = 1\n10 = 2\n2 = 3\n[t]\n"1" = 1\n0 = 0\n',
    "multi-line-strings": (b'a = """\\\n  one \\\n  two"""\nb = \'\'\'\nraw \\n\'\'\'\nc = """""quoted"""""\n'
                           b"d = '''''x'''''\n"),
}
OWN_INVALID = {
    "bom-mid-file": b'a = 1\n\xef\xbb\xbfb = 2\n',
    "two-leading-boms": b'\xef\xbb\xbf\xef\xbb\xbfa = 1\n',
    "bad-utf8-in-a-string": b'name = "\xff"\n',
    "bad-utf8-overlong": b'a = 1\nname = "\xc0\xaf"\n',
    "bad-utf8-cut-short-at-the-end": b'a = 1\nb = 2\nname = "\xe2\x82',
    "bad-utf8-in-a-comment-line-3": b'a = 1\nb = 2\n# \xed\xa0\x80 an encoded surrogate\n',
    "lone-cr": b'a = 1\rb = 2\n',
    "cr-in-a-comment": b'# one\rtwo\na = 1\n',
    "table-twice-in-one-array-element": b'[[x]]\n[x.y]\n[x.y]\n',
    "table-after-array-of-tables": b'[[x]]\n[x]\n',
    "array-of-tables-after-table": b'[x]\n[[x]]\n',
    "dotted-key-into-a-defined-table": b'[a.b]\nc = 1\n[a]\nb.d = 2\n',
    "header-for-a-dotted-table": b'[a]\nb.c = 1\n[a.b]\n',
    "header-for-a-dotted-table-in-an-array-element": b'[[a]]\nb.c = 1\n[a.b]\n',
    "dotted-key-into-an-inline-table": b'a = {b = 1}\na.c = 2\n',
    "header-into-an-inline-table": b'a = {b = 1}\n[a.c]\n',
    "array-of-tables-onto-a-static-array": b'a = []\n[[a]]\n',
    "leading-zero": b'a = 012\n',
}
OWN_LINES = {"bad-utf8-in-a-comment-line-3": 3, "bad-utf8-overlong": 2, "bad-utf8-cut-short-at-the-end": 3}
# Mutants of the suite's cases (lines dropped, doubled, swapped or borrowed; bytes put in; CRLF; a BOM): files no
# case was written for, which the page must read as tomllib reads them or refuse
MUTANTS = 2000
MUTANT_BYTES = [b"[", b"]", b"[[", b"]]", b"{", b"}", b"=", b".", b",", b'"', b"'", b'"""', b"'''", b"#", b"\\", b"\n",
                b"\r\n", b"\r", b" ", b"a", b"1", b"_", b"-", b"+", b"\x00", b"\x7f", b"\xc3", b"\xff", b"\xef\xbb\xbf"]


def tagged(value: Any) -> Any:
    """toml-test's tagged JSON of what tomllib read (any kind the page refuses tagged by its Python type)"""
    if isinstance(value, dict):
        return {key: tagged(item) for key, item in value.items()}
    if isinstance(value, list):
        return [tagged(item) for item in value]
    if isinstance(value, bool):
        return {"type": "bool", "value": "true" if value else "false"}
    if isinstance(value, int):
        return {"type": "integer", "value": str(value)}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    return {"type": type(value).__name__, "value": str(value)}


def is_leaf(node: dict) -> bool:
    """Whether a tagged JSON object is a value (a table's items are objects and lists, never plain strings)"""
    return set(node) == {"type", "value"} and all(isinstance(item, str) for item in node.values())


def is_array_index(key: str) -> bool:
    return re.fullmatch(r"0|[1-9][0-9]*", key) is not None and int(key) < 2**32 - 1


def in_js_order(node: Any) -> Any:
    """Tagged data with each table as [key, value] pairs in the order a JavaScript object keeps: array indices first"""
    if isinstance(node, list):
        return [in_js_order(item) for item in node]
    if is_leaf(node):
        return node
    keys = sorted((key for key in node if is_array_index(key)), key=int) + [k for k in node if not is_array_index(k)]
    return [[key, in_js_order(node[key])] for key in keys]


def normalised(node: Any) -> Any:
    """Tagged data compared by value: integers as numbers (toml-test writes 0x10 as "16"), tables unordered"""
    if isinstance(node, list):
        return [normalised(item) for item in node]
    if is_leaf(node):
        return (node["type"], int(node["value"]) if node["type"] == "integer" else node["value"])
    return {key: normalised(item) for key, item in node.items()}


def kinds_held(value: Any) -> set[str]:
    """The kinds of value the page refuses by design that tomllib's data holds"""
    if isinstance(value, dict):
        return set().union(*(kinds_held(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(kinds_held(item) for item in value))
    if isinstance(value, float):
        return {"float"}
    if isinstance(value, (datetime.date, datetime.time)):
        return {"datetime"}
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_WHOLE:
        return {"large"}
    return set()


def cli_reads(path: Path) -> dict | None:
    """What the CLI reads from a file, or None when it refuses the file"""
    try:
        return read_toml(path)
    except InputFileError:
        return None


def verdict(page: dict, cli: dict | None, expected: Any = None) -> str:
    """How the page read a file that the CLI read as `cli` (None: refused) and toml-test as `expected` (None: invalid)

    One of "read the same", "refused by design", "refused" (an invalid file), or what went wrong.
    """
    if "crash" in page:
        return f"the reader crashed: {page['crash'][:300]}"
    if "refused" in page:
        refusal = page["refused"]
        if "\n" in refusal["what"]:
            return f"a refusal of more than one line: {refusal!r}"
        if cli is None:
            return "refused"
        if refusal["kind"] in REFUSED_KINDS and refusal["kind"] in kinds_held(cli):
            return "refused by design"
        return f"a valid file refused: line {refusal['line']}: {refusal['what']} (tomllib read it)"
    if cli is None:
        return f"an invalid file read: {json.dumps(page['data'])[:300]}"
    if in_js_order(page["data"]) != in_js_order(tagged(cli)):
        return f"read differently from tomllib: {json.dumps(page['data'])[:300]} != {json.dumps(tagged(cli))[:300]}"
    if expected is not None and normalised(page["data"]) != normalised(expected):
        return f"read differently from toml-test's JSON: {json.dumps(expected)[:300]}"
    return "read the same"


@pytest.fixture(scope="module")
def own_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("own-toml")
    paths = {}
    for group, cases in (("valid", OWN_VALID), ("invalid", OWN_INVALID)):
        for name, data in cases.items():
            paths[f"{group}/{name}"] = folder / f"{group}-{name}.toml"
            paths[f"{group}/{name}"].write_bytes(data)
    return paths


def mutant(texts: list[bytes], rng: random.Random) -> bytes:
    """One of the texts changed in one to three places"""
    data = rng.choice(texts)
    for _ in range(rng.randrange(1, 4)):
        lines = data.split(b"\n")
        at, other = sorted((rng.randrange(len(lines)), rng.randrange(len(lines))))
        cut = rng.randrange(len(data) + 1)
        data = rng.choice([
            b"\n".join(lines[:at] + lines[at + 1:]),
            b"\n".join(lines[:at] + [lines[at]] + lines[at:]),
            b"\n".join(lines[:at] + [lines[other]] + lines[at + 1:other] + [lines[at]] + lines[other + 1:])
            if at < other else data,
            b"\n".join(lines[:at] + [rng.choice(rng.choice(texts).split(b"\n"))] + lines[at:]),
            data[:cut] + rng.choice(MUTANT_BYTES) + data[cut + rng.randrange(2):],
            data.replace(b"\n", b"\r\n"),
            b"\xef\xbb\xbf" + data,
        ])
    return data


@pytest.fixture(scope="module")
def mutants(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("toml-mutants")
    valid = [(SUITE_ROOT / name).read_bytes() for name in SUITE if name.startswith("valid/")]
    texts = valid * 3 + [(SUITE_ROOT / name).read_bytes() for name in SUITE]  # most mutants near a valid file
    rng = random.Random(27)
    paths = [folder / f"{index}.toml" for index in range(MUTANTS)]
    for path in paths:
        path.write_bytes(mutant(texts, rng))
    return paths


@pytest.fixture(scope="module")
def page_read(own_files, mutants, tmp_path_factory) -> dict:
    """Every file read by the page's reader in one Node process: {results: {path: result}, prototypeClean}"""
    listing = tmp_path_factory.mktemp("toml-list") / "list.json"
    paths = [str(SUITE_ROOT / name) for name in SUITE] + [str(path) for path in [*own_files.values(), *mutants]]
    listing.write_text(json.dumps(paths), encoding="utf-8")
    done = run_node(str(DRIVER), str(listing))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def suite_verdict(page_read: dict, name: str) -> str:
    path = SUITE_ROOT / name
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8")) if name.startswith("valid/") else None
    return verdict(page_read["results"][str(path)], cli_reads(path), expected)


def test_the_suite_is_the_toml_1_0_0_list_and_tomllib_passes_it():
    """The cases are toml-test's own list for TOML 1.0.0, and the CLI's reader agrees with every one of them"""
    assert len([name for name in SUITE if name.startswith("valid/")]) == 210
    assert len([name for name in SUITE if name.startswith("invalid/")]) == 499
    wrong = [name for name in SUITE if (cli_reads(SUITE_ROOT / name) is None) == name.startswith("valid/")]
    assert wrong == []


@pytest.mark.parametrize("name", [name for name in SUITE if name.startswith("valid/")])
def test_a_valid_case_is_read_as_the_suite_and_tomllib_read_it_or_refused_by_design(page_read, name):
    assert suite_verdict(page_read, name) in ("read the same", "refused by design")


@pytest.mark.parametrize("name", [name for name in SUITE if name.startswith("invalid/")])
def test_an_invalid_case_is_refused(page_read, name):
    assert suite_verdict(page_read, name) == "refused"


@pytest.mark.parametrize("name", sorted(OWN_VALID))
def test_a_file_of_our_own_is_read_as_tomllib_reads_it(page_read, own_files, name):
    path = own_files[f"valid/{name}"]
    assert cli_reads(path) is not None, "a valid file of our own that tomllib refuses"
    assert verdict(page_read["results"][str(path)], cli_reads(path)) == "read the same"


@pytest.mark.parametrize("name", sorted(OWN_INVALID))
def test_an_invalid_file_of_our_own_is_refused_on_its_line(page_read, own_files, name):
    path = own_files[f"invalid/{name}"]
    assert cli_reads(path) is None, "an invalid file of our own that tomllib reads"
    result = page_read["results"][str(path)]
    assert verdict(result, None) == "refused"
    if name in OWN_LINES:
        assert result["refused"] == {"line": OWN_LINES[name], "what": "not UTF-8 text; save the file as UTF-8",
                                     "kind": None}


def test_a_mutant_is_read_as_tomllib_reads_it_or_refused(page_read, mutants):
    found: dict[str, int] = {}
    wrong = []
    for path in mutants:
        said = verdict(page_read["results"][str(path)], cli_reads(path))
        found[said] = found.get(said, 0) + 1
        if said not in ("read the same", "refused by design", "refused"):
            wrong.append(f"{path.name} {path.read_bytes()[:200]!r}: {said}")
    print(f"{MUTANTS} mutants through the page's reader:", json.dumps(found, sort_keys=True))
    assert wrong == []
    assert found["read the same"] > MUTANTS // 10 and found["refused"] > MUTANTS // 10  # both kinds are tried


def test_no_key_of_a_file_reaches_object_prototype(page_read):
    assert page_read["prototypeClean"]


def test_the_counts(page_read):
    """Count the verdicts, printed for the record (pytest -s): none differs, no invalid case is read"""
    counts: dict[str, int] = {}
    for name in SUITE:
        group = name.split("/")[0]
        found = suite_verdict(page_read, name)
        key = f"{group}: {found if found in ('read the same', 'refused by design', 'refused') else 'differing'}"
        counts[key] = counts.get(key, 0) + 1
    print("toml-test 1.0.0 through the page's reader:", json.dumps(counts, sort_keys=True))
    assert counts.get("valid: differing", 0) == 0 and counts.get("invalid: differing", 0) == 0
    assert counts["valid: read the same"] + counts.get("valid: refused by design", 0) == 210
    assert counts["invalid: refused"] == 499


# --- the CLI: a file as Notepad saves it -----------------------------------------------------------------------------

def windows_saved(text: str, bom: bool = True) -> bytes:
    """A file as Windows Notepad saves it: CRLF line ends, and a leading UTF-8 byte-order mark"""
    return (b"\xef\xbb\xbf" if bom else b"") + text.replace("\n", "\r\n").encode("utf-8")


def test_the_cli_reads_a_scenario_and_a_campaign_as_notepad_saves_them(tmp_path):
    scenario = tmp_path / "scenario.toml"
    scenario.write_bytes(windows_saved((FIXTURES / "scenarios" / "gurps-partial.toml").read_text(encoding="utf-8")))
    plain = CliRunner().invoke(main, ["odds", "--json", str(FIXTURES / "scenarios" / "gurps-partial.toml")])
    saved = CliRunner().invoke(main, ["odds", "--json", str(scenario)])
    assert saved.exit_code == 0, saved.output
    assert saved.output == plain.output
    campaign = tmp_path / "campaign.toml"
    campaign.write_bytes(windows_saved((FIXTURES / "campaigns" / "gurps4e.toml").read_text(encoding="utf-8")))
    checked = CliRunner().invoke(main, ["validate", str(campaign)])
    assert checked.exit_code == 0, checked.output


def test_the_cli_refuses_a_second_byte_order_mark_in_one_line(tmp_path):
    scenario = tmp_path / "scenario.toml"
    scenario.write_bytes(b"\xef\xbb\xbf" + windows_saved('system = "gurps4e"\n'))
    result = CliRunner().invoke(main, ["odds", str(scenario)])
    assert result.exit_code == 2
    assert len(result.output.splitlines()) == 1 and result.output.startswith(f"Error: {scenario}: not valid TOML")
