"""The example modules against GURPS Game Aid and ARS shaped actors and trackers in the emulated V13 and V14 clients"""

from __future__ import annotations

import pytest

from tests.conformance import FOUNDRY_GENERATIONS
from tests.conftest import DND_2024, ROOT, node_file_tests, run_node_generation

FILE = ROOT / "tests" / "foundry" / "sheets.test.mjs"


@pytest.fixture(scope="module", params=FOUNDRY_GENERATIONS, ids=lambda g: f"v{g}")
def run(request, examples, built_text):
    dnd_2024 = built_text(DND_2024) / "dnd-2024" / "foundry"
    assert (dnd_2024 / "module.json").is_file()
    return run_node_generation(FILE, request.param, {"MODULES_DIR": str(examples), "DND_2024_MODULE": str(dnd_2024)})


test_sheet_behaviour, test_sheet_behaviour_file = node_file_tests(FILE)
