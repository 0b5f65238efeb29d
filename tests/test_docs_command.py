"""Docs that travel: `ambush docs` serves every page, and everything ambush prints points to a page it serves"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from exporter.cli import main
from exporter.options import system_options
from exporter.rules.systems import SYSTEM_IDS
from tests.conftest import FIXTURES, ROOT, is_binary_output

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

DOCS = ROOT / "docs"
# A reference to a page as ambush prints it: the command in backticks, with a page and a section or without
REFERENCE = re.compile(r"`ambush docs(?: ([^`\s]+))?`")
# What only a clone has: a path into docs/ or to a Markdown file
CLONE_PATH = re.compile(r"(?<![\w-])docs/|[\w/-]+\.md\b")
BAD_INPUTS = sorted((FIXTURES / "bad" / "campaigns").glob("*.toml")) + sorted((FIXTURES / "bad" / "scenarios").glob(
    "*.toml"))

Run = Callable[..., tuple[int, str]]


def in_process(*args: str) -> tuple[int, str]:
    """Run ambush in this process; return its exit code and everything it printed"""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def printed_texts(run: Run, work: Path, bad_inputs: list[Path], options: int = 99) -> Iterator[tuple[str, str]]:
    """Yield (what, text) for everything ambush prints or writes that may point to the docs"""
    commands = ["build", "docs", "examples", "explain", "init", "odds", "simulate", "systems", "validate"]
    yield "--help", run("--help")[1]
    for command in commands:
        yield f"{command} --help", run(command, "--help")[1]
    yield "systems", run("systems")[1]
    for system in SYSTEM_IDS:
        for option in system_options(system)[:options]:
            yield f"explain {option.name}", run("explain", option.name, "--system", system)[1]
        path = work / f"init-{system}.toml"
        run("init", "--system", system, str(path))
        yield f"init {system}", path.read_text(encoding="utf-8")
    yield "explain bogus", run("explain", "bogus")[1]
    from exporter.examples import examples

    yield "examples", run("examples")[1]
    for example in examples():
        path = work / f"example-{example}.toml"
        run("examples", example, "--out", str(path))
        yield f"examples {example}", path.read_text(encoding="utf-8")
    for bad in bad_inputs:
        command = "validate" if bad.parent.name == "campaigns" else "odds"
        yield f"{command} {bad.name}", run(command, str(bad))[1]
    out = work / "dist"
    yield "build", run("build", "--out", str(out))[1]
    for file in sorted(out.rglob("*")):
        # The generated JavaScript cites its sources in comments (docs/dev/architecture.md, citing sources in code):
        # code for readers of the code, never shown at the table.
        if file.is_file() and not is_binary_output(file) and file.suffix != ".js":
            text = file.read_text(encoding="utf-8")
            if file.name == "index.html":  # the web page: the same JavaScript, inline
                text = re.sub(r"<script>.*?</script>", "", text, flags=re.S)
            yield file.relative_to(out).as_posix(), text


def references(text: str) -> set[str]:
    """Return the pages a text points to ("" for the list of pages), whitespace folded as a terminal wraps it"""
    found = {match or "" for match in REFERENCE.findall(" ".join(text.split()))}
    return {name for name in found if name == "" or re.search(r"[a-z]", name)}  # not PAGE, [PAGE]: what to type


def referred_pages(run: Run, work: Path, bad_inputs: list[Path], options: int = 99) -> dict[str, str]:
    """Assert that nothing printed names a clone's path; return each page referred to and what first did"""
    referred: dict[str, str] = {}
    for what, text in printed_texts(run, work, bad_inputs, options):
        assert not CLONE_PATH.findall(text), f"{what} points into a clone: {CLONE_PATH.findall(text)}"
        for reference in references(text):
            referred.setdefault(reference, what)
    assert {"", "campaign", "game-systems", "release", "scenarios", "table", "rules/gurps4e"} <= set(referred)
    return referred


def test_the_list_names_every_page_of_docs_once():
    code, text = in_process("docs")
    assert code == 0
    listed = [line.split()[0] for line in text.splitlines() if line.startswith("  ")]
    files = sorted(DOCS.rglob("*.md"))
    assert len(listed) == len(set(listed)) == len(files)
    assert {"index", "campaign", "game-systems", "table", "rules/gurps4e", "rules/adnd1e", "rules/fallout-ttrpg",
            "dev", "dev/foundry"} <= set(listed)
    assert "  campaign" in text and "every field of `campaign.toml`" in text  # what the index says the page is for


