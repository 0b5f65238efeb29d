"""The release workflows, ambush's own and the one `ambush init --workflow` writes: actionlint, and their steps run"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from exporter.cli import main
from tests.conftest import ROOT
from tests.test_publish import DRY_SUCCESS, SUCCESS, TOKEN, foundry  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
REPOSITORY = PROJECT["urls"]["Repository"]
OWN_WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
EPOCH = 1_700_000_000
# Steps the tests do not run: they install, run the test suite itself, or talk to GitHub.
NOT_RUN_HERE = {"test", "install", "upload"}
GM_REPOSITORY = "gm/campaign"


def tool(name: str) -> str:
    """Return a test tool installed beside this Python (pyproject.toml's test extras)"""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"{name} is missing: install the test extras (pip install -e '.[test]')"
    return found


def actionlint(*files: Path) -> subprocess.CompletedProcess:
    return subprocess.run([tool("actionlint"), "-shellcheck", tool("shellcheck"), "-no-color", *map(str, files)],
                          capture_output=True, text=True, check=False, timeout=120)


def steps(workflow: Path) -> list[dict]:
    return yaml.safe_load(workflow.read_text(encoding="utf-8"))["jobs"]["release"]["steps"]


def git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=GM", "-c", "user.email=gm@example.org", *args], cwd=folder, check=True,
                   capture_output=True, env={**os.environ, "GIT_COMMITTER_DATE": f"@{EPOCH} +0000",
                                             "GIT_AUTHOR_DATE": f"@{EPOCH} +0000"})


def committed(folder: Path, tag: str) -> None:
    """Make folder a repository with everything in one commit, tagged"""
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "campaign")
    git(folder, "tag", tag)


def shims(folder: Path, endpoint: str) -> Path:
    """Put `ambush` and `python` on a PATH that run this checkout's exporter, sending releases to endpoint"""
    folder.mkdir()
    (folder / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    (folder / "ambush").write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -c "import sys, exporter.targets.foundry.publish as p; p.RELEASE_API = sys.argv.pop(1); '
        f'sys.argv[0] = \'ambush\'; from exporter.cli import main; main()" "{endpoint}" "$@"\n', encoding="utf-8")
    for shim in folder.iterdir():
        shim.chmod(0o755)
    return folder


def run_steps(workflow: Path, cwd: Path, tag: str, repository: str, endpoint: str = "http://127.0.0.1:9/",
              secrets: dict[str, str] | None = None) -> dict[str, subprocess.CompletedProcess]:
    """Run a workflow's run: steps as the runner does (bash -e, GITHUB_ENV, GITHUB_PATH), but those of NOT_RUN_HERE"""
    runner = cwd.parent / "runner"
    runner.mkdir()
    github_env, github_path = runner / "env", runner / "path"
    github_env.touch()
    github_path.touch()
    bin_dir = shims(runner / "bin", endpoint)
    done: dict[str, subprocess.CompletedProcess] = {}
    for step in steps(workflow):
        if "run" not in step or step["id"] in NOT_RUN_HERE:
            continue
        env = {**os.environ, "GITHUB_REF_NAME": tag, "GITHUB_SERVER_URL": "https://github.com",
               "GITHUB_REPOSITORY": repository, "GITHUB_ENV": str(github_env), "GITHUB_PATH": str(github_path),
               "PYTHONPATH": str(ROOT)}
        env.pop("SOURCE_DATE_EPOCH", None)
        for name, value in step.get("env", {}).items():
            assert value == f"${{{{ secrets.{name} }}}}", f"{step['id']}: the test gives only secrets"
            env[name] = (secrets or {}).get(name, "")
        assert "${{" not in step["run"], f"{step['id']}: expressions in a script are injection-prone; use env"
        env.update(line.split("=", 1) for line in github_env.read_text(encoding="utf-8").splitlines() if line)
        env["PATH"] = os.pathsep.join([str(bin_dir), *github_path.read_text(encoding="utf-8").split(), env["PATH"]])
        script = runner / f"{step['id']}.sh"
        script.write_text(step["run"], encoding="utf-8")
        done[step["id"]] = subprocess.run(["bash", "-e", str(script)], cwd=cwd, env=env, capture_output=True,
                                          text=True, check=False, timeout=600)
        if done[step["id"]].returncode != 0:
            break
    return done


