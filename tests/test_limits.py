"""The limits on what ambush reads (exporter/limits.py): a file beyond one is refused with one line, exit 2, in bounded
time and memory; a bad value is quoted short; the output of a large fight is written, never held

The hostile shapes come from a fuzzing pass (issue 30): a 1 KB file nested 450 deep raised RecursionError, a 40 KB
dotted key took 1.5 GB, messages quoted 1-10 MB values whole, and odds --json of a large fight held gigabytes.
"""

from __future__ import annotations

import json
import sys
import tomllib
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from exporter.bounded_toml import check_structure
from exporter.cli import main
from exporter.limits import (
    FILE_BYTES,
    KEY_CHARACTERS,
    MEMBERS_A_SIDE,
    NAME_CHARACTERS,
    NESTING,
    STRING_CHARACTERS,
    TITLE_CHARACTERS,
)
from exporter.rules.shared import FORMAT_CHARACTER
from tests.bounded import run_bounded
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # seconds of subprocesses: run early (conftest.py)

CAMPAIGN = 'id = "limits"\ntitle = "Limits"\nversion = "1.0.0"\nsystem = "gurps4e"\n'
SCENARIO = ('system = "gurps4e"\nprocedure = "total"\n[sides.a]\nname = "Party"\n[[sides.a.members]]\nname = "Ava"\n'
            'iq = 10\n[sides.b]\n[[sides.b.members]]\nname = "Dog"\niq = 8\n')
# A message quotes a bad value in a few dozen characters; the rest of its line names the file and the field.
LONGEST_LINE = 400
MEGABYTE = 1_000_000


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def one_line_error(result: Result, path: Path, says: str) -> str:
    """Check exit 2 and one short line naming the file that says this; return it"""
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), (result.output[:500], result.exception)
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {path}: "), result.output[:500]
    assert says in lines[0], lines[0][:500]
    assert len(lines[0]) <= LONGEST_LINE + len(str(path)), lines[0][:500]
    return lines[0]


