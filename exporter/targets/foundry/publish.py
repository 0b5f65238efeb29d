"""Announce a released module on foundryvtt.com through Foundry's Package Release API: a dry run, then the release

The API (https://foundryvtt.com/article/package-release-api/) takes a POST of JSON with the package's release token
as the Authorization header: the package `id`, `dry-run`, and `release` with the `version`, the version's own
`manifest` URL, the `notes` URL and the core `compatibility`. It answers `{"status": "success", ...}`, or
`{"status": "error", "errors": {FIELD: [{"message": ..., "code": ...}]}}`; a version it already lists is the error
code `unique_together`, and it takes one release of a package a minute, answering 429 to the next.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exporter.errors import ExportError, InputFileError
from exporter.release import checked_repository
from exporter.targets.foundry.release import release_urls

RELEASE_API = "https://api.foundryvtt.com/_api/packages/release_version/"
TOKEN_VARIABLE = "FOUNDRY_PACKAGE_TOKEN"
ATTEMPTS = 5  # per request, while the API answers 429
DEFAULT_WAIT = 60.0  # seconds, when a 429 names no Retry-After: the API's one release a minute
LONGEST_WAIT = 300.0
TIMEOUT = 60.0


class PublishError(Exception):
    """foundryvtt.com refused a release, or could not be reached"""


@dataclass(frozen=True)
class Answer:
    """One answer of the API: the HTTP status, the JSON body and the Retry-After header in seconds"""

    status: int
    body: dict[str, Any]
    retry_after: float | None


def post(endpoint: str, token: str, payload: dict[str, Any]) -> Answer:
    """Send one request and return the answer, whatever its status"""
    request = urllib.request.Request(endpoint, data=json.dumps(payload).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": token})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return Answer(response.status, parsed(response.read()), None)
    except urllib.error.HTTPError as err:
        return Answer(err.code, parsed(err.read()), seconds(err.headers.get("Retry-After")))
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        raise PublishError(f"{endpoint} cannot be reached ({reason})") from None


def parsed(raw: bytes) -> dict[str, Any]:
    """Return a JSON object answer, or one that says what came instead"""
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {"status": "error", "errors": {"answer": [{"message": "not JSON: " + " ".join(
            raw[:200].decode("utf-8", "replace").split()), "code": "invalid"}]}}
    return body if isinstance(body, dict) else {"status": "error", "errors": {"answer": [{"message": str(body)}]}}


def seconds(header: str | None) -> float | None:
    """Return a Retry-After header given in seconds; an HTTP date or nothing gives None"""
    try:
        return max(0.0, float(header)) if header is not None else None
    except ValueError:
        return None


def send(endpoint: str, token: str, payload: dict[str, Any], sleep: Callable[[float], None],
         say: Callable[[str], None]) -> Answer:
    """Send a request, waiting and sending it again while the API answers 429 (too many requests)"""
    answer = post(endpoint, token, payload)
    for attempt in range(1, ATTEMPTS):
        if answer.status != 429:
            break
        wait = min(answer.retry_after if answer.retry_after is not None else DEFAULT_WAIT, LONGEST_WAIT)
        say(f"foundryvtt.com: too many requests; trying again in {wait:g} s ({attempt}/{ATTEMPTS - 1})")
        sleep(wait)
        answer = post(endpoint, token, payload)
    return answer


def problems(answer: Answer) -> list[tuple[str, str, str]]:
    """Return each (field, code, message) an error answer names"""
    found = []
    errors = answer.body.get("errors")
    for name, entries in (errors.items() if isinstance(errors, dict) else []):
        for entry in entries if isinstance(entries, list) else [entries]:
            if isinstance(entry, dict):
                found.append((name, str(entry.get("code", "")), str(entry.get("message", ""))))
            else:
                found.append((name, "", str(entry)))
    if not found and answer.body.get("message"):
        found.append(("", "", str(answer.body["message"])))
    return found


def succeeded(answer: Answer) -> bool:
    """Tell a success: HTTP 200 and status success"""
    return answer.status == 200 and answer.body.get("status") == "success"


def duplicate(answer: Answer) -> bool:
    """Tell the answer that the version is listed already: a release that happened before, not a failure"""
    return any(code == "unique_together" or "already exists" in message for _, code, message in problems(answer))


def refusal(answer: Answer, module: dict[str, Any]) -> str:
    """Return one line saying why the API refused a release"""
    named = "; ".join(f"{name}: {message}" if name and name != "__all__" else message
                      for name, _, message in problems(answer)) or "no reason given"
    return (f"foundryvtt.com refused {module['id']} {module['version']} (HTTP {answer.status}): "
            + " ".join(named.split()))


def read_module(path: Path) -> dict[str, Any]:
    """Read a release's module.json, refusing one without the fields the API needs"""
    try:
        module = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputFileError(path, None, "does not exist") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise InputFileError(path, None, f"is not a module.json ({err})") from None
    if not isinstance(module, dict):
        raise InputFileError(path, None, "is not a module.json (not a JSON object)")
    for key in ("id", "version", "manifest", "download"):
        if not isinstance(module.get(key), str):
            raise InputFileError(path, key, "is missing; give the module.json that `ambush release` wrote")
    if not isinstance(module.get("compatibility"), dict):
        raise InputFileError(path, "compatibility", "is missing; give the module.json that `ambush release` wrote")
    return module


