"""The examples that come with ambush: listed, written out to edit, and read by name by `ambush odds` and `simulate`"""

from __future__ import annotations

import json

from click.testing import CliRunner

from exporter.cli import main
from tests.conftest import CAMPAIGNS, SCENARIOS


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_list_names_every_example_scenario_and_campaign_with_what_it_is():
    code, out, _ = run("examples")
    assert code == 0
    listed = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines() if line.startswith("  ")}
    assert list(listed) == [path.stem for path in [*SCENARIOS, *CAMPAIGNS]]
    assert listed["gurps-partial"] == "GURPS 4e, partial surprise: two patrols bump into each other"
    assert listed["gurps4e"] == "An example campaign for GURPS 4th edition with GURPS Game Aid in Foundry"
    assert "`ambush odds NAME`" in out and "`ambush examples NAME`" in out


def test_an_example_is_written_out_as_it_ships_and_never_over_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("examples", "gurps-partial") == (0, "wrote gurps-partial.toml\n", "")
    shipped = next(path for path in SCENARIOS if path.stem == "gurps-partial")
    assert (tmp_path / "gurps-partial.toml").read_bytes() == shipped.read_bytes()
    code, _, err = run("examples", "gurps-partial.toml")
    assert (code, err) == (2, "Error: gurps-partial.toml: already exists; choose another path with --out\n")
    assert run("examples", "adnd1e", "--out", "mine.toml")[:2] == (0, "wrote mine.toml\n")
    code, _, err = run("examples", "gurps-partal")
    assert (code, err) == (2, "Error: no example 'gurps-partal'; `ambush examples` lists them; did you mean "
                              "gurps-partial?\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gurps-partial.toml", "mine.toml"]


def test_odds_and_simulate_read_an_example_by_name_and_say_so_on_stderr(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shipped = next(path for path in SCENARIOS if path.stem == "gurps-partial")
    code, out, err = run("odds", "gurps-partial", "--json")
    assert code == 0 and out == run("odds", str(shipped), "--json")[1]
    assert json.loads(out)["procedure"] == "partial"
    assert err == "reading the example gurps-partial (`ambush examples gurps-partial` writes it here to edit)\n"
    code, out, _ = run("simulate", "adnd-seed-example", "--seed", "7")
    assert code == 0 and out.startswith("adnd1e · roll · seed 7")
    assert list(tmp_path.iterdir()) == []


def test_the_gms_own_copy_is_read_before_the_example_it_came_from(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("examples", "gurps-partial")
    copy = tmp_path / "gurps-partial.toml"
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text.replace("iq = 12", "iq = 8", 1), encoding="utf-8")  # Ava, who leads the party
    code, out, err = run("odds", "gurps-partial", "--json")
    assert code == 0 and out != run("odds", str(next(p for p in SCENARIOS if p.stem == "gurps-partial")), "--json")[1]
    assert err == "reading gurps-partial.toml\n"


def test_a_campaign_is_no_scenario_and_a_path_is_no_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run("odds", "gurps4e")
    assert code == 2 and err.startswith("Error: gurps4e: no such file; `ambush examples` lists")
    code, _, err = run("odds", "fixtures/scenarios/gurps-partial.toml")
    assert code == 2 and err.startswith("Error: fixtures/scenarios/gurps-partial.toml: no such file")
