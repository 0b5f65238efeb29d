"""Every citation in the project lands inside the repository: docs anchors, platform sections, reading ids"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path

import pytest

from exporter.rules.systems import SYSTEM_IDS

ROOT = Path(__file__).resolve().parent.parent
# The names of notes that live outside the repository; built from parts so this file does not cite them itself.
OUTSIDE = re.compile("|".join([r"\b(?:RULES|FOUNDRY|ROLL20|DESIGN|STYLE)\.md\b", r"\.\./" + "shared",
                               "/work/" + "shared"]))
DOC_CITATION = re.compile(r"\bdocs/([\w./-]+?\.md)(?:#([\w-]+))?")
SECTION_CITATION = re.compile(r"\bdocs/(dev/(?:foundry|roll20)\.md)((?:(?:,\s*|-|\s)?§\d+(?:\.\d+)?)+)")
MARKDOWN_LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+?\.md)(?:#([^)\s]+))?\)")
BINARY_SUFFIXES = {".png", ".zip", ".ldb", ".woff", ".woff2", ".ico", ".webp"}


def tracked_files() -> list[Path]:
    """Return every file git tracks, text only"""
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / name for name in names if Path(name).suffix not in BINARY_SUFFIXES and (ROOT / name).is_file()]


@cache
def text_of(path: Path) -> str:
    """Return a tracked file's text, or "" for a binary one"""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ""


def slug(heading: str) -> str:
    """Return the anchor GitHub gives a Markdown heading"""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    kept = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


@cache
def anchors(doc: Path) -> frozenset[str]:
    """Return the anchors of a Markdown page: explicit <a id> and the headings' own"""
    text = text_of(doc)
    explicit = set(re.findall(r'<a id="([^"]+)"></a>', text))
    headings = {slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, re.M)}
    return frozenset(explicit | headings)


@cache
def numbered_sections(doc: Path) -> frozenset[str]:
    """Return the section numbers of a page whose headings read "## 6. Title" or "### 1.1 Title\""""
    return frozenset(re.findall(r"^#{1,6} (\d+(?:\.\d+)?)\.? ", text_of(doc), re.M))


@cache
def tracked_lines() -> tuple[tuple[str, int, str], ...]:
    """Return (file, line number, line) for every line of the tracked files, read once for all the tests"""
    return tuple((str(path.relative_to(ROOT)), number, line) for path in tracked_files()
                 for number, line in enumerate(text_of(path).splitlines(), 1))


def test_no_file_points_outside_the_repository():
    """No tracked file names the lead's notes or a folder beside the checkout"""
    hits = [f"{where}:{n}: {line.strip()[:100]}" for where, n, line in tracked_lines() if OUTSIDE.search(line)]
    assert hits == []


def test_docs_citations_resolve():
    """Every docs/<page>.md#anchor cited anywhere names a page that exists and an anchor on it"""
    broken, seen = [], 0
    for where, n, line in tracked_lines():
        for m in DOC_CITATION.finditer(line):
            seen += 1
            page = ROOT / "docs" / m.group(1)
            if not page.is_file():
                broken.append(f"{where}:{n}: {m.group(0)}: no such page")
            elif m.group(2) and m.group(2) not in anchors(page):
                broken.append(f"{where}:{n}: {m.group(0)}: no such anchor")
    assert broken == []
    assert seen > 300  # the code cites its sources: a regex that matched nothing would pass vacuously


def test_platform_sections_resolve():
    """Every docs/dev/foundry.md §N and docs/dev/roll20.md §N names a numbered section of that page"""
    broken, seen = [], 0
    for where, n, line in tracked_lines():
        for m in SECTION_CITATION.finditer(line):
            sections = numbered_sections(ROOT / "docs" / m.group(1))
            for number in re.findall(r"§(\d+(?:\.\d+)?)", m.group(2)):
                seen += 1
                if number not in sections:
                    broken.append(f"{where}:{n}: {m.group(1)} §{number}")
    assert broken == []
    assert seen > 100


def test_markdown_links_resolve():
    """Every relative link between Markdown pages names a page and an anchor that exist"""
    broken = []
    for path in tracked_files():
        if path.suffix != ".md" or "__snapshots__" in path.parts:
            continue
        for target, anchor in MARKDOWN_LINK.findall(text_of(path)):
            page = (path.parent / target).resolve()
            if not page.is_file():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
            elif anchor and anchor not in anchors(page):
                broken.append(f"{path.relative_to(ROOT)}: {target}#{anchor}")
    assert broken == []


def reading_files() -> dict[str, str]:
    """Return each reading id's letter and the rules page holding those readings: docs/rules/<system id>.md each"""
    files = {}
    for system in SYSTEM_IDS:
        letters = {anchor[0].upper() for anchor in anchors(ROOT / "docs" / "rules" / f"{system}.md")
                   if re.fullmatch(r"[a-z]\d+[a-d]?", anchor)}
        assert len(letters) == 1, f"docs/rules/{system}.md: readings under one letter expected, found {letters}"
        files[letters.pop()] = f"{system}.md"
    assert len(files) == len(SYSTEM_IDS), f"two systems' readings share a letter: {files}"
    return files


READING_FILES = reading_files()


@pytest.mark.parametrize("vector", sorted((ROOT / "fixtures" / "vectors").glob("*.json")), ids=lambda p: p.stem)
def test_vector_rules_are_citations(vector):
    """A vector's rules are reading ids defined in docs/rules or docs citations, nothing else"""
    for rule in json.loads(vector.read_text(encoding="utf-8"))["rules"]:
        if re.fullmatch(rf"[{''.join(READING_FILES)}]\d+[a-d]?", rule):
            assert rule.lower() in anchors(ROOT / "docs" / "rules" / READING_FILES[rule[0]]), rule
        else:
            assert DOC_CITATION.fullmatch(rule), rule


def test_slug_follows_github():
    """The heading anchors are GitHub's: lower case, punctuation dropped, spaces to hyphens"""
    assert slug("Partial surprise (B393)") == "partial-surprise-b393"
    assert slug('Dexterity, the "Überraschungsbonus"') == "dexterity-the-überraschungsbonus"
    assert slug("`sneak-attack`: a Sneak Attack that hits") == "sneak-attack-a-sneak-attack-that-hits"
