"""The ambush CLI: odds and simulate on every example scenario, bad input, version"""

from __future__ import annotations

import io
import itertools
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from exporter import __version__
from exporter.campaign import TARGETS
from exporter.cli import main
from exporter.rules.systems import SYSTEM_IDS
from tests.conftest import ROOT, SCENARIOS, TARGET_NAMES, relative_files

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_version():
    code, output = run("--version")
    assert code == 0 and output.strip() == f"ambush, version {__version__}"


def help_text(*command: str) -> str:
    return CliRunner().invoke(main, [*command, "--help"], terminal_width=80).output


def described(text: str) -> str:
    """A command's help before its options: what the command does"""
    return text.split("\nOptions:\n")[0]


def option_help(text: str, option: str) -> str:
    """One option's help: its line and the lines that go on with it"""
    lines = text.split(f"\n  {option}", 1)[1].splitlines()
    return "\n".join([lines[0], *itertools.takewhile(lambda line: not line.lstrip().startswith("-"), lines[1:])])


def test_every_target_has_the_name_a_gm_reads():
    assert list(TARGET_NAMES) == list(TARGETS)


@pytest.mark.parametrize("text", [
    pytest.param(lambda: described(help_text()), id="ambush"),
    pytest.param(lambda: next(line for line in help_text().splitlines() if line.startswith("  build ")),
                 id="ambush: build"),
    pytest.param(lambda: described(help_text("build")), id="build"),
    pytest.param(lambda: described(help_text("init")), id="init"),
    pytest.param(lambda: option_help(help_text("init"), "--workflow"), id="init --workflow"),
    pytest.param(lambda: described(help_text("release")), id="release"),
])
def test_every_help_that_tells_what_ambush_builds_names_every_target(text):
    said = " ".join(text().split())
    assert [name for name in TARGET_NAMES.values() if name not in said] == [], said