@pytest.fixture
def gm_repository(tmp_path, monkeypatch) -> Path:
    """A GM's repository: `ambush init --workflow` committed and tagged v1.0.0"""
    folder = tmp_path / "campaign"
    folder.mkdir()
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["init", "--system", "gurps4e", "--workflow"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["wrote campaign.toml", "wrote .github/workflows/release.yml"]
    committed(folder, "v1.0.0")
    return folder


def test_actionlint_finds_nothing_in_either_workflow(gm_repository):
    done = actionlint(OWN_WORKFLOW, gm_repository / ".github" / "workflows" / "release.yml")
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_would_find_a_broken_workflow(tmp_path):
    broken = tmp_path / ".github" / "workflows" / "release.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(OWN_WORKFLOW.read_text(encoding="utf-8").replace('echo "$PWD/.venv/bin"', "echo $PWD/.venv/bin")
                      .replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout: 10"), encoding="utf-8")
    done = actionlint(broken)
    assert done.returncode == 1
    assert "SC2086" in done.stdout and 'unexpected key "timeout"' in done.stdout


def test_the_workflows_steps_are_the_ones_these_tests_know():
    assert [s.get("id", s.get("uses")) for s in steps(OWN_WORKFLOW)] == [
        "actions/checkout@v6", "actions/setup-python@v6", "actions/setup-node@v6", "test", "build", "upload", "publish"]
    assert "bash .ci/run" in steps(OWN_WORKFLOW)[3]["run"]  # the README's test command, as CI runs it


def test_ci_runs_the_readmes_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("# install and run the whole test suite", 1)[1].split("\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands == script[-len(commands):] and len(commands) == 1
    assert commands[0].startswith("sh tools/install-chromium.sh && ")
    assert "apt-get install -y chromium" in (ROOT / "tools" / "install-chromium.sh").read_text(encoding="utf-8")


def test_the_own_workflow_releases_the_examples_with_the_urls_of_the_project_repository(tmp_path):
    work = tmp_path / "ambush"
    shutil.copytree(ROOT / "fixtures" / "campaigns", work / "fixtures" / "campaigns")
    committed(work, f"v{PROJECT['version']}")
    owner_name = REPOSITORY.removeprefix("https://github.com/")
    done = run_steps(OWN_WORKFLOW, work, f"v{PROJECT['version']}", owner_name)
    assert [d.returncode for d in done.values()] == [0, 0], {k: d.stderr for k, d in done.items()}
    assert "No FOUNDRY_PACKAGE_TOKEN_AMBUSH_GURPS_EXAMPLE secret: ambush-gurps-example is not announced" in (
        done["publish"].stdout)
    released = {p.name for p in (work / "release").iterdir()}
    for path in sorted((ROOT / "fixtures" / "campaigns").glob("*.toml")):
        cid = tomllib.loads(path.read_text(encoding="utf-8"))["id"]
        assert {f"{cid}.json", f"{cid}-{PROJECT['version']}.zip", f"{cid}-{PROJECT['version']}.html"} <= released
        module = json.loads((work / "release" / f"{cid}.json").read_text(encoding="utf-8"))
        assert module["manifest"] == f"{REPOSITORY}/releases/latest/download/{cid}.json"
        version = PROJECT["version"]
        assert module["download"] == f"{REPOSITORY}/releases/download/v{version}/{cid}-{version}.zip"
        with zipfile.ZipFile(work / "release" / f"{cid}-{module['version']}.zip") as zipped:
            assert {info.date_time for info in zipped.infolist()} == {(2023, 11, 14, 22, 13, 20)}  # EPOCH
        assert f"FOUNDRY_PACKAGE_TOKEN_{cid.upper().replace('-', '_')}" in steps(OWN_WORKFLOW)[-1]["env"]
    assert module["manifest"] in (work / "notes.md").read_text(encoding="utf-8")


def test_the_own_workflow_refuses_to_release_from_another_repository(tmp_path):
    work = tmp_path / "ambush"
    shutil.copytree(ROOT / "fixtures" / "campaigns", work / "fixtures" / "campaigns")
    committed(work, f"v{PROJECT['version']}")
    done = run_steps(OWN_WORKFLOW, work, f"v{PROJECT['version']}", "someone/fork")
    assert done["build"].returncode == 1 and not (work / "release").exists()
    assert (f"::error::pyproject.toml names the repository {REPOSITORY}, but this release runs in "
            "https://github.com/someone/fork") in done["build"].stdout


def test_the_gm_workflow_releases_campaign_toml_as_written(gm_repository, foundry):  # noqa: F811
    foundry.answers = [DRY_SUCCESS, SUCCESS]
    done = run_steps(gm_repository / ".github" / "workflows" / "release.yml", gm_repository, "v1.0.0", GM_REPOSITORY,
                     endpoint=foundry.url, secrets={"FOUNDRY_PACKAGE_TOKEN": TOKEN})
    assert [d.returncode for d in done.values()] == [0, 0], {k: d.stderr for k, d in done.items()}
    release = gm_repository / "release"
    assert {p.name for p in release.iterdir()} == {"ambush-gurps.json", "ambush-gurps-1.0.0.zip", "AmbushGurps.js",
                                                   "ambush-gurps-1.0.0.html"}
    module = json.loads((release / "ambush-gurps.json").read_text(encoding="utf-8"))
    url = f"https://github.com/{GM_REPOSITORY}/releases"
    assert (module["manifest"], module["download"]) == (f"{url}/latest/download/ambush-gurps.json",
                                                         f"{url}/download/v1.0.0/ambush-gurps-1.0.0.zip")
    with zipfile.ZipFile(release / "ambush-gurps-1.0.0.zip") as zipped:
        assert {info.date_time for info in zipped.infolist()} == {(2023, 11, 14, 22, 13, 20)}
    assert [r["json"]["release"]["manifest"] for r in foundry.received] == [
        f"{url}/download/v1.0.0/ambush-gurps.json"] * 2
    assert [r["json"]["dry-run"] for r in foundry.received] == [True, False]
    assert "released on foundryvtt.com" in done["publish"].stdout and TOKEN not in done["publish"].stdout


def test_the_gm_workflow_announces_nothing_without_the_token_secret(gm_repository, foundry):  # noqa: F811
    done = run_steps(gm_repository / ".github" / "workflows" / "release.yml", gm_repository, "v1.0.0", GM_REPOSITORY,
                     endpoint=foundry.url)
    assert done["publish"].returncode == 0 and foundry.received == []
    assert "No FOUNDRY_PACKAGE_TOKEN secret: the release is not announced on foundryvtt.com." in done["publish"].stdout


def test_the_gm_workflow_fails_on_a_tag_that_is_not_the_campaigns_version(gm_repository):
    git(gm_repository, "tag", "v1.0.1")
    done = run_steps(gm_repository / ".github" / "workflows" / "release.yml", gm_repository, "v1.0.1", GM_REPOSITORY)
    assert done["build"].returncode == 2 and list(done) == ["build"]
    assert done["build"].stderr.strip() == ("Error: campaign.toml: version: is 1.0.0, but the release is tagged "
                                            "v1.0.1: tag v1.0.0, or give the campaign the tag's version")


def test_the_gm_workflow_installs_this_version_of_ambush_from_the_project_repository(gm_repository):
    [install] = [s for s in steps(gm_repository / ".github" / "workflows" / "release.yml") if s.get("id") == "install"]
    assert install["run"] == f'pip install "ambush @ git+{REPOSITORY}@v{PROJECT["version"]}"'
    text = (gm_repository / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert "<owner>" not in text.lower() and "OWNER" not in text


def test_the_docs_give_the_workflow_that_init_writes(gm_repository):
    text = (gm_repository / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert f"```yaml\n{text}```" in (ROOT / "docs" / "release.md").read_text(encoding="utf-8")


def test_init_never_overwrites_a_workflow_and_then_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    workflow = tmp_path / ".github" / "workflows" / "release.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("mine\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["init", "--system", "adnd1e", "--workflow"])
    assert result.exit_code == 2
    assert result.output == "Error: .github/workflows/release.yml: already exists; choose another path\n"
    assert workflow.read_text(encoding="utf-8") == "mine\n" and not (tmp_path / "campaign.toml").exists()


def test_init_without_workflow_writes_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["init", "--system", "adnd1e"]).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["campaign.toml"]


def test_init_writes_the_workflow_beside_the_campaign_of_a_folder(tmp_path):
    (tmp_path / "mine").mkdir()
    result = CliRunner().invoke(main, ["init", "--system", "fallout-ttrpg", "--workflow", str(tmp_path / "mine")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "mine" / ".github" / "workflows" / "release.yml").is_file()
    assert (tmp_path / "mine" / "campaign.toml").is_file()
