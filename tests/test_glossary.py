"""The translations use one term per concept, the one docs/glossary.md names (the seeds' own terms)"""

from __future__ import annotations

import json
import re

import pytest

from exporter.lang import bundled_language
from exporter.lang.messages import Choice, Part, arguments, parse
from tests.conftest import ROOT

GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
LANGUAGES = ("de", "zh-CN")
COMMAND = re.compile(r"!surprise\S*")  # the chat command stays as it is


def words(text: str) -> str:
    """Return a string's words: placeholders and # cut out, every branch of a plural choice kept"""
    def of(parts: tuple[Part, ...]) -> str:
        return "".join(part if isinstance(part, str) else " " if not isinstance(part, Choice)
                       else " ".join(of(branch) for _, branch in part.branches) for part in parts)

    return COMMAND.sub(" ", of(parse(text)))


def glossary_rows() -> list[dict[str, list[str]]]:
    """Parse the glossary table: per concept the English forms, each language's terms and forbidden terms"""
    rows = []
    for line in GLOSSARY.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] in ("concept", "") or set(cells[0]) <= {"-"}:
            continue
        concept, english, de, zh, never_de, never_zh = cells
        rows.append({"concept": [concept], "en": [form.strip() for form in english.split(",") if form.strip()],
                     "de": split(de), "zh-CN": split(zh), "never-de": split(never_de), "never-zh-CN": split(never_zh)})
    return rows


def split(cell: str) -> list[str]:
    return [term.strip() for term in cell.split(" / ") if term.strip()]


ROWS = glossary_rows()
CATALOGUE = {language: bundled_language(language) for language in ("en", *LANGUAGES)}


def test_the_glossary_has_the_seed_terms():
    terms = {term for row in ROWS for language in LANGUAGES for term in row[language]}
    for seed_term in ("突袭", "完全意外", "部分意外", "先攻", "先攻检定", "精神震慑", "惊呆", "战斗反射", "回合",
                      "Überrasch", "Überraschungssegment", "Überraschungsbonus"):
        assert seed_term in terms
    assert "意外" in {term for row in ROWS for term in row["never-zh-CN"]}
    assert len(ROWS) >= 15


def longer_terms(row: dict[str, list[str]], language: str) -> list[str]:
    """Return the terms of other rows that hold one of this row's terms: where they stand, they say their own concept"""
    found = {term for other in ROWS if other is not row for term in other[language]
             if any(own in term for own in row[language])}
    return sorted(found, key=len, reverse=True)


def without(text: str, terms: list[str]) -> str:
    """Cut terms out of a text, longest first"""
    for term in terms:
        text = text.replace(term, " ")
    return text


def says(row: dict[str, list[str]], key: str) -> bool:
    """Tell whether the English string of a key says a concept, the longer terms of other concepts cut out"""
    source = without(words(CATALOGUE["en"][key]).lower(), longer_terms(row, "en"))
    return any(re.search(rf"(?<![a-z]){re.escape(form)}", source) for form in row["en"])


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["concept"][0])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_says_a_concept_with_the_glossary_term(row, language):
    wrong = []
    for key in CATALOGUE["en"]:
        text = words(CATALOGUE[language][key])
        if says(row, key) and not any(term in text for term in row[language]):
            wrong.append(f"{key}: {CATALOGUE[language][key]!r} lacks {' or '.join(row[language])}")
    assert wrong == []


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["concept"][0])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_term_stands_only_where_the_english_says_its_concept(row, language):
    wrong = []
    for key in CATALOGUE["en"]:
        text = without(words(CATALOGUE[language][key]), longer_terms(row, language))
        used = [term for term in row[language] if term in text]
        if used and not says(row, key):
            wrong.append(f"{key}: {CATALOGUE[language][key]!r} says {used[0]!r}, its English {CATALOGUE['en'][key]!r}"
                         f" does not")
    assert wrong == []


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["concept"][0])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_string_uses_a_term_the_glossary_rules_out(row, language):
    wrong = []
    for never in row[f"never-{language}"]:
        # A ruled-out word may stand inside another concept's term (意外 in 部分意外, the GURPS rule's name)
        inside = sorted({term for other in ROWS for term in other[language] if never in term and term != never},
                        key=len, reverse=True)
        wrong += [f"{key}: {text!r} uses {never!r}" for key, text in CATALOGUE[language].items()
                  if never in without(text, inside)]
    assert wrong == []


