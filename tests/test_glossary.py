"""The translations use one term per concept, the one docs/glossary.md names (the seeds' own terms)"""

from __future__ import annotations

import json
import re

import pytest

from exporter.lang import bundled_language
from tests.conftest import ROOT

GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
LANGUAGES = ("de", "zh-CN")
PLACEHOLDER = re.compile(r"\{[^{}]*\}|!surprise\S*")  # placeholders and the chat command stay as they are


def glossary_rows() -> list[dict[str, list[str]]]:
    """Parse the glossary table: per concept the English forms, each language's terms and forbidden terms"""
    rows = []
    for line in GLOSSARY.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] in ("concept", "") or set(cells[0]) <= {"-"}:
            continue
        concept, english, de, zh, never_de, never_zh = cells
        rows.append({"concept": [concept], "en": [form.strip() for form in english.split(",")],
                     "de": split(de), "zh-CN": split(zh), "never-de": split(never_de), "never-zh-CN": split(never_zh)})
    return rows


def split(cell: str) -> list[str]:
    return [term.strip() for term in cell.split(" / ") if term.strip()]


ROWS = glossary_rows()
CATALOGUE = {language: bundled_language(language) for language in ("en", *LANGUAGES)}


def test_the_glossary_has_the_seed_terms():
    terms = {term for row in ROWS for language in LANGUAGES for term in row[language]}
    for seed_term in ("意外", "完全意外", "部分意外", "主动性", "精神震慑", "战斗反射", "Überrasch",
                      "Überraschungssegment", "Überraschungsbonus"):
        assert seed_term in terms
    assert len(ROWS) >= 15


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["concept"][0])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_says_a_concept_with_the_glossary_term(row, language):
    wrong = []
    for key, english in CATALOGUE["en"].items():
        text = PLACEHOLDER.sub("", CATALOGUE[language][key])
        source = PLACEHOLDER.sub("", english).lower()
        if any(re.search(rf"(?<![a-z]){re.escape(form)}", source) for form in row["en"]):
            if not any(term in text for term in row[language]):
                wrong.append(f"{key}: {CATALOGUE[language][key]!r} lacks {' or '.join(row[language])}")
        wrong += [f"{key}: {text!r} uses {term!r}" for term in row[f"never-{language}"] if term in text]
    assert wrong == []


def test_every_language_file_has_every_key_and_the_same_placeholders():
    for language in LANGUAGES:
        assert set(CATALOGUE[language]) == set(CATALOGUE["en"])
        for key, english in CATALOGUE["en"].items():
            assert sorted(PLACEHOLDER.findall(CATALOGUE[language][key])) == sorted(PLACEHOLDER.findall(english)), key


def test_no_translation_is_left_in_english():
    for language in LANGUAGES:
        same = [key for key, english in CATALOGUE["en"].items()
                if CATALOGUE[language][key] == english and re.search(r"[a-z]{4,}", english)]
        assert same == [], f"{language}: {same}"


def test_the_language_files_are_valid_json_objects():
    for language in ("en", *LANGUAGES):
        data = json.loads((ROOT / "exporter" / "lang" / f"{language}.json").read_text("utf-8"))
        assert isinstance(data, dict)


MACRO_RUN = """
const [command, lang] = [process.argv[1], process.argv[2]];
const shown = [];
globalThis.game = { modules: { get: () => undefined }, i18n: { lang } };
globalThis.ui = { notifications: { error: (text) => shown.push(text) } };
await new (Object.getPrototypeOf(async function () {}).constructor)(command)();
console.log(JSON.stringify(shown));
"""


@pytest.mark.parametrize("language", ["en", *LANGUAGES, "fr"])
def test_a_macro_run_without_the_module_says_so_in_the_client_language(language):
    from exporter.campaign import load_campaign
    from exporter.definitions import build_definitions
    from exporter.targets.foundry.packs import macro_documents
    from tests.conftest import run_node

    defs = build_definitions(load_campaign(ROOT / "fixtures" / "campaigns" / "gurps4e.toml"))
    expected = CATALOGUE.get(language, CATALOGUE["en"])["Notify.ModuleInactive"]
    for document in macro_documents(defs):
        done = run_node("--input-type=module", "-e", MACRO_RUN, document["command"], language)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == [expected]
