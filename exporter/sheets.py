"""The sheets GMs use: where each game system and character sheet holds the values the rules read

One place for every default reader. A reader is a Foundry actor data path or a named entry of a game system's
lists, or a Roll20 sheet attribute, a set-only attribute or a named row of a repeating section. Each default notes
the public file and commit it was checked against; tests/test_sheets.py checks the defaults against this table.
"""

from __future__ import annotations

from typing import Any

# GURPS Game Aid (crnormand/gurps @ac714d44d6b93fd989bdeb6870c736fb04645ec4, 0.18.22):
# template.json: system.attributes.IQ.value and .PER.value; system.ads and system.skills hold named entries nested
# through `contains` and, once a container is folded on the sheet, `collapsed` (module/actor/actor.js toggleExpand),
# named and pointed as module/actor/actor-importer.js importAd and importSk store them (templates/foundry/gga.js).
GGA = "crnormand/gurps@ac714d44d6b93fd989bdeb6870c736fb04645ec4"
# GURPS Game Aid 1.0.0-alpha (crnormand/gurps branch develop @6dd54dd7, V14 only): traits and skills are Items of the
# types `feature` and `skill` (src/module/item/data/trait.ts, skill.ts, base.ts: points, level, disabled, containedBy,
# importid), made by src/module/importer/gcs-importer/importer.ts or migrated from 0.18 by
# src/module/actor/migrations/v1_0_0.ts; system.ads and system.skills are deprecated getters there, never read.
GGA1 = "crnormand/gurps@6dd54dd7ab129f24a7f858038b1aa39883997758"
# GGA's Mook Generator (0.18.22 lib/npc-input.js checkTraits, checkSkills): traits named as typed, a cost "[15]"
# included; skills at 0 points with the typed level in `import` and no `uuid`, which GGA's importers set.
# ARS v2023.08.06 for V11, as imported unchanged into lastredoubt/acks2-arsbase: src/template.json (abilities),
# src/module/actor/actor.js _buildAbilityFields and src/module/config.js dexterityTable (the computed Dex reaction
# adjustment at system.abilities.dex.reaction, per rules variant). ARS itself is on GitLab; V13/V14 stay unconfirmed.
ARS = "ARS v2023.08.06: lastredoubt/acks2-arsbase@d47147c53b9733003995e3620df7877cdcca6d61 (V13/V14 unconfirmed)"

# Foundry: the game system each rules system usually runs on, and the reader of each input, with its source.
FOUNDRY_SHEETS: dict[str, dict[str, Any]] = {
    "gurps4e": {
        "system_id": "gurps",
        # The versions (system.json `version`) the readers and the module's GGA code were checked against.
        "versions": {"0.18.22": GGA, "1.0.0-alpha": f"{GGA1} static/system.json"},
        "readers": {
            "iq": ("system.attributes.IQ.value", f"{GGA} template.json"),
            "per": ("system.attributes.PER.value", f"{GGA} template.json"),
            "combat_reflexes": ({"advantage": "Combat Reflexes"}, f"{GGA} module/actor/actor-importer.js importAd, "
                                                                   f"lib/npc-input.js checkTraits; {GGA1} "
                                                                   f"src/module/item/data/trait.ts"),
            "tactics": ({"skill": "Tactics"}, f"{GGA} module/actor/actor-importer.js importSk, lib/npc-input.js "
                                              f"checkSkills; {GGA1} src/module/item/data/skill.ts"),
            "stealth": ({"skill": "Stealth"}, f"{GGA} module/actor/actor-importer.js importSk, lib/npc-input.js "
                                              f"checkSkills; {GGA1} src/module/item/data/skill.ts"),
        },
    },
    "adnd1e": {
        "system_id": "ars",
        # The V11 copy's package is ars-v2023.08.06.zip; its system.json `version` is inferred from that name.
        "versions": {"2023.08.06": ARS},
        "readers": {
            "dex": ("system.abilities.dex.value", f"{ARS} src/template.json"),
            # Given instead of dex (docs/rules/adnd1e.md#dexterity) where ARS computed it: read for Dex 19-25 only,
            # beyond the 1e table, and only from a variant with 1e tables (templates/foundry/draft.js).
            "surprise_adjustment": ("system.abilities.dex.reaction", f"{ARS} src/module/config.js"),
        },
    },
}

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
