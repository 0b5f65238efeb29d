"""The example Roll20 scripts against characters shaped like the GURPS and AD&D 1e sheets, in the emulated sandbox"""

from __future__ import annotations

import pytest

from tests.conftest import DND_2024, ROOT, node_file_tests, run_node_tests

FILE = ROOT / "tests" / "roll20" / "sheets.test.mjs"
# AD&D 1e with each member's own ratings (C5a), which the Revised sheet's surprise fields give; the default readers.
RATED = """id = "adnd-rated"
title = "Rated"
version = "1.0.0"
system = "adnd1e"
targets = ["roll20"]
[options]
side_best_rating = true
"""



@pytest.fixture(scope="module")
def run(built_text, examples):
    # The characters come from fixtures/sheets/roll20/; the scripts read them with the default readers of
    # exporter/targets/roll20/sheets/.
    rated = built_text(RATED, target="roll20") / "adnd-rated" / "roll20" / "AdndRated.js"
    dnd_2024 = built_text(DND_2024) / "dnd-2024" / "roll20" / "Dnd2024.js"
    assert rated.is_file() and dnd_2024.is_file()
    return run_node_tests(FILE, {"SCRIPTS_DIR": str(examples), "RATED_SCRIPT": str(rated),
                                 "DND_2024_SCRIPT": str(dnd_2024)})


test_sheet_behaviour, test_sheet_behaviour_file = node_file_tests(FILE)


def test_the_readme_says_which_surprise_fields_are_read_and_when(built_text):
    readme = (built_text(RATED, target="roll20") / "adnd-rated" / "roll20" / "README.md").read_text(encoding="utf-8")
    # The rules' numbers the readers name, written as numbers: a d6 (RULES.die) and the default rating 2.
    assert "\n- `surprised_on`: `surprise` where set on the character, asked where `surprise_die` is not 6\n" in readme
    assert ("\n- `surprises_on`: `surprise_others_mod` where set on the character, plus 2, asked where `surprise_die` "
            "is not 6\n") in readme