def written(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def command_for(name: str, path: Path, out: Path) -> list[str]:
    """Each command that reads a file of this kind"""
    return {"validate": ["validate", str(path)], "build": ["build", str(path), "--out", str(out)],
            "odds": ["odds", str(path), "--json"], "simulate": ["simulate", str(path), "--seed", "1"]}[name]


NESTED = {
    "arrays 500 deep": "a = " + "[" * 500 + "]" * 500,
    "inline tables 500 deep": "a = " + "{ b = " * 500 + "1" + " }" * 500,
    "arrays one beyond the limit": "a = " + "[" * (NESTING + 1) + "]" * (NESTING + 1),
    "a dotted key of 20,000 parts": ".".join(["a"] * 20_000) + " = 1",
    "a header of one part beyond the limit": "[" + ".".join(["t"] * (NESTING + 1)) + "]\nx = 1",
    "a dotted key under a deep header": "[" + ".".join(["t"] * 20) + "]\n" + ".".join(["k"] * 14) + " = 1",
}


@pytest.mark.parametrize("command", ["validate", "build", "odds", "simulate"])
@pytest.mark.parametrize("shape", NESTED)
def test_a_file_nested_beyond_the_limit_is_refused_with_its_line(shape, command, tmp_path):
    head = SCENARIO if command in ("odds", "simulate") else CAMPAIGN
    path = written(tmp_path, "deep.toml", head + NESTED[shape] + "\n")
    deep_at = 0 if shape.startswith("a header") else NESTED[shape].count("\n")  # the line of the header, or the last
    line = head.count("\n") + 1 + deep_at
    result = invoke(*command_for(command, path, tmp_path / "dist"))
    one_line_error(result, path, f"line {line}: tables and arrays are nested more than {NESTING} deep")
    assert not (tmp_path / "dist").exists()


def test_a_file_at_the_nesting_limit_is_read(tmp_path):
    path = written(tmp_path, "deep.toml", SCENARIO + "[a]\n" + "b = " + "[" * (NESTING - 1) + "]" * (NESTING - 1))
    result = invoke("odds", str(path))
    one_line_error(result, path, "a: unknown field")  # read, then refused for what it is, not for its depth


def test_a_dotted_key_of_20000_parts_is_refused_in_little_time_and_memory(tmp_path):
    path = written(tmp_path, "dotted.toml", CAMPAIGN + ".".join(["a"] * 20_000) + " = 1\n")
    done = run_bounded(["validate", str(path)], memory_mb=200, seconds=20)
    assert (done.code, done.traceback) == (2, False), done.stderr[-500:]
    assert f"nested more than {NESTING} deep" in done.stderr


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "large.toml"
    path.write_text(CAMPAIGN + 'description = "' + "A" * FILE_BYTES + '"\n', encoding="utf-8")
    for command in ("validate", "odds"):
        result = invoke(command, str(path))
        one_line_error(result, path, f"is larger than {FILE_BYTES // 1024 // 1024} MiB")


def test_a_key_longer_than_the_limit_is_refused(tmp_path):
    key = "k" * (KEY_CHARACTERS + 1)
    path = written(tmp_path, "key.toml", CAMPAIGN + f'[options]\n"{key}" = 1\n')
    line = one_line_error(invoke("validate", str(path)), path, f"line 6: the key 'kkkk")
    assert f"({KEY_CHARACTERS + 1} characters) is longer than {KEY_CHARACTERS} characters" in line
    path = written(tmp_path, "key.toml", CAMPAIGN + f'[options]\n"{key[1:]}" = 1\n')
    one_line_error(invoke("validate", str(path)), path, "unknown field")  # at the limit: read, then judged


def tree_depth(value: object, level: int = 0) -> int:
    """The deepest table or array of parsed TOML, the top level 0"""
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return max([level] + [tree_depth(item, level + 1) for item in inner if isinstance(item, dict | list)])


SUITE = ROOT / "tests" / "data" / "toml-test"
VALID = [name for name in (SUITE / "files-toml-1.0.0").read_text(encoding="utf-8").splitlines()
         if name.startswith("valid/") and name.endswith(".toml")]


def test_the_scan_that_names_the_line_nests_every_valid_toml_test_case_as_tomllib_does():
    checked = 0
    for name in VALID:
        text = (SUITE / name).read_bytes().decode("utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue  # a case of a newer TOML than the standard library's
        assert check_structure(text) == tree_depth(data), name
        checked += 1
    assert checked > 150


# --- a bad value is quoted short --------------------------------------------------------------------------------------

HUGE = "A" * MEGABYTE
# (file kind, the text that holds the bad value, the field the message names)
ECHOED = {
    "an unknown system": ("campaign", CAMPAIGN.replace('"gurps4e"', f'"{HUGE}"'), "system"),
    "a title with a control character": ("campaign", CAMPAIGN.replace('"Limits"', f'"{HUGE}\\u0007"'), "title"),
    "a version": ("campaign", CAMPAIGN.replace('"1.0.0"', f'"{HUGE}"'), "version"),
    "an author's name": ("campaign", CAMPAIGN + f'[[authors]]\nname = "{HUGE}"\n', "authors[0].name"),
    "a string override": ("campaign", CAMPAIGN + f'[strings.de]\n"Status.Surprised" = "{HUGE}"\n',
                          "strings.de.Status.Surprised"),
    "a Roll20 reader": ("campaign", CAMPAIGN + f'[roll20.attributes]\niq = "{HUGE} "\n', "roll20.attributes.iq"),
    "a procedure": ("scenario", SCENARIO.replace('"total"', f'"{HUGE}"'), "procedure"),
    "a member's name": ("scenario", SCENARIO.replace('"Ava"', f'"{HUGE}"'), "sides.a.members[0].name"),
    "a side's name": ("scenario", SCENARIO.replace('"Party"', f'"{HUGE}"'), "sides.a.name"),
    "a scenario's system": ("scenario", SCENARIO.replace('"gurps4e"', f'"{HUGE}"'), "system"),
    "a leader": ("scenario", SCENARIO.replace("procedure = \"total\"", 'procedure = "partial"').replace(
        '[sides.a]\n', f'[sides.a]\nleader = "{"B" * NAME_CHARACTERS}"\n'), "sides.a.leader"),
}


@pytest.mark.parametrize("case", ECHOED)
def test_a_bad_value_of_a_megabyte_is_quoted_in_a_few_dozen_characters(case, tmp_path):
    kind, text, field = ECHOED[case]
    path = written(tmp_path, f"{kind}.toml", text)
    result = invoke("validate" if kind == "campaign" else "odds", str(path))
    line = one_line_error(result, path, f"{field}: ")
    assert "AAAA" not in line or "characters)" in line  # the value cut, and its length said


@pytest.mark.parametrize(("field", "limit"), [("title", TITLE_CHARACTERS), ("authors", TITLE_CHARACTERS),
                                              ("strings", STRING_CHARACTERS)])
def test_text_fields_are_held_to_their_documented_length(field, limit, tmp_path):
    def campaign(length: int) -> str:
        value = "x" * length
        return {"title": CAMPAIGN.replace('"Limits"', f'"{value}"'),
                "authors": CAMPAIGN + f'[[authors]]\nname = "{value}"\n',
                "strings": CAMPAIGN + f'[strings.de]\n"Status.Surprised" = "{value}"\n'}[field]

    assert invoke("validate", str(written(tmp_path, "ok.toml", campaign(limit)))).exit_code == 0
    path = written(tmp_path, "long.toml", campaign(limit + 1))
    one_line_error(invoke("validate", str(path)), path, f"at most {limit} characters")


# --- invisible format characters --------------------------------------------------------------------------------------

FORMAT = {"right-to-left override": "\u202e", "left-to-right isolate": "\u2066", "zero width space": "\u200b",
          "byte order mark": "\ufeff", "soft hyphen": "\u00ad", "Arabic letter mark": "\u061c"}


@pytest.mark.parametrize("character", FORMAT)
def test_a_name_or_title_with_an_invisible_format_character_is_refused(character, tmp_path):
    bad = f"Ava{FORMAT[character]}gnilleps"
    for kind, text, field in [("campaign", CAMPAIGN.replace('"Limits"', f'"{bad}"'), "title"),
                              ("campaign", CAMPAIGN + f'[[authors]]\nname = "{bad}"\n', "authors[0].name"),
                              ("scenario", SCENARIO.replace('"Ava"', f'"{bad}"'), "sides.a.members[0].name"),
                              ("scenario", SCENARIO.replace('"Party"', f'"{bad}"'), "sides.a.name")]:
        path = written(tmp_path, f"{kind}.toml", text)
        line = one_line_error(invoke("validate" if kind == "campaign" else "odds", str(path)), path, f"{field}: ")
        assert f"invisible format character U+{ord(FORMAT[character]):04X}" in line


def test_every_format_character_but_the_joiners_is_refused():
    known = [chr(code) for code in range(sys.maxunicode + 1) if unicodedata.category(chr(code)) == "Cf"]
    assert [c for c in known if not FORMAT_CHARACTER.match(c)] == ["\u200c", "\u200d"]  # Persian, Indic, emoji need them


def test_the_joiners_stay_in_a_name(tmp_path):
    path = written(tmp_path, "scenario.toml", SCENARIO.replace('"Ava"', '"می\u200cخواهم 👩\u200d🚀"'))
    assert invoke("odds", str(path)).exit_code == 0


# --- the members of a side --------------------------------------------------------------------------------------------


def crowd(tmp_path: Path, count: int, profiles: int = 3) -> Path:
    """A GURPS total surprise of count members a side, of a few profiles"""
    lines = ['system = "gurps4e"', 'procedure = "total"']
    for key in "ab":
        lines.append(f"[sides.{key}]")
        for index in range(count):
            lines += [f"[[sides.{key}.members]]", f'name = "{key}{index}"', f"iq = {9 + index % profiles}"]
    return written(tmp_path, f"crowd-{count}.toml", "\n".join(lines) + "\n")


def test_a_side_of_more_members_than_the_limit_is_refused(tmp_path):
    path = crowd(tmp_path, MEMBERS_A_SIDE + 1)
    for command in ("odds", "simulate"):
        one_line_error(invoke(command, str(path)), path,
                       f"sides.a.members: lists {MEMBERS_A_SIDE + 1:,} members; a side has at most {MEMBERS_A_SIDE:,}")


# The address space of a Python that has read a fight of 10,000 a side and computed its odds is about 60 MB; an output
# held whole took more than 120 MB.
OUTPUT_MB = 100


@pytest.mark.parametrize("args", [["odds", "--json"], ["odds", "--svg", "chart.svg"], ["simulate", "--json"]],
                         ids=["odds --json", "odds --svg", "simulate --json"])
def test_the_output_of_a_fight_at_the_limit_is_written_as_it_is_made(args, tmp_path):
    path = crowd(tmp_path, MEMBERS_A_SIDE)
    command = [args[0], str(path), *[str(tmp_path / a) if a.endswith(".svg") else a for a in args[1:]]]
    done = run_bounded(command + (["--seed", "1"] if args[0] == "simulate" else []), memory_mb=OUTPUT_MB,
                       seconds=60)
    assert (done.code, done.traceback) == (0, False), done.stderr[-500:]
    assert len(done.stdout) > MEMBERS_A_SIDE * 20 or (tmp_path / "chart.svg").stat().st_size > MEMBERS_A_SIDE * 200


def test_the_documented_limits_are_the_limits():
    campaign = (ROOT / "docs" / "campaign.md").read_text(encoding="utf-8")
    scenarios = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for row in [f"| a campaign or scenario file | {FILE_BYTES // 1024 // 1024} MiB |", f"| {NESTING} deep |",
                f"| one key, or one part of a dotted key | {KEY_CHARACTERS} characters |",
                f"| `title`, an author's `name` | {TITLE_CHARACTERS} characters |",
                f"| one string override in `[strings.LANG]` | {STRING_CHARACTERS:,} characters |"]:
        assert row in campaign, row
    assert f"a side has at most\n{MEMBERS_A_SIDE:,} members" in scenarios
    assert f"name at most {NAME_CHARACTERS} characters" in scenarios


# --- the web page's opened file: the same limits, refused on the same line ---------------------------------------------


def page_reads(texts: list, folder: Path) -> list[dict]:
    """Read texts with the page's TOML reader held to ambush's limits (tests/js/toml_limits.mjs)"""
    from exporter.limits import file_limits
    from tests.conftest import run_node

    listing = folder / "cases.json"
    listing.write_text(json.dumps({"limits": file_limits(), "texts": texts}), encoding="utf-8")
    done = run_node(str(ROOT / "tests" / "js" / "toml_limits.mjs"), str(listing))
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def ambush_line(text: str) -> int | None:
    """The line ambush refuses a text on for a limit, or None when it reads it"""
    from exporter.bounded_toml import LimitError, loads_bounded

    try:
        loads_bounded(text)
    except LimitError as err:
        return int(str(err).split(":")[0].removeprefix("line "))
    return None


def test_the_page_refuses_a_file_beyond_a_limit_on_the_line_ambush_does(tmp_path):
    texts = [SCENARIO + NESTED[shape] + "\n" for shape in NESTED]
    texts += [SCENARIO + "[a]\n" + "b = " + "[" * (NESTING - 1) + "]" * (NESTING - 1) + "\n",
              SCENARIO + "[[x.y]]\n[[x.y.z]]\n" + "[" + ".".join(["t"] * (NESTING - 4)) + "]\nk = 1\n",
              SCENARIO + f'"{"k" * (KEY_CHARACTERS + 1)}" = 1\n', SCENARIO + f'"{"k" * KEY_CHARACTERS}" = 1\n',
              SCENARIO + "a = " + "{ b = " * 5000 + "1" + " }" * 5000 + "\n"]
    results = page_reads(texts, tmp_path)
    for text, result in zip(texts, results, strict=True):
        line = ambush_line(text)
        if line is None:
            assert result == {"read": True}, (text[:200], result)
        else:
            assert result.get("line") == line, (text[:200], result)
            assert "deep" in result["what"] or "key of" in result["what"], result
    assert sum("line" in result for result in results) >= 7


def test_the_page_refuses_a_file_larger_than_the_limit(tmp_path):
    results = page_reads([{"bytes": FILE_BYTES + 1}, {"bytes": FILE_BYTES}, " " * (FILE_BYTES + 1)], tmp_path)
    assert results == [{"line": 1, "what": f"larger than {FILE_BYTES // 1024 // 1024} MiB, the largest file this page "
                                           "reads"}, {"read": True}, results[0]]