@pytest.mark.parametrize("reference", ["campaign", "campaign.md", "docs/campaign.md", "./campaign"])
def test_a_page_prints_as_text_by_its_name_or_a_clones_path(reference):
    code, text = in_process("docs", reference)
    assert code == 0
    source = (DOCS / "campaign.md").read_text(encoding="utf-8")
    assert text.startswith("# campaign.toml\n")
    assert text.count("\n## ") == source.count("\n## ")
    assert "| `publish` | bool |" in text


def test_a_section_prints_alone():
    code, text = in_process("docs", "rules/gurps4e#a1")
    assert code == 0
    assert text.startswith("### A1: when a stunned character rolls")
    assert "stun_roll_timing" in text and "### A2" not in text and "## Readings" not in text
    code, text = in_process("docs", "dev/foundry#11-compatibility")
    assert code == 0 and text.startswith("### 1.1 Compatibility") and "### 1.2" not in text


def test_a_printed_page_points_to_the_others_by_the_command():
    code, text = in_process("docs", "campaign")
    assert code == 0
    assert "](" not in text
    assert "[A1](rules/gurps4e.md#a1)" in (DOCS / "campaign.md").read_text(encoding="utf-8")
    assert "A1 (`ambush docs rules/gurps4e#a1`)" in text
    assert "`ambush docs game-systems`" in text


