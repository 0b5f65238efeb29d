"""GURPS Game Aid's Mook Generator, as GGA 0.18.22 stores what a GM types into it

Written for this project from reading crnormand/gurps at GGA_COMMIT (none of GGA's code): lib/npc-input.js, the
Mook Generator's editor (checkTraits 681-695, checkSkills 496-517, prep and parseDelimLines 467-494, cleanLine
1230-1238, populate 318-440), module/actor/actor-components.js (the constructors _Base 44-52, Named 113-133,
NamedCost 264-277, Leveled 321-334, Skill 342-353, Advantage 591-600) and module/gurps.js (put, 1596-1604).

What the GM types in the Traits box is split into lines (at `;` outside brackets and at line ends); each line, trimmed
of leading and trailing `*,.:`, becomes `{...new Advantage(line)}`: the text as typed is its name, with 0 points. A
Skills line `Name-12` becomes `{...new Skill("Name", "12")}`: 0 points, the typed level in `import`, `level` 0 until
GGA derives it from `import` as the actor is prepared (module/actor/actor.js 428-431). Neither gets a `uuid`: that is
what GGA's importers give (actor-importer.js importSk sets GCS's id), so a Mook's entries keep _Base's ''.
"""

from __future__ import annotations

from typing import Any

CLUTTER = "*,.:"  # cleanLine: "things that just clutter up the line"


def clean_line(line: str) -> str:
    """Strip one leading and one trailing clutter character and spaces, until nothing changes (cleanLine)"""
    while True:
        start = line
        if line and line[0] in CLUTTER:
            line = line[1:]
        if line and line[-1] in CLUTTER:
            line = line[:-1]
        line = line.strip()
        if line == start:
            return line


def delimited_lines(text: str, delimiter: str) -> list[str]:
    """Split at the delimiter outside brackets and at every line end (parseDelimLines)"""
    lines, line, depth = [], "", 0
    for char in text:
        if (char == delimiter and depth == 0) or char == "\n":
            lines.append(line)
            line = ""
        else:
            line += char
            depth += {"(": 1, ")": -1}.get(char, 0)
    if line:
        lines.append(line)
    return lines


def prep(text: str, delimiter: str = ";") -> list[str]:
    """Return the non-empty cleaned lines of a box (prep)"""
    return [line for line in (clean_line(part) for part in delimited_lines(text, delimiter)) if line]


def named(name: str) -> dict[str, Any]:
    """Return the keys _Base, Named and NamedCost set, in their order; a "Page Ref: " part becomes the page reference"""
    entry: dict[str, Any] = {"notes": "", "pageref": "", "contains": {}, "uuid": "", "parentuuid": "", "originalName": ""}
    marker = name.find("Page Ref: ")
    if marker >= 0:
        entry["name"], entry["pageref"] = name[:marker].strip(), name[marker + len("Page Ref: "):].strip()
    else:
        entry["name"] = name.strip()
    return entry | {"points": 0, "save": False, "itemid": "", "itemInfo": {}, "fromItem": "", "addToQuickRoll": False}


def advantage(line: str) -> dict[str, Any]:
    """Return `{...new Advantage(line)}`: its `level` undefined is dropped as the actor is stored"""
    return named(line) | {"userdesc": "", "note": ""}


def skill(name: str, level: str) -> dict[str, Any]:
    """Return `{...new Skill(name, level)}`: the level as typed in `import`, `level` 0"""
    return named(name) | {"import": level, "level": 0, "type": "", "relativelevel": "", "modifierTags": "",
                          "consumeAction": False}


def traits(text: str) -> list[dict[str, Any]]:
    """Return the Traits box as entries (checkTraits; a line starting with the comment character is not converted)"""
    return [advantage(line) for line in prep(text) if not line.startswith("#")]


def skills(text: str) -> list[dict[str, Any]]:
    """Return the Skills box as entries: each `Name-Level` line, split at its last '-' (checkSkills)"""
    entries = []
    for line in prep(text):
        cut = line.rfind("-")
        if line.startswith("#") or cut < 1 or not line[cut + 1:].strip().lstrip("+-").isdigit():
            raise SystemExit(f"the Mook Generator refuses the skill line {line!r}")
        entries.append(skill(line[:cut].strip(), line[cut + 1:].strip()))
    return entries


def keyed(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Return a GGA list: each entry under the first free zero-filled index (GURPS.put)"""
    return {f"{index:05d}": entry for index, entry in enumerate(entries)}


def mook_actor(spec: dict[str, Any]) -> dict[str, Any]:
    """Return the actor the Mook Generator creates: a `character` whose IQ and Per `import` are the typed values
    (populate, `att.IQ.import = +mook.iq`), the stored `value` the template's 10, and its trait and skill lists"""
    attributes = {key: {"import": spec[key.lower()], "value": 10, "points": 0, "dtype": "Number"} for key in ("IQ", "PER")}
    return {"name": spec["name"], "type": "character",
            "system": {"attributes": attributes, "ads": keyed(traits(spec["traits"])),
                       "skills": keyed(skills(spec["skills"]))}}
