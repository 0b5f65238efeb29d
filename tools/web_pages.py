"""Campaigns that build only the web page, and scenarios written as scenario files: for the tests and benchmarks"""

from __future__ import annotations

import json
from pathlib import Path

from exporter.build import build_campaigns


def toml_value(value) -> str:
    """Write a string, a boolean, a whole number or an array of them as TOML (JSON's escapes are TOML's)"""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def toml_table(data: dict, path: list[str], lines: list[str]) -> list[str]:
    """Append a table's lines: its plain values, then its tables and arrays of tables, keys quoted"""
    def nested(value) -> bool:
        return isinstance(value, dict) or (isinstance(value, list) and bool(value) and isinstance(value[0], dict))

    for key, value in data.items():
        if value is not None and not nested(value):
            lines.append(f"{json.dumps(key)} = {toml_value(value)}")
    for key, value in data.items():
        inner = [*path, json.dumps(key)]
        if isinstance(value, dict):
            lines += ["", f"[{'.'.join(inner)}]"]
            toml_table(value, inner, lines)
        elif nested(value):
            for item in value:
                lines += ["", f"[[{'.'.join(inner)}]]"]
                toml_table(item, inner, lines)
    return lines


def scenario_toml(scenario: dict) -> str:
    """Write a scenario (a vector's, as `ambush odds` reads it) as a scenario file"""
    return "\n".join(toml_table(scenario, [], [])) + "\n"


def campaign_text(index: int, system: str, options: dict, languages: tuple[str, ...] = ("en",), extra: str = "") -> str:
    """Return a campaign that builds only the web page"""
    lines = [f'id = "web-{index}"', 'title = "Web"', 'version = "1.0.0"', f'system = "{system}"',
             f"languages = {json.dumps(list(languages))}", 'targets = ["web"]', extra, "[options]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


def build_pages(root: Path, campaigns: list[str]) -> list[Path]:
    """Build each campaign's page; their index.html files in order"""
    paths = []
    for index, text in enumerate(campaigns):
        path = root / f"campaign-{index}.toml"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    build_campaigns(paths, root / "dist", make_zip=False)
    return [root / "dist" / f"web-{index}" / "web" / "index.html" for index in range(len(campaigns))]
