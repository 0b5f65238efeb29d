"""Roll20's GURPS sheet: where it holds the values the GURPS rules (gurps4e) read, with the public source of each"""

from __future__ import annotations

from typing import Any

RULES_SYSTEM = "gurps4e"

# GURPS 4e: a 2.0-era gurps.html (skill level an auto-calculated field, its value copied to level_mirror by a worker)
# and the sheet author's current source (since 2.6.9 a worker writes the level itself,
# Roll20/roll20-character-sheets#9824).
GURPS_2_0 = "Roll20/roll20-character-sheets GURPS/gurps.html@004db714d967dcdb8e706810c847a6bcbef5c3e5"
GURPS_SRC = "MadCoder253/roll20-character-sheets GURPS/src/html@a90837f5166b0209ea2f4bececd03704de8a736e"

# The reader of each input (exporter/targets/roll20/sheets/__init__.py says what a reader is), with its source.
READERS: dict[str, tuple[Any, str]] = {
    "iq": ("intelligence", f"{GURPS_2_0} attr_intelligence; {GURPS_SRC}"),
    "per": ("perception", f"{GURPS_2_0} attr_perception; {GURPS_SRC}"),
    # Advantages are rows of repeating_traits ("for backwards compatibility"), racial traits of repeating_racial.
    "combat_reflexes": ({"section": ["repeating_traits", "repeating_racial"], "name": "Combat Reflexes"},
                        f"{GURPS_SRC}/20-traits.html"),
    # The level a worker computes (current sheet), else the 2.0-era level_mirror (level then holds its formula);
    # a row with no point in it or no computed level is asked for (B393: Tactics needs a point).
    "tactics": ({"section": "repeating_skills", "name": "Tactics", "value": ["level", "level_mirror"],
                 "points": "points"}, f"{GURPS_SRC}/40-skills.html; {GURPS_2_0} repeating_skills"),
}
