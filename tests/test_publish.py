"""`ambush publish`: Foundry's Package Release API, against a fake server on this machine (no network in the tests)"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from exporter.cli import main
from exporter.errors import ExportError
from exporter.targets.foundry.publish import PublishError, publish_module

REPOSITORY = "https://github.com/gm/campaigns"
TOKEN = "fvttp_0123456789abcdefghijklmnopq"
MODULE = {
    "id": "my-module", "title": "Mine", "version": "1.2.0",
    "compatibility": {"minimum": "13", "verified": "14", "maximum": "14"},
    "manifest": f"{REPOSITORY}/releases/latest/download/my-module.json",
    "download": f"{REPOSITORY}/releases/download/v1.2.0/my-module-1.2.0.zip",
}
SUCCESS = (200, {"status": "success", "page": "https://foundryvtt.com/packages/my-module/edit/"}, {})
DRY_SUCCESS = (200, {"status": "success", "message": "dry run passed"}, {})
# crnormand/gurps build/FOUNDRY_RELEASE_API.md shows this answer for a version the site lists already.
DUPLICATE = (400, {"status": "error", "errors": {"__all__": [
    {"message": "Package Version with this Package and Version Number already exists.", "code": "unique_together"}]}},
    {})
BAD_URL = (400, {"status": "error", "errors": {"manifest": [{"message": "Enter a valid URL.", "code": "invalid"}]}}, {})
TOO_MANY = (429, {"status": "error", "message": "Too many requests."}, {"Retry-After": "17"})


@dataclass
class FakeFoundry:
    """What the fake API received, and what it answers next: (status, JSON body, headers)"""

    url: str = ""
    received: list[dict] = field(default_factory=list)
    answers: list[tuple[int, dict | bytes, dict]] = field(default_factory=list)


@pytest.fixture
def foundry() -> Iterator[FakeFoundry]:
    fake = FakeFoundry()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            fake.received.append({"path": self.path, "authorization": self.headers["Authorization"],
                                  "type": self.headers["Content-Type"], "json": json.loads(body)})
            status, answer, headers = fake.answers.pop(0) if fake.answers else (500, {"status": "error"}, {})
            data = answer if isinstance(answer, bytes) else json.dumps(answer).encode("utf-8")
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    fake.url = f"http://127.0.0.1:{server.server_address[1]}/_api/packages/release_version/"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield fake
    server.shutdown()
    server.server_close()


@pytest.fixture
def manifest(tmp_path) -> Path:
    path = tmp_path / "my-module.json"
    path.write_text(json.dumps(MODULE), encoding="utf-8")
    return path


def publish(path: Path, foundry: FakeFoundry, token: str | None = TOKEN) -> tuple[str, list[float], list[str]]:
    waits: list[float] = []
    said: list[str] = []
    outcome = publish_module(path, REPOSITORY, "v1.2.0", token, endpoint=foundry.url, sleep=waits.append,
                             say=said.append)
    return outcome, waits, said


def test_a_dry_run_goes_first_then_the_release_with_the_versions_own_manifest(manifest, foundry):
    foundry.answers = [DRY_SUCCESS, SUCCESS]
    outcome, waits, _ = publish(manifest, foundry)
    assert outcome == "my-module 1.2.0: released on foundryvtt.com (https://foundryvtt.com/packages/my-module/edit/)"
    assert waits == []
    release = {"version": "1.2.0", "manifest": f"{REPOSITORY}/releases/download/v1.2.0/my-module.json",
               "notes": f"{REPOSITORY}/releases/tag/v1.2.0",
               "compatibility": {"minimum": "13", "verified": "14", "maximum": "14"}}
    assert [r["json"] for r in foundry.received] == [{"id": "my-module", "dry-run": True, "release": release},
                                                     {"id": "my-module", "dry-run": False, "release": release}]
    assert {(r["path"], r["authorization"], r["type"]) for r in foundry.received} == {
        ("/_api/packages/release_version/", TOKEN, "application/json")}


def test_too_many_requests_waits_as_told_and_tries_again(manifest, foundry):
    foundry.answers = [DRY_SUCCESS, TOO_MANY, TOO_MANY, SUCCESS]
    outcome, waits, said = publish(manifest, foundry)
    assert outcome.startswith("my-module 1.2.0: released")
    assert waits == [17.0, 17.0] and len(foundry.received) == 4
    assert sum("too many requests" in line for line in said) == 2


def test_too_many_requests_without_retry_after_waits_a_minute(manifest, foundry):
    foundry.answers = [(429, {"status": "error"}, {}), DRY_SUCCESS, SUCCESS]
    _, waits, _ = publish(manifest, foundry)
    assert waits == [60.0]


def test_too_many_requests_five_times_is_a_failure(manifest, foundry):
    foundry.answers = [DRY_SUCCESS, *[TOO_MANY] * 5]
    with pytest.raises(PublishError, match=r"refused my-module 1\.2\.0 \(HTTP 429\): Too many requests"):
        publish(manifest, foundry)
    assert len(foundry.received) == 6


def test_a_version_listed_already_is_not_a_failure_and_sends_no_release(manifest, foundry):
    foundry.answers = [DUPLICATE]
    outcome, _, _ = publish(manifest, foundry)
    assert outcome == "my-module 1.2.0: foundryvtt.com lists this version already; nothing to do"
    assert [r["json"]["dry-run"] for r in foundry.received] == [True]


def test_a_version_listed_between_the_dry_run_and_the_release_is_not_a_failure(manifest, foundry):
    foundry.answers = [DRY_SUCCESS, DUPLICATE]
    outcome, _, _ = publish(manifest, foundry)
    assert outcome.endswith("lists this version already; nothing to do")


def test_a_refused_dry_run_sends_no_release_and_names_the_field(manifest, foundry):
    foundry.answers = [BAD_URL]
    with pytest.raises(PublishError) as raised:
        publish(manifest, foundry)
    assert str(raised.value) == "foundryvtt.com refused my-module 1.2.0 (HTTP 400): manifest: Enter a valid URL."
    assert len(foundry.received) == 1


def test_an_answer_that_is_not_json_is_a_one_line_failure(manifest, foundry):
    foundry.answers = [(502, b"<html>\n<b>Bad gateway</b></html>", {"Content-Type": "text/html"})]
    with pytest.raises(PublishError, match=r"\(HTTP 502\): answer: not JSON: <html> <b>Bad gateway</b></html>$"):
        publish(manifest, foundry)


def test_a_server_that_cannot_be_reached_is_a_one_line_failure(manifest):
    unreachable = FakeFoundry(url="http://127.0.0.1:9/_api/packages/release_version/")
    with pytest.raises(PublishError, match=r"cannot be reached"):
        publish(manifest, unreachable)


def test_no_token_sends_nothing(manifest, foundry):
    with pytest.raises(ExportError, match="FOUNDRY_PACKAGE_TOKEN is not set"):
        publish(manifest, foundry, token=None)
    assert foundry.received == []


@pytest.mark.parametrize(("key", "value"), [("manifest", "https://example.org/module.json"),
                                            ("download", f"{REPOSITORY}/releases/download/v1.0.0/my-module-1.2.0.zip")])
def test_a_manifest_of_another_release_sends_nothing(key, value, tmp_path, foundry):
    path = tmp_path / "my-module.json"
    path.write_text(json.dumps({**MODULE, key: value}), encoding="utf-8")
    with pytest.raises(ExportError, match=rf"my-module\.json: {key}: is {value}, not "):
        publish(path, foundry)
    assert foundry.received == []


def test_the_command_reads_the_token_from_the_environment_and_never_shows_it(manifest, foundry, monkeypatch):
    monkeypatch.setattr("exporter.targets.foundry.publish.RELEASE_API", foundry.url)
    monkeypatch.setenv("FOUNDRY_PACKAGE_TOKEN", TOKEN)
    foundry.answers = [DRY_SUCCESS, SUCCESS]
    result = CliRunner().invoke(main, ["publish", str(manifest), "--repository", REPOSITORY, "--tag", "v1.2.0"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["my-module 1.2.0: the dry run passed",
                                          "my-module 1.2.0: released on foundryvtt.com "
                                          "(https://foundryvtt.com/packages/my-module/edit/)"]
    assert [r["authorization"] for r in foundry.received] == [TOKEN, TOKEN]


def test_the_command_exits_1_on_a_refusal_and_2_without_a_token(manifest, foundry, monkeypatch):
    monkeypatch.setattr("exporter.targets.foundry.publish.RELEASE_API", foundry.url)
    monkeypatch.setenv("FOUNDRY_PACKAGE_TOKEN", TOKEN)
    foundry.answers = [BAD_URL]
    args = ["publish", str(manifest), "--repository", REPOSITORY, "--tag", "v1.2.0"]
    result = CliRunner().invoke(main, args)
    assert (result.exit_code, result.output) == (
        1, "Error: foundryvtt.com refused my-module 1.2.0 (HTTP 400): manifest: Enter a valid URL.\n")
    monkeypatch.delenv("FOUNDRY_PACKAGE_TOKEN")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and result.output.startswith("Error: FOUNDRY_PACKAGE_TOKEN is not set")
    assert len(result.output.splitlines()) == 1 and len(foundry.received) == 1


def test_the_command_with_dry_run_stops_after_the_dry_run(manifest, foundry, monkeypatch):
    monkeypatch.setattr("exporter.targets.foundry.publish.RELEASE_API", foundry.url)
    monkeypatch.setenv("FOUNDRY_PACKAGE_TOKEN", TOKEN)
    foundry.answers = [DRY_SUCCESS, SUCCESS]
    result = CliRunner().invoke(main, ["publish", str(manifest), "--repository", REPOSITORY, "--tag", "v1.2.0",
                                       "--dry-run"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["my-module 1.2.0: the dry run passed; nothing was released (--dry-run)"]
    assert [r["json"]["dry-run"] for r in foundry.received] == [True]
