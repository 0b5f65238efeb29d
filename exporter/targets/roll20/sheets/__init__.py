"""The Roll20 character sheets GMs use, one module each: where a sheet holds the values a rules system reads

Each module names the rules system it serves (RULES_SYSTEM) and the reader of each input with the public file and
commit it was checked against (READERS); docs/game-systems.md, Roll20 sheets, says what is known not to work and
fixtures/sheets/roll20/ holds characters shaped like each sheet's. A reader is a sheet attribute's name, read with
getAttrByName (the sheet's default counts); {"set": [...]} attributes read only where an attribute object holds a value
(docs/dev/roll20.md §7: a hand-typed field defaulting to 0 must not override Dexterity), and with "agrees" both it and
the other input are asked for where the sheet holds both and they disagree; or {"section": ...}, a named row of a
repeating section; or {"when": ..., "then": ..., "otherwise": ...}, one of two readers chosen by an attribute that
tells two kinds of character apart (an NPC's sheet from a PC's). tests/test_sheets.py checks each against the sheet's
characters.
"""

from __future__ import annotations

from typing import Any

from exporter.targets.roll20.sheets import adnd_1e, gurps, ogl5e

# The sheet each rules system usually meets on Roll20, by the rules system's id
ROLL20_SHEETS: dict[str, dict[str, tuple[Any, str]]] = {
    sheet.RULES_SYSTEM: sheet.READERS for sheet in (gurps, adnd_1e, ogl5e)}


def roll20_sheet(system: str) -> dict[str, Any]:
    """Return the default Roll20 reader of each input a system usually meets"""
    return {key: reader for key, (reader, _) in ROLL20_SHEETS.get(system, {}).items()}


def roll20_reader(reader: Any) -> dict[str, Any]:
    """Normalise a Roll20 reader: a name becomes {"attribute": ...}, a set-only name a one-item list"""
    if isinstance(reader, str):
        return {"attribute": reader}
    out = dict(reader)
    if isinstance(out.get("set"), str):
        out["set"] = [out["set"]]
    if "section" in out:
        out.setdefault("name_field", "name")
    if "when" in out:
        out["then"], out["otherwise"] = roll20_reader(out["then"]), roll20_reader(out["otherwise"])
    return out