@pytest.mark.parametrize(("reference", "message"), [
    ("campain", "Error: no page 'campain'; `ambush docs` lists them; did you mean campaign?"),
    ("rules/gurps", "Error: no page 'rules/gurps'; `ambush docs` lists them; did you mean rules/gurps4e?"),
    ("rules/gurps4e#a77", "Error: no section #a77 in `ambush docs rules/gurps4e`; did you mean a7?"),
    ("../pyproject.toml", "Error: no page '../pyproject.toml'; `ambush docs` lists them"),
])
def test_a_bad_page_is_one_line_exit_2_with_a_suggestion(reference, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, text = in_process("docs", reference)
    assert code == 2
    assert text.splitlines() == [message]
    assert not list(tmp_path.iterdir())


def test_every_page_printed_points_only_to_pages_that_are_served():
    code, text = in_process("docs")
    names = [line.split()[0] for line in text.splitlines() if line.startswith("  ")]
    assert code == 0 and len(names) == len(list(DOCS.rglob("*.md")))
    for name in names:
        code, text = in_process("docs", name)
        assert code == 0, name
        assert not re.findall(r"\]\((?!https?://)[^)\s]*\)", text), f"{name} keeps a link into the clone"
        for reference in references(text):
            code, shown = in_process("docs", reference)
            assert code == 0, f"{name} refers to `ambush docs {reference}`: {shown}"


def test_everything_ambush_prints_points_to_pages_it_serves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    referred = referred_pages(in_process, tmp_path, BAD_INPUTS)
    assert {f"rules/{s}#{o.reading.lower()}" for s in SYSTEM_IDS for o in system_options(s)} <= set(referred)
    for reference, what in sorted(referred.items()):
        code, text = in_process("docs", *([reference] if reference else []))
        assert code == 0 and text.strip(), f"{what} refers to `ambush docs {reference}`, which gives {code}: {text}"


# What the installed package reads for each reference: the page or section `ambush docs` prints, in one process
SERVE = """
import json, sys
from exporter.docs import listing, page_text, pages
from exporter.errors import ExportError
failed, served = {}, {}
for reference in [*pages(), *json.loads(sys.argv[1])]:
    try:
        served[reference] = page_text(reference) if reference else listing()
    except ExportError as err:
        failed[reference] = err.one_line()
from exporter.docs import docs_root
print(json.dumps({"failed": failed, "served": served, "root": str(docs_root())}))
"""


def test_an_installed_wheel_serves_every_page_it_refers_to(installed_ambush, tmp_path):
    work = tmp_path / "elsewhere"
    work.mkdir()

    def run(*args: str) -> tuple[int, str]:
        done = subprocess.run([str(installed_ambush), *args], cwd=work, capture_output=True, text=True, check=False,
                              timeout=120)
        return done.returncode, done.stdout + done.stderr

    code, listed = run("docs")
    assert code == 0 and "rules/gurps4e" in listed
    code, page = run("docs", "rules/fallout-ttrpg#b1")
    assert code == 0 and page.startswith("### B1")
    assert run("docs", "campain")[0] == 2
    bad = [FIXTURES / "bad" / "campaigns" / "foundry-path-outside-system.toml"]
    referred = referred_pages(run, work, bad, options=1)
    assert "rules/fallout-ttrpg#b1" in referred
    python = installed_ambush.parent / "python"
    done = subprocess.run([str(python), "-c", SERVE, json.dumps(sorted(referred))], cwd=work, capture_output=True,
                          text=True, check=True, timeout=120)
    found = json.loads(done.stdout)
    assert found["failed"] == {}
    assert Path(found["root"]).is_relative_to(installed_ambush.parent.parent), "served from a checkout"
    assert set(found["served"]) >= {"index", "campaign", "dev/foundry"}
    assert found["served"]["campaign"] == in_process("docs", "campaign")[1]  # the checkout's page, shipped whole
    pages_said = {reference for text in found["served"].values() for reference in references(text)}
    done = subprocess.run([str(python), "-c", SERVE, json.dumps(sorted(pages_said))], cwd=work, capture_output=True,
                          text=True, check=True, timeout=120)
    assert json.loads(done.stdout)["failed"] == {}


# Every command the docs show a GM, run as written: in inline code or a code block, `ambush ...` or the README's
# `.venv/bin/ambush ...`; a line of a block may chain commands with &&.
CODE_BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
INLINE_COMMAND = re.compile(r"`((?:\.venv/bin/)?ambush(?: [^`]*)?)`")
# What makes a command a synopsis: a placeholder in capitals (SCENARIO.toml, PAGE, N), [optional], a choice a|b, ...,
# <id> or a shell variable; its subcommand and options must exist, it cannot run as written.
PLACEHOLDER = re.compile(r"(?:^|\s)[A-Z][A-Z_]*(?:\.toml|\.json)?(?=\s|$)|[\[\]<>|$]|\.\.\.")
# A command named without what it needs (`ambush odds`, `ambush init --workflow`): a usage error that names it
MENTION = re.compile(r"Missing argument|Missing option|requires an argument")
DOC_PAGES = [*sorted(DOCS.rglob("*.md")), ROOT / "README.md"]


def doc_commands(page: Path) -> list[str]:
    """Return the ambush commands a page shows, in the order they stand, each on one line without its comment"""
    text = page.read_text(encoding="utf-8")
    found: list[tuple[int, str]] = []
    for block in CODE_BLOCK.finditer(text):
        for offset, line in enumerate(block.group(1).splitlines()):
            for part in line.split("  #")[0].split("&&"):
                if re.match(r"\s*(?:\.venv/bin/)?ambush(?:\s|$)", part):
                    found.append((block.start(1) + offset, part.strip().rstrip("\\").strip()))
    outside = CODE_BLOCK.sub(lambda m: " " * len(m.group(0)), text)
    found += [(m.start(), m.group(1)) for m in INLINE_COMMAND.finditer(" ".join(outside.split(" ")))]
    return list(dict.fromkeys(" ".join(command.split()) for _, command in sorted(found)))  # each once, in order


def test_the_docs_show_commands_that_run_as_written():
    commands = {command for page in DOC_PAGES for command in doc_commands(page)}
    assert {"ambush examples", "ambush odds gurps-partial", "ambush simulate adnd-seed-example --seed 7",
            ".venv/bin/ambush init --system gurps4e my-campaign.toml", "ambush docs campaign"} <= commands
    assert not [c for c in commands if "fixtures/" in c], "a command that reads a clone's file"


def test_every_command_of_the_docs_runs_from_an_installed_wheel(installed_ambush, tmp_path):
    failed = []
    for page in DOC_PAGES:
        work = tmp_path / page.relative_to(ROOT).as_posix().replace("/", "_")  # a GM's empty folder per page
        work.mkdir()
        for command in doc_commands(page):
            words = shlex.split(command)[1:]
            if PLACEHOLDER.search(command):
                subcommand = next((w for w in words if not w.startswith("-")), None)
                done = subprocess.run([str(installed_ambush), *([subcommand] if subcommand else []), "--help"],
                                      cwd=work, capture_output=True, text=True, check=False, timeout=120)
                unknown = [option for word in words if word.startswith("--")
                           for option in word.split("=")[0].split("/") if option not in done.stdout]
                if done.returncode != 0 or unknown:
                    failed.append(f"{page.name}: `{command}`: no such command or option {unknown}")
                continue
            done = subprocess.run([str(installed_ambush), *words], cwd=work, capture_output=True, text=True,
                                  check=False, timeout=300)
            said = done.stdout + done.stderr
            if "no such file" in said or not (done.returncode == 0 or (done.returncode == 2 and MENTION.search(said))):
                failed.append(f"{page.name}: `{command}` exits {done.returncode}: {said.strip()[-300:]}")
    assert failed == []
