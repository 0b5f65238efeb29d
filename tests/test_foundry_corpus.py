"""The Foundry readers against the sheet corpus (fixtures/sheets) in the emulated V13 and V14 clients"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import CAMPAIGNS, ROOT, node_file_tests, run_node_generation

FILE = ROOT / "tests" / "foundry" / "corpus.test.mjs"
GURPS_EXAMPLE = next(path for path in CAMPAIGNS if path.stem == "gurps4e")


def spanish_campaign(folder: Path) -> Path:
    """Write the GURPS example as a campaign that reads Combat Reflexes by a Spanish sheet's name"""
    text = GURPS_EXAMPLE.read_text(encoding="utf-8")
    for old, new in (('id = "ambush-gurps-example"', 'id = "ambush-gurps-es"'),
                     ('combat_reflexes = { advantage = "Combat Reflexes" }',
                      'combat_reflexes = { advantage = "Reflejos de combate (RC)" }')):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = folder / "gurps-es.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def corpus_modules(tmp_path_factory) -> Path:
    """Build the Spanish-reading GURPS campaign's Foundry module: <id>/foundry"""
    from exporter.build import build_campaigns

    folder = tmp_path_factory.mktemp("corpus")
    out = folder / "dist"
    build_campaigns([spanish_campaign(folder)], out, target="foundry", make_zip=False)
    return out


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples, corpus_modules):
    return run_node_generation(FILE, request.param, {"MODULES_DIR": str(examples), "CORPUS_DIR": str(corpus_modules)})


test_corpus, test_corpus_file = node_file_tests(FILE)


def test_the_corpus_names_its_sources():
    """Each fixture names the public file and commit it follows; each folder's README says how it was made"""
    import json

    for kind in ("gga", "gga-1.0", "ars"):
        readme = (ROOT / "fixtures" / "sheets" / kind / "README.md").read_text(encoding="utf-8")
        for path in sorted((ROOT / "fixtures" / "sheets" / kind).glob("*.json")):
            source = json.loads(path.read_text(encoding="utf-8"))["source"]
            assert len(source["commit"]) == 40 and source["repository"] and source["path"], path.name
            assert path.name in readme, f"{kind}/README.md does not describe {path.name}"
