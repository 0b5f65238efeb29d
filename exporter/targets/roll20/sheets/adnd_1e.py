"""Roll20's AD&D 1e sheets (the Revised sheet and the deprecated one): where they hold the values the AD&D rules
(adnd1e) read, with the public source of each"""

from __future__ import annotations

from typing import Any

RULES_SYSTEM = "adnd1e"

# AD&D 1e, the deprecated sheet: surprisebonus is typed by hand (default 0) and added to the d6 (the PHB sign).
ADND_OLD = "Roll20/roll20-character-sheets ADnD_1E/1ESheet.html@0421cdb866a615c00204f63f48af89ca75a7328a"
# AD&D 1e Revised: its worker dexterityCalcs sets, on every change of dexterity, surprisebonus to the surprised segments
# Dexterity adds (Dex 17: -2) and surprisebonus_inverted, the visible "Reaction Adj.", to the opposite (Dex 17: "+2").
ADND_REVISED_COMMIT = "01e519b89c2b92c4eda2af420f16202c0c46636d"
ADND_REVISED = f"Roll20/roll20-character-sheets ADnD_1E_Revised/src/index.html@{ADND_REVISED_COMMIT}"
ADND_REVISED_WORKERS = f"Roll20/roll20-character-sheets ADnD_1E_Revised/src/index.js@{ADND_REVISED_COMMIT}"
# The Revised sheet's surprise die: a select of 6, 8, 10, 12, 20 and 100, "of 6" by default; ambush plays a d6
# (RULES.die).
ADND_REVISED_D6 = {"attribute": "surprise_die", "constant": "die"}

# The reader of each input (exporter/targets/roll20/sheets/__init__.py says what a reader is), with its source.
READERS: dict[str, tuple[Any, str]] = {
    "dex": ("dexterity", f"{ADND_REVISED}; {ADND_OLD}"),
    # The PHB's sign (Dex 17: +2): the Revised sheet's surprisebonus_inverted, else the old sheet's surprisebonus
    # (the Revised sheet writes both together, so its own surprisebonus, of the other sign, is never reached).
    "surprise_adjustment": ({"set": ["surprisebonus_inverted", "surprisebonus"],
                             "agrees": {"input": "dex", "table": "dex_adjustment"}},
                            f"{ADND_REVISED_WORKERS} dexterityCalcs; {ADND_OLD}"),
    # A member's own ratings (read with options.side_best_rating, C5a): the Revised sheet's "Surprise Chance" and
    # "Surprise Others" Adj., each only where set and only on a d6 ("of 6", the sheet's default surprise_die):
    # a chance of 8, 10, 12, 20 or 100 is asked for, never taken as sixths (docs/rules/adnd1e.md#c5e).
    "surprised_on": ({"set": ["surprise"], "requires": ADND_REVISED_D6},
                     f"{ADND_REVISED} attr_surprise, attr_surprise_die"),
    # The Adj. is "SUBTRACTED from the opponents Surprise check" (its title): opponents surprised on 1 to 2 + Adj.
    "surprises_on": ({"set": ["surprise_others_mod"], "requires": ADND_REVISED_D6, "plus": "default_rating"},
                     f"{ADND_REVISED} attr_surprise_others_mod, attr_surprise_die"),
}