def test_python_dash_m_runs_the_same_program():
    done = subprocess.run([sys.executable, "-m", "exporter", "--version"], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == f"ambush, version {__version__}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_odds_table(path, snapshot):
    code, output = run("odds", str(path))
    assert code == 0
    assert output == snapshot


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_odds_json(path, snapshot):
    code, output = run("odds", str(path), "--json")
    assert code == 0
    data = json.loads(output)
    assert list(data["surprise"]) == ["a", "b", "none"]
    assert abs(sum(data["surprise"].values()) - 1) < 1e-9
    assert output == snapshot


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_simulate(path, snapshot):
    code, output = run("simulate", str(path), "--seed", "7")
    assert code == 0
    assert output == snapshot


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_simulate_json(path, snapshot):
    code, output = run("simulate", str(path), "--seed", "7", "--json")
    assert code == 0
    assert json.loads(output)["seed"] == 7
    assert output == snapshot


def test_same_seed_same_story_and_another_seed_can_differ():
    path = str(ROOT / "fixtures/scenarios/gurps-partial.toml")
    stories = {run("simulate", path, "--seed", str(seed))[1] for seed in range(12)}
    assert run("simulate", path, "--seed", "3") == run("simulate", path, "--seed", "3")
    assert len(stories) > 1


def test_simulate_without_seed_prints_the_seed_it_chose():
    path = str(ROOT / "fixtures/scenarios/gurps-partial.toml")
    code, output = run("simulate", path, "--json")
    seed = json.loads(output)["seed"]
    assert code == 0
    assert run("simulate", path, "--json", "--seed", str(seed))[1] == output


GURPS_MEMBER = '[[sides.{side}.members]]\nname = "{name}"\niq = {iq}\n'


def gurps(extra_a: str = "", extra_b: str = "", system: str = "gurps4e", a_name: str = "Ava", b_name: str = "Bo",
          a_iq: int = 10) -> str:
    return (f'system = "{system}"\nprocedure = "partial"\n[sides.a]\n{extra_a}\n'
            + GURPS_MEMBER.format(side="a", name=a_name, iq=a_iq)
            + f"[sides.b]\n{extra_b}\n" + GURPS_MEMBER.format(side="b", name=b_name, iq=10))


BAD_SCENARIOS = {
    "unknown-system": (gurps(system="gurps3e"), "system: unknown system 'gurps3e'"),
    "leader-not-member": (gurps(extra_a='leader = "Zed"'), "sides.a.leader: 'Zed' is not a member of this side"),
    "iq-zero": (gurps(a_iq=0), "sides.a.members[0].iq: Input should be greater than or equal to 1 (got 0)"),
    "same-name": (gurps(b_name="Ava"), "sides.b.members[0].name: 'Ava' is used more than once"),
    "other-system-field": (gurps(extra_b="surprised_on = 2"),
                           "sides.b.surprised_on: is a field of adnd1e, not of gurps4e"),
    "toml-syntax": ('system = "gurps4e\n', "not valid TOML"),
    "no-system": ('procedure = "partial"\n', "system: missing"),
    "bad-procedure": (gurps().replace('"partial"', '"ambush"'), "procedure: Input should be"),
}


@pytest.mark.parametrize("case", sorted(BAD_SCENARIOS))
@pytest.mark.parametrize("command", ["odds", "simulate"])
def test_bad_scenarios_exit_2_with_one_line_naming_file_and_field(case, command, tmp_path):
    text, expected = BAD_SCENARIOS[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    code, output = run(command, str(path))
    assert code == 2
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith(f"Error: {path}: ")
    assert expected in lines[0]
    assert "Traceback" not in output


def test_missing_scenario_file(tmp_path):
    code, output = run("odds", str(tmp_path / "nowhere.toml"))
    assert code == 2 and output.strip() == (f"Error: {tmp_path / 'nowhere.toml'}: no such file; `ambush examples` lists "
                                            "the example scenarios that come with ambush")


def test_build_without_campaigns_builds_the_examples(tmp_path):
    code, output = run("build", "--out", str(tmp_path / "dist"))
    assert code == 0, output
    examples = sorted(tomllib.loads(path.read_text(encoding="utf-8"))["id"]
                      for path in (ROOT / "fixtures" / "campaigns").glob("*.toml"))
    assert len(examples) == len(SYSTEM_IDS)  # one example campaign a system
    assert sorted(p.name for p in (tmp_path / "dist").iterdir() if not p.name.startswith(".")) == examples
    assert f"wrote {tmp_path / 'dist' / 'ambush-gurps-example'}" in output


def test_installed_console_script_matches():
    script = Path(sys.executable).with_name("ambush")
    if not script.exists():
        pytest.skip("the ambush console script is not installed next to this interpreter")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"ambush, version {__version__}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_odds_svg_is_a_self_contained_chart(path, tmp_path, snapshot):
    from xml.etree import ElementTree

    svg = tmp_path / "chart.svg"
    code, output = run("odds", str(path), "--svg", str(svg))
    assert code == 0, output
    text = svg.read_text(encoding="utf-8")
    root = ElementTree.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "href" not in text and "<script" not in text
    assert len(root.findall("{http://www.w3.org/2000/svg}rect")) > 3
    assert text == snapshot


def test_odds_svg_escapes_names(tmp_path):
    from xml.etree import ElementTree

    scenario = tmp_path / "s.toml"
    scenario.write_text(gurps().replace('name = "Ava"', 'name = "<b>&\\"Ava\\""'), encoding="utf-8")
    code, output = run("odds", str(scenario), "--svg", str(tmp_path / "c.svg"))
    assert code == 0, output
    texts = [t.text for t in ElementTree.parse(tmp_path / "c.svg").getroot().iter("{http://www.w3.org/2000/svg}text")]
    assert any(t and t.startswith('<b>&"Ava"') for t in texts)


def test_odds_svg_to_an_unwritable_path_is_bad_input(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    code, output = run("odds", str(ROOT / "fixtures/scenarios/gurps-total.toml"), "--svg",
                       str(tmp_path / "file" / "chart.svg"))
    assert code == 2 and output.startswith(f"Error: {tmp_path / 'file' / 'chart.svg'}: cannot be written")


def test_odds_svg_into_a_missing_folder_is_refused_and_creates_nothing(tmp_path):
    chart = tmp_path / "no-such-folder" / "deeper" / "chart.svg"
    code, output = run("odds", str(ROOT / "fixtures/scenarios/gurps-total.toml"), "--svg", str(chart))
    assert code == 2
    assert output == f"Error: {chart}: cannot be written: the folder {chart.parent} does not exist\n"
    assert list(tmp_path.iterdir()) == []


def test_systems_lists_every_system_procedure_and_option(snapshot):
    code, output = run("systems")
    assert code == 0
    for word in (*SYSTEM_IDS, "quick-contest", "stun_roll_timing", "cautious_sleeper_wakes"):
        assert word in output
    assert output == snapshot


def test_build_with_jobs_writes_the_same_bytes_and_no_progress_off_a_terminal(tmp_path):
    one = run("build", "--out", str(tmp_path / "one"))
    two = run("build", "--out", str(tmp_path / "two"), "--jobs", "2")
    assert one[0] == two[0] == 0
    assert "building" not in one[1] and f"{len(SYSTEM_IDS)} campaigns built into" in one[1]  # one example a system
    for rel in relative_files(tmp_path / "one"):
        if not rel.startswith("."):
            assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes(), rel


class Terminal(io.StringIO):
    """A stderr that says it is a terminal"""

    def isatty(self) -> bool:
        return True


def test_progress_rewrites_one_terminal_line_per_campaign_and_clears_it(monkeypatch):
    from exporter.cli import Progress

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    progress = Progress(2)
    progress("first")
    progress("second")
    progress.done()
    assert terminal.getvalue() == "\r\033[Kbuilding 1/2: first\r\033[Kbuilding 2/2: second\r\033[K"


def test_build_shows_progress_on_a_terminal(tmp_path, monkeypatch):
    from exporter.cli import build

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    build.main(["--out", str(tmp_path / "dist"), "--no-zip"], standalone_mode=False)
    assert f"building {len(SYSTEM_IDS)}/{len(SYSTEM_IDS)}: ambush-" in terminal.getvalue()


def ambush(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user does, in a folder of his"""
    return subprocess.run([sys.executable, "-m", "exporter", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)


def campaign_text(campaign_id: str, targets: str = '["foundry", "roll20"]', roll20: str = "") -> str:
    """A small GURPS campaign building these targets"""
    return (f'id = "{campaign_id}"\ntitle = "T"\nversion = "1.0.0"\nsystem = "gurps4e"\ntargets = {targets}\n'
            + (f"[roll20]\n{roll20}\n" if roll20 else ""))


def test_a_target_the_campaign_does_not_build_is_one_line_exit_2_and_nothing_written(tmp_path):
    (tmp_path / "r20.toml").write_text(campaign_text("only-roll20", '["roll20"]'), encoding="utf-8")
    done = ambush("build", "r20.toml", "--target", "foundry", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["Error: r20.toml: targets: builds roll20, not foundry: "
                                        "nothing to build with --target foundry"]
    assert not (tmp_path / "dist").exists(), "no output folder left behind"


def test_with_several_campaigns_those_that_build_the_target_are_built_and_the_rest_named(tmp_path):
    (tmp_path / "r20.toml").write_text(campaign_text("only-roll20", '["roll20"]'), encoding="utf-8")
    (tmp_path / "both.toml").write_text(campaign_text("both"), encoding="utf-8")
    done = ambush("build", "r20.toml", "both.toml", "--target", "foundry", "--no-zip", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "dist").iterdir() if not p.name.startswith(".")) == ["both"]
    assert "warning: r20.toml: skipped: it builds roll20, not foundry" in done.stderr.splitlines()


def test_a_reader_table_that_leaves_out_an_input_the_sheet_holds_is_warned_of_and_still_builds(tmp_path):
    # `ambush init` writes the 2024-only reader commented out; a GM who then switches to the 2024 rules keeps a table
    # without it. The sheets hold it (dnd5e's init.total, D&D 5E by Roll20's initiative_bonus): say so, once a table.
    text = ('id = "dnd-late"\ntitle = "T"\nversion = "1.0.0"\nsystem = "dnd5e"\ntargets = ["foundry", "roll20"]\n'
            '[options]\nrules = "2024"\n'
            '[foundry.attributes]\nstealth = "system.skills.ste.total"\npassive_perception = "system.skills.prc.passive"\n'
            '[roll20.attributes]\nstealth = { set = "stealth_bonus" }\npassive_perception = { set = "passive_wisdom" }\n')
    (tmp_path / "late.toml").write_text(text, encoding="utf-8")
    done = ambush("build", "late.toml", "--no-zip", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "warning: dnd-late: foundry.attributes has no reader for initiative, which the rules read: it is asked at the "
        'table, not read from the sheet; the sheet\'s reader is initiative = "system.attributes.init.total"',
        "warning: dnd-late: roll20.attributes has no reader for initiative, which the rules read: it is asked at the "
        'table, not read from the sheet; the sheet\'s reader is initiative = { set = "initiative_bonus" }']
    # Under the 2014 rules nothing reads the Initiative bonus: no warning
    (tmp_path / "late.toml").write_text(text.replace('"2024"', '"2014"'), encoding="utf-8")
    quiet = ambush("build", "late.toml", "--no-zip", "--out", "dist2", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


@pytest.mark.parametrize("command", ["build", "validate"])
def test_without_arguments_the_campaign_of_the_folder_is_read_else_the_examples(command, tmp_path):
    extra = ["--no-zip", "--out", "dist"] if command == "build" else []
    (tmp_path / "campaign.toml").write_text(campaign_text("mine"), encoding="utf-8")
    done = ambush(command, *extra, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "no campaign named: reading campaign.toml in this folder" in done.stderr
    if command == "build":
        assert sorted(p.name for p in (tmp_path / "dist").iterdir() if not p.name.startswith(".")) == ["mine"]
    else:
        assert done.stdout.strip() == "campaign.toml: ok (gurps4e, mine 1.0.0)"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = ambush(command, *extra, cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert "no campaign.toml in this folder: reading the bundled examples" in done.stderr
    assert done.stdout.count("ambush-gurps-example") == 1


def test_the_script_json_warning_only_where_a_campaign_asks_to_publish_and_once_per_campaign(tmp_path):
    (tmp_path / "a.toml").write_text(campaign_text("camp-a", roll20="publish = true"), encoding="utf-8")
    (tmp_path / "b.toml").write_text(campaign_text("camp-b", roll20="publish = true"), encoding="utf-8")
    (tmp_path / "quiet.toml").write_text(campaign_text("camp-q", roll20="publish = false"), encoding="utf-8")
    (tmp_path / "unsaid.toml").write_text(campaign_text("camp-u"), encoding="utf-8")
    (tmp_path / "foundry.toml").write_text(campaign_text("camp-f", '["foundry"]', roll20="publish = true"),
                                           encoding="utf-8")
    files = ["a.toml", "b.toml", "quiet.toml", "unsaid.toml", "foundry.toml"]
    done = ambush("build", *files, "--no-zip", "--jobs", "2", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"warning: camp-{name}: script.json not written: [roll20] publish is true, but user_ids is not set; the "
        "one-click script repository requires the authors' Roll20 user ids (the script itself works when pasted into "
        "the Mod page)" for name in "ab"]
    for name in "abqu":
        assert not (tmp_path / "dist" / f"camp-{name}" / "roll20" / "script.json").exists()
    check = ambush("build", *files, "--no-zip", "--check", "--out", "dist", cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stderr == ""


def test_a_campaign_fresh_from_init_builds_without_a_word_on_stderr_and_so_do_the_examples(tmp_path):
    assert ambush("init", "--system", "gurps4e", cwd=tmp_path).returncode == 0
    done = ambush("build", "campaign.toml", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = ambush("build", "--no-zip", cwd=elsewhere)
    assert done.returncode == 0
    assert done.stderr.splitlines() == ["no campaign named and no campaign.toml in this folder: reading the bundled "
                                        "examples"]


def test_publish_false_says_nothing_of_script_json_anywhere(tmp_path):
    (tmp_path / "quiet.toml").write_text(campaign_text("camp-q", roll20="publish = false"), encoding="utf-8")
    (tmp_path / "unsaid.toml").write_text(campaign_text("camp-u"), encoding="utf-8")
    done = ambush("build", "quiet.toml", "unsaid.toml", "--no-zip", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    quiet = (tmp_path / "dist" / "camp-q" / "roll20" / "README.md").read_text(encoding="utf-8")
    assert "script.json" not in quiet and "user_ids" not in quiet and "rebuild" not in quiet
    unsaid = (tmp_path / "dist" / "camp-u" / "roll20" / "README.md").read_text(encoding="utf-8")
    assert 'name its authors\' Roll20 user\nids in the campaign (`[roll20] user_ids = ["123456"]`) and rebuild' in unsaid


def test_check_of_a_dist_never_built_is_one_line_per_campaign(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.toml").write_text(campaign_text(f"camp-{name}"), encoding="utf-8")
    done = ambush("build", "a.toml", "b.toml", "--check", "--out", "dist", cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "out of date:" and len(lines) == 3
    assert [line.split(" (")[0] for line in lines[1:]] == ["missing: camp-a/", "missing: camp-b/"]
    assert all(line.endswith(" files)") for line in lines[1:])
    ambush("build", "a.toml", "--out", "dist", cwd=tmp_path)
    shutil.rmtree(tmp_path / "dist" / "camp-a" / "roll20")
    (tmp_path / "dist" / "camp-a" / "foundry" / "module.json").unlink()
    done = ambush("build", "a.toml", "--check", "--out", "dist", cwd=tmp_path)
    assert done.stdout.splitlines()[1:] == ["missing: camp-a/foundry/module.json",
                                            "missing: camp-a/roll20/ (a folder of 6 files)"]  # the script, README.md, 4 macros


def test_check_compares_the_zip_as_the_dist_was_built_unless_told(tmp_path):
    (tmp_path / "a.toml").write_text(campaign_text("camp-a"), encoding="utf-8")
    assert ambush("build", "a.toml", "--no-zip", "--out", "dist", cwd=tmp_path).returncode == 0
    done = ambush("build", "a.toml", "--check", "--out", "dist", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "dist is up to date\n")
    done = ambush("build", "a.toml", "--check", "--zip", "--out", "dist", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "out of date:\nmissing: camp-a/camp-a-1.0.0.zip\n")
    assert ambush("build", "a.toml", "--out", "dist", cwd=tmp_path).returncode == 0
    assert ambush("build", "a.toml", "--check", "--out", "dist", cwd=tmp_path).returncode == 0
    done = ambush("build", "a.toml", "--check", "--no-zip", "--out", "dist", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "out of date:\nextra: camp-a/camp-a-1.0.0.zip\n")
    (tmp_path / "dist" / "camp-a" / "camp-a-1.0.0.zip").write_bytes(b"not the zip")
    done = ambush("build", "a.toml", "--check", "--out", "dist", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "out of date:\nchanged: camp-a/camp-a-1.0.0.zip\n")