# The terms a German or a Chinese GM may question, by concept: the glossary says where each comes from
SOURCED = {"Stealth": ("de", "Schleichen"), "Quick Contest": ("de", "Schnelles Kräftemessen"),
           "Initiative": ("zh-CN", "先攻"), "Combat Reflexes": ("zh-CN", "战斗反射")}


def test_the_glossary_says_where_the_terms_a_gm_may_question_come_from():
    assert "\n## Sources\n" in GLOSSARY
    bullets = GLOSSARY.split("\n## Sources\n", 1)[1].split("\n- ")
    for concept, (language, term) in SOURCED.items():
        bullet = next((text for text in bullets if text.startswith(f"**{concept}**")), "")
        assert term in bullet and re.search(r"https://\S+|\w+/\w+ `lang/", bullet), concept
        assert any(term in text for text in CATALOGUE[language].values()), f"{term} is no word of the {language} strings"


# docs/glossary.md, How each language writes: German instructions in the infinitive, never the du-form, neither its
# pronouns nor the imperative of the verbs an instruction uses
DU_FORM = re.compile(r"\b(?:du|dich|dir|dein\w*)\b|(?:^|[.:;!?]\s+|\bund\s+|\boder\s+)(?:[Gg]ib|[Ww]ähle|[Kk]licke|[Ff]üge|"
                     r"[Bb]aue|[Ss]etze|[Nn]imm|[Öö]ffne|[Tt]rage|[Pp]rüfe|[Ss]tarte|[Ll]ege|[Zz]iehe|[Ww]ürfle|[Ll]ies|"
                     r"[Ss]chreibe|[Ee]ntferne|[Mm]arkiere)\b")


def test_german_instructions_are_in_the_infinitive():
    assert [f"{key}: {text}" for key, text in CATALOGUE["de"].items() if DU_FORM.search(words(text))] == []


def test_the_glossary_holds_each_term_once_per_language():
    for language in ("en", *LANGUAGES):
        terms = [term for row in ROWS for term in row[language]]
        assert sorted(term for term in set(terms) if terms.count(term) > 1) == [], language


def test_every_language_file_has_every_key_and_the_same_placeholders():
    for language in LANGUAGES:
        assert set(CATALOGUE[language]) == set(CATALOGUE["en"])
        for key, english in CATALOGUE["en"].items():
            assert arguments(CATALOGUE[language][key]) == arguments(english), key


def test_no_translation_is_left_in_english():
    for language in LANGUAGES:
        same = [key for key, english in CATALOGUE["en"].items()
                if CATALOGUE[language][key] == english and re.search(r"[a-z]{4,}", words(english))]
        assert same == [], f"{language}: {same}"


def test_the_language_files_are_valid_json_objects():
    for language in ("en", *LANGUAGES):
        data = json.loads((ROOT / "exporter" / "lang" / f"{language}.json").read_text("utf-8"))
        assert isinstance(data, dict)


@pytest.mark.parametrize("language", ["en", *LANGUAGES, "fr"])
def test_a_macro_run_without_the_module_says_so_in_the_client_language(language):
    from exporter.campaign import load_campaign
    from exporter.definitions import build_definitions
    from exporter.targets.foundry.packs import macro_documents
    from tests.conftest import macro_notifications

    defs = build_definitions(load_campaign(ROOT / "fixtures" / "campaigns" / "gurps4e.toml"))
    expected = CATALOGUE.get(language, CATALOGUE["en"])["Notify.ModuleInactive"]
    documents = macro_documents(defs)
    assert documents
    for shown in macro_notifications([(document["command"], language) for document in documents]):
        assert shown == [expected]