def release_payload(module: dict[str, Any], repository: str, tag: str, dry_run: bool) -> dict[str, Any]:
    """Return the API's request for one module of the GitHub release of tag"""
    urls = release_urls(repository, tag, module["id"], module["version"])
    compatibility = {key: str(module["compatibility"][key]) for key in ("minimum", "verified", "maximum")
                     if module["compatibility"].get(key) is not None}
    return {"id": module["id"], "dry-run": dry_run,
            "release": {"version": module["version"], "manifest": urls.version_manifest, "notes": urls.notes,
                        "compatibility": compatibility}}


def publish_module(path: Path, repository: str, tag: str, token: str | None, endpoint: str | None = None,
                   sleep: Callable[[float], None] = time.sleep, say: Callable[[str], None] = print,
                   dry_run: bool = False) -> str:
    """Release one module of a GitHub release on foundryvtt.com after a dry run; return what happened, in one line

    With dry_run, stop after the dry run: foundryvtt.com checks the release and lists nothing.
    """
    endpoint = endpoint or RELEASE_API
    if not token:
        raise ExportError(f"{TOKEN_VARIABLE} is not set: give the package's release token from its page on "
                          "foundryvtt.com (`ambush docs release`)")
    checked_repository(repository)
    module = read_module(path)
    urls = release_urls(repository, tag, module["id"], module["version"])
    for key in ("manifest", "download"):
        if module[key] != getattr(urls, key):
            raise InputFileError(path, key, f"is {module[key]}, not {getattr(urls, key)} of the release {tag}; "
                                            "give the module.json that `ambush release` wrote for it")
    name = f"{module['id']} {module['version']}"
    trial = send(endpoint, token, release_payload(module, repository, tag, dry_run=True), sleep, say)
    if duplicate(trial):
        return f"{name}: foundryvtt.com lists this version already; nothing to do"
    if not succeeded(trial):
        raise PublishError(refusal(trial, module))
    if dry_run:
        return f"{name}: the dry run passed; nothing was released (--dry-run)"
    say(f"{name}: the dry run passed")
    answer = send(endpoint, token, release_payload(module, repository, tag, dry_run=False), sleep, say)
    if duplicate(answer):
        return f"{name}: foundryvtt.com lists this version already; nothing to do"
    if not succeeded(answer):
        raise PublishError(refusal(answer, module))
    page = answer.body.get("page")
    return f"{name}: released on foundryvtt.com" + (f" ({page})" if page else "")


def token_from_environment() -> str | None:
    """Return the package's release token from the environment, never from the command line (logs show it)"""
    return os.environ.get(TOKEN_VARIABLE) or None
