"""The sheets GMs use: where each game system and character sheet holds the values the rules read

One table of every default reader: Roll20's here, Foundry's gathered from the module of each game system ambush has
an adapter for (exporter/game_systems/). A reader is a Foundry actor data path or a named entry of a
game system's lists, or a Roll20 sheet attribute, a set-only attribute or a named row of a repeating section. Each
default notes the public file and commit it was checked against; tests/test_sheets.py checks the defaults against
this table.
"""

from __future__ import annotations

from typing import Any

from exporter.game_systems import ars, gurps, sheet

# Foundry: the game system each rules system usually runs on, and the reader of each input, with its source; each
# game system's readers and versions live beside its adapter (exporter/game_systems/).
FOUNDRY_SHEETS: dict[str, dict[str, Any]] = {"gurps4e": sheet(gurps), "adnd1e": sheet(ars)}

# Roll20 character sheets: docs/game-systems.md, Roll20 sheets, says what each reader was checked against and what is
# known not to work; fixtures/sheets/roll20/ holds characters shaped like each sheet's.
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
# GURPS 4e: a 2.0-era gurps.html (skill level an auto-calculated field, its value copied to level_mirror by a worker)
# and the sheet author's current source (since 2.6.9 a worker writes the level itself,
# Roll20/roll20-character-sheets#9824).
GURPS_2_0 = "Roll20/roll20-character-sheets GURPS/gurps.html@004db714d967dcdb8e706810c847a6bcbef5c3e5"
GURPS_SRC = "MadCoder253/roll20-character-sheets GURPS/src/html@a90837f5166b0209ea2f4bececd03704de8a736e"

# Roll20: the reader of each input on the sheet a system usually meets, with its source. A plain name is read
# with getAttrByName (the sheet's default counts); {"set": [...]} only where an attribute object holds a value
# (docs/dev/roll20.md §7: a hand-typed field defaulting to 0 must not override Dexterity), and with "agrees" both it
# and the other input are asked for where the sheet holds both and they disagree; {"section": ...} a named row.
ROLL20_SHEETS: dict[str, dict[str, tuple[Any, str]]] = {
    "gurps4e": {
        "iq": ("intelligence", f"{GURPS_2_0} attr_intelligence; {GURPS_SRC}"),
        "per": ("perception", f"{GURPS_2_0} attr_perception; {GURPS_SRC}"),
        # Advantages are rows of repeating_traits ("for backwards compatibility"), racial traits of repeating_racial.
        "combat_reflexes": ({"section": ["repeating_traits", "repeating_racial"], "name": "Combat Reflexes"},
                            f"{GURPS_SRC}/20-traits.html"),
        # The level a worker computes (current sheet), else the 2.0-era level_mirror (level then holds its formula);
        # a row with no point in it or no computed level is asked for (B393: Tactics needs a point).
        "tactics": ({"section": "repeating_skills", "name": "Tactics", "value": ["level", "level_mirror"],
                     "points": "points"}, f"{GURPS_SRC}/40-skills.html; {GURPS_2_0} repeating_skills"),
    },
    "adnd1e": {
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
    },
}


def foundry_sheet(system: str) -> dict[str, Any]:
    """Return the Foundry game system and the default reader of each input a system usually meets"""
    entry = FOUNDRY_SHEETS.get(system)
    if entry is None:
        return {"system_id": None, "attributes": {}, "versions": []}
    readers = {key: reader for key, (reader, _) in entry["readers"].items()}
    return {"system_id": entry["system_id"], "attributes": readers, "versions": list(entry["versions"])}


def roll20_sheet(system: str) -> dict[str, Any]:
    """Return the default Roll20 reader of each input a system usually meets"""
    return {key: reader for key, (reader, _) in ROLL20_SHEETS.get(system, {}).items()}


def foundry_reader(reader: Any) -> dict[str, str]:
    """Normalise a Foundry reader: a data path string becomes {"path": ...}"""
    return {"path": reader} if isinstance(reader, str) else dict(reader)


def roll20_reader(reader: Any) -> dict[str, Any]:
    """Normalise a Roll20 reader: a name becomes {"attribute": ...}, a set-only name a one-item list"""
    if isinstance(reader, str):
        return {"attribute": reader}
    out = dict(reader)
    if isinstance(out.get("set"), str):
        out["set"] = [out["set"]]
    if "section" in out:
        out.setdefault("name_field", "name")
    return out


def reader_type(reader: dict[str, Any]) -> str | None:
    """Return the input type a reader gives: boolean for an entry's presence, number for a level; None: any"""
    if "advantage" in reader or ("section" in reader and "value" not in reader):
        return "boolean"
    if "skill" in reader or "value" in reader:
        return "number"
    return None
