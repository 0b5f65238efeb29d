"""Write the GURPS Game Aid actors of fixtures/sheets/gga/ and gga-1.0/ from real GCS character files

A development tool, run by hand where the two public repositories are at hand (CI reaches neither, so its output is
committed): it reads each character of FIXTURES from a local clone of richardwilkes/gcs_master_library at
LIBRARY_COMMIT, applies the change a GM would make in GCS where the fixture says so, and writes the actor the way
GURPS Game Aid's GCS importer stores it (crnormand/gurps at GGA_COMMIT), cut down to the entries that matter. It also
writes the NPCs of MOOKS as GGA's Mook Generator stores what a GM types (tests/tools/gga_mook.py), and, into
fixtures/sheets/gga-1.0/, each of them as GGA 1.0 holds it (tests/tools/gga_v1.py, GGA_V1_COMMIT): every actor
above as 1.0 migrates it when it loads a 0.18 world (`<name>.migrated.json`), and every GCS character as 1.0's own
importer makes it (`<name>.imported.json`).

    python tests/tools/gcs_to_gga.py --library PATH/gcs_master_library --gga PATH/gurps

Each clone is a git directory (bare or not); files are read at the commits below with `git show`. What GGA does, as
read in module/actor/actor-importer.js (importAd 1609-1648, importSk 1681-1736, foldList 2475-2490,
_migrateOtfsAndNotes 2405-2425) and module/actor/actor-components.js (_Base 44-52, Named 117-137, NamedCost 268-277,
Leveled 326-334, Skill 347-353, Advantage 595-600), is written here again in Python from that reading:

- every trait and skill becomes a plain entry with the keys those constructors and the importer set, in their order;
  a key the importer sets to `undefined` is left out, as storing the document drops it;
- a trait's name is GCS's name followed by its levels; a skill's is its name, "/TL<n>" and " (<specialization>)";
- a trait keeps `points` = GCS's computed points (calc.points) and no `disabled` flag: GCS computes 0 points for a
  switched-off trait; a skill keeps GCS's `points` (absent in GCS for a 0-point skill, so absent here) and its level
  in `import` (`level` is '' until GGA derives it from `import` as the actor is prepared, actor.js 428-431);
- the flat list is folded into nested `contains` objects keyed by zero-filled index, children in order;
- a collapsed container (`collapse`) has its children moved from `contains` to `collapsed`, as a click on its caret
  on GGA's sheet does (actor-sheet.js 491-498, actor.js toggleExpand 2178-2195); the importer itself never collapses;
- attributes keep GGA's template.json shape {import, value, points, dtype}: the importer sets `import` and `points`
  (importAttributesFromGCS 1438-1461); the stored `value` is the template's 10 until GGA derives it (actor.js
  420-423).

Entries are cut to those `keep` names, the containers above them and nothing else; kept entries keep their original
index keys, so the shape is the one GGA stores.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: its folder is on the path, not the repository
    import gga_mook
    import gga_v1
else:
    from tests.tools import gga_mook, gga_v1

LIBRARY = "richardwilkes/gcs_master_library"
LIBRARY_COMMIT = "0abbcf48156a7cd8ef7cb34d6744fc090a4af07c"
GGA = "crnormand/gurps"
GGA_COMMIT = "ac714d44d6b93fd989bdeb6870c736fb04645ec4"
GGA_V1_COMMIT = "6dd54dd7ab129f24a7f858038b1aa39883997758"  # branch develop, 1.0.0-alpha, August 2026
ROOT = Path(__file__).resolve().parents[2]

# Each fixture: the GCS file, the entries kept, the containers collapsed on GGA's sheet, and the GM's changes in GCS
# before the export (each described in the fixture's `changes`).
FIXTURES: list[dict[str, Any]] = [
    {
        "file": "louis-dantares.json",
        "gcs": "Library/Basic Set/Characters/Louis d'Antares.gcs",
        "keep": ["Combat Reflexes", "Charisma", "Natural Attacks", "Tactics"],
    },
    {
        "file": "louis-dantares-collapsed.json",
        "gcs": "Library/Basic Set/Characters/Louis d'Antares.gcs",
        "keep": ["Combat Reflexes", "Charisma", "Natural Attacks", "Tactics"],
        "collapse": ["Advantages & Perks"],
    },
    {
        "file": "louis-dantares-tactics-0.json",
        "gcs": "Library/Basic Set/Characters/Louis d'Antares.gcs",
        "keep": ["Combat Reflexes", "Tactics"],
        "zero_points": "Tactics",
    },
    {
        "file": "noble-knight-collapsed.json",
        "gcs": "Library/Dungeon Fantasy/Dungeon Fantasy Adventure 1/Rivals/Noble Knight.gcs",
        "keep": ["Combat Reflexes", "Luck", "Natural Attacks", "Tactics", "Stealth", "Climbing"],
        "collapse": ["Advantages", "Physical"],
    },
    {
        "file": "c31r07.json",
        "gcs": "Library/Basic Set/Characters/C31R07.gcs",
        "keep": ["Combat Reflexes", "Form: Hexapod Robot (Alternate Form)", "Chameleon", "Tactics"],
    },
    {
        "file": "c31r07-combat-reflexes-off.json",
        "gcs": "Library/Basic Set/Characters/C31R07.gcs",
        "keep": ["Combat Reflexes", "Form: Hexapod Robot (Alternate Form)", "Tactics"],
        "disable": "Combat Reflexes",
    },
    {
        "file": "dire-vulture.json",
        "gcs": "Library/Dungeon Fantasy/Dungeon Fantasy Adventure 1/Monsters/Dire Vulture.gcs",
        "keep": ["Taboo Trait (Fixed IQ)", "Stealth", "Brawling"],
    },
    {
        "file": "orc-sergeant-es.json",
        "gcs": "Library/Dungeon Fantasy/Dungeon Fantasy Adventure 1/Monsters/Orc Sergeant.gcs",
        "keep": ["Combat Reflexes", "Social Stigma (Savage)", "Stealth"],
        "rename": ["Combat Reflexes", "Reflejos de combate (RC)"],
    },
]


def git_show(repository: Path, commit: str, path: str) -> str:
    """Return a file's text at a commit of a local clone"""
    return subprocess.run(["git", "-C", str(repository), "show", f"{commit}:{path}"], capture_output=True,
                          check=True).stdout.decode("utf-8")


def walk(entries: list[dict[str, Any]]):
    """Yield every GCS entry, depth first, parents before their children"""
    for entry in entries or []:
        yield entry
        yield from walk(entry.get("children") or [])


def named(entries: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """Return the one GCS entry of a name"""
    found = [entry for entry in walk(entries) if entry.get("name") == name]
    if len(found) != 1:
        raise SystemExit(f"expected one entry named {name!r}, found {len(found)}")
    return found[0]


def attribute(gcs: dict[str, Any], attr_id: str) -> dict[str, Any]:
    """Return the calc of a GCS attribute"""
    return next(a for a in gcs["attributes"] if a["attr_id"] == attr_id).get("calc", {})


def apply_changes(gcs: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    """Make the GM's changes in the GCS data, as GCS 5 writes them; return them in words"""
    changes = []
    if "rename" in spec:
        old, new = spec["rename"]
        named(gcs["traits"], old)["name"] = new
        changes.append(f"the trait {old!r} renamed {new!r}, as a translated trait library names it")
    if "disable" in spec:
        trait = named(gcs["traits"], spec["disable"])
        trait["disabled"] = True
        trait["calc"]["points"] = 0  # GCS computes 0 points for every switched-off trait of the library (35 of 35)
        changes.append(f"the trait {spec['disable']!r} switched off (GCS: disabled = true, calc.points = 0)")
    if "zero_points" in spec:
        skill = named(gcs["skills"], spec["zero_points"])
        iq = attribute(gcs, "iq")["value"]
        # GCS keeps a 0-point skill at its best default and writes no `points`; Tactics defaults to IQ-6 or
        # Strategy-6 (Library/Basic Set/Basic Set Skills.skl), and these characters have no Strategy.
        del skill["points"]
        skill["calc"] = {"level": iq - 6, "rsl": "IQ-6"}
        changes.append(f"the skill {spec['zero_points']!r} set to 0 points: GCS omits `points` and keeps its default "
                       f"level IQ-6 = {iq - 6}")
    return changes


def without_otf(notes: str) -> str:
    """Refuse notes holding an OtF that GGA's importer would move out of them (actor-importer.js _removeOtf)"""
    lowered = notes.lower()
    for key in ("check", "during", "pass", "fail"):
        if f"{key[0]}:[" in lowered or f"{key}:[" in lowered:
            raise SystemExit(f"notes with an OtF ({key}) are not converted: {notes!r}")
    return notes


def finish_notes(entry: dict[str, Any]) -> None:
    """Do what _migrateOtfsAndNotes does to a new entry without OtFs: trimmed notes and the empty extra fields"""
    entry["notes"] = re.sub(r"\n\s\s+", " ", without_otf(entry["notes"]).strip())
    entry["itemModifiers"] = ""
    entry.setdefault("modifierTags", "")


def replaced(entry: dict[str, Any], gcs_entry: dict[str, Any]) -> dict[str, Any]:
    """Fill GCS's @replacements@ into the entry's text values (_substituteItemReplacements)"""
    for key, value in (gcs_entry.get("replacements") or {}).items():
        for field, text in entry.items():
            if isinstance(text, str) and f"@{key}@" in text:
                entry[field] = text.replace(f"@{key}@", str(value))
    return entry


def base(name: str) -> dict[str, Any]:
    """Return the keys _Base, Named and NamedCost set, in their order"""
    return {"notes": "", "pageref": "", "contains": {}, "uuid": "", "parentuuid": "", "originalName": "",
            "name": name.strip(), "points": 0, "save": False, "itemid": "", "itemInfo": {}, "fromItem": "",
            "addToQuickRoll": False}


def set_pageref(entry: dict[str, Any], reference: str | None) -> None:
    """Set the page reference as _Base#pageRef does; a reference left undefined leaves no key"""
    if reference is None:
        entry.pop("pageref", None)
    elif re.search(r"https?://", reference, re.I):
        entry["pageref"], entry["externallink"] = "*Link", reference
    else:
        entry["pageref"] = reference


def resolved_notes(gcs_entry: dict[str, Any]) -> str:
    """Return the notes GGA takes (_resolveNotes)"""
    calc = gcs_entry.get("calc") or {}
    for value in (calc.get("resolved_notes"), gcs_entry.get("notes"), gcs_entry.get("local_notes")):
        if value is not None:
            return value
    return ""


def trait(gcs_entry: dict[str, Any], parent: str, strings: dict[str, str]) -> dict[str, Any]:
    """Return a GCS trait as GGA's importAd stores it"""
    levels = gcs_entry.get("levels")
    name = gcs_entry["name"] + (f" {levels}" if levels else "")
    entry = base(name)
    if levels is not None:
        entry["level"] = levels
    entry |= {"userdesc": "", "note": ""}
    entry["originalName"] = gcs_entry["name"]
    entry["points"] = (gcs_entry.get("calc") or {}).get("points")
    entry["notes"] = resolved_notes(gcs_entry)
    if gcs_entry.get("userdesc") is None:
        del entry["userdesc"]
    else:
        entry["userdesc"] = gcs_entry["userdesc"]
    entry["cr"] = gcs_entry.get("cr") or None
    if gcs_entry.get("cr"):
        entry["notes"] = f"[{strings['CR' + str(gcs_entry['cr'])]}: {entry['name']}]"
    for modifier in gcs_entry.get("modifiers") or []:
        if not modifier.get("disabled"):
            text = modifier["name"] + (f" ({modifier['notes']})" if modifier.get("notes") else "")
            entry["notes"] += ("; " if entry["notes"] else "") + text
    if entry.get("userdesc"):
        entry["notes"] += ("\n" if entry["notes"] else "") + entry["userdesc"]
    set_pageref(entry, gcs_entry.get("reference"))
    entry["uuid"], entry["parentuuid"] = gcs_entry["id"], parent
    if entry["points"] is None:
        del entry["points"]
    finish_notes(replaced(entry, gcs_entry))
    return entry


def skill(gcs_entry: dict[str, Any], parent: str) -> dict[str, Any]:
    """Return a GCS skill (or container) as GGA's importSk stores it; techniques are not converted"""
    if gcs_entry["id"].startswith("q"):
        return {**base(gcs_entry["name"]), "uuid": gcs_entry["id"], "parentuuid": parent, "technique": True}
    name = gcs_entry["name"] + (f"/TL{gcs_entry['tech_level']}" if gcs_entry.get("tech_level") else "")
    name += f" ({gcs_entry['specialization']})" if gcs_entry.get("specialization") else ""
    entry = base(name) | {"import": "", "level": 0, "type": "", "relativelevel": "", "modifierTags": "",
                          "consumeAction": False}
    entry["originalName"] = name
    set_pageref(entry, gcs_entry.get("reference") or "")
    entry["uuid"], entry["parentuuid"] = gcs_entry["id"], parent
    if gcs_entry["id"].startswith("s"):  # GCS 5 ids: s a skill, S a container (actor-importer.js importSk)
        calc = gcs_entry.get("calc")
        entry["type"] = "SKILL"
        entry["import"] = calc["level"] if calc else ""
        entry["level"] = ""  # `if (s.level == 0) s.level = ''`: the constructor's 0
        if "points" in gcs_entry:
            entry["points"] = gcs_entry["points"]
        else:
            del entry["points"]  # `s.points = i.points`, undefined for GCS's 0-point skill
        if (calc or {}).get("rsl") is None:
            del entry["relativelevel"]  # `s.relativelevel = i.calc?.rsl`, undefined
        else:
            entry["relativelevel"] = calc["rsl"]
        entry["notes"] = resolved_notes(gcs_entry)
    else:
        entry["level"] = ""
    finish_notes(replaced(entry, gcs_entry))
    return entry


def flatten(entries: list[dict[str, Any]], convert, parent: str = "") -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Return (GCS entry, GGA entry) pairs depth first, as importAd and importSk list them"""
    out = []
    for gcs_entry in entries or []:
        out.append((gcs_entry, convert(gcs_entry, parent)))
        out += flatten(gcs_entry.get("children") or [], convert, gcs_entry["id"])
    return out


def fold(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """Nest the flat list by parentuuid into zero-filled index keys (foldList), children in order"""
    by_id = {entry["uuid"]: entry for _, entry in pairs}
    top: dict[str, Any] = {}
    for _, entry in pairs:
        holder = by_id[entry["parentuuid"]]["contains"] if entry["parentuuid"] else top
        holder[f"{len(holder):05d}"] = entry
    return top


def cut(folded: dict[str, Any], keep: set[str]) -> dict[str, Any]:
    """Keep the entries named in keep (by GCS name or GGA name) and the containers above them, their keys unchanged"""
    out = {}
    for key, entry in folded.items():
        inner = cut(entry["contains"], keep)
        if inner or entry.get("originalName") in keep or entry["name"] in keep:
            if entry.get("technique"):
                raise SystemExit(f"techniques are not converted: {entry['name']!r}")
            out[key] = {**entry, "contains": inner}
    return out


def collapse(folded: dict[str, Any], names: set[str]) -> None:
    """Move the children of the named containers from contains to collapsed (GGA's toggleExpand)"""
    for entry in folded.values():
        collapse(entry["contains"], names)
        if entry["name"] in names and entry["contains"]:
            entry["collapsed"], entry["contains"] = entry["contains"], {}


def kept_names(folded: dict[str, Any]) -> set[str]:
    """Return every name left in a folded list"""
    names = set()
    for entry in folded.values():
        names |= {entry["name"], entry.get("originalName")}
        names |= kept_names(entry["contains"]) | kept_names(entry.get("collapsed", {}))
    return names


def actor(gcs: dict[str, Any], spec: dict[str, Any], strings: dict[str, str]) -> dict[str, Any]:
    """Return the fixture's actor: GGA's attributes for IQ and Per, and its cut ads and skills"""
    keep = set(spec["keep"]) | ({spec["rename"][1]} if "rename" in spec else set())
    attributes = {}
    for key, attr_id in (("IQ", "iq"), ("PER", "per")):
        calc = attribute(gcs, attr_id)
        attributes[key] = {"import": calc.get("value") or 0, "value": 10, "points": calc.get("points") or 0,
                           "dtype": "Number"}
    ads = cut(fold(flatten(gcs.get("traits") or [], lambda e, p: trait(e, p, strings))), keep)
    skills = cut(fold(flatten(gcs.get("skills") or [], skill)), keep)
    collapse(ads, set(spec.get("collapse", [])))
    collapse(skills, set(spec.get("collapse", [])))
    missing = keep - kept_names(ads) - kept_names(skills) - {spec.get("rename", [None])[0]}
    if missing:
        raise SystemExit(f"{spec['file']}: nothing kept for {sorted(missing)}")
    name = gcs["profile"].get("name") or Path(spec["gcs"]).stem
    return {"name": name, "type": "character", "system": {"attributes": attributes, "ads": ads, "skills": skills}}


def cut_gcs(entries: list[dict[str, Any]], keep: set[str]) -> list[dict[str, Any]]:
    """Keep the GCS entries named in keep and the containers above them, children in order"""
    out = []
    for entry in entries or []:
        children = cut_gcs(entry.get("children") or [], keep)
        if children or entry["name"] in keep:
            out.append({**entry, "children": children})
    return out


# Each NPC as a GM types it into the Mook Generator: a leader whose trait carries its cost in GURPS notation and whose
# skills carry their levels, and one whose traits were pasted from a stat block (the Generator's import strips costs).
MOOKS: list[dict[str, Any]] = [
    {
        "file": "mook-bandit-leader.json", "name": "Bandit leader", "iq": 11, "per": 12,
        "traits": "Combat Reflexes [15]; Overconfidence (12) [-5]\nBad Temper [-10]",
        "skills": "Tactics-12; Stealth-13\nBroadsword-14",
    },
    {
        "file": "mook-bandit.json", "name": "Bandit", "iq": 10, "per": 10,
        "traits": "Combat Reflexes; Greed (12)", "skills": "Stealth-11; Shortsword-12",
    },
]


def gga_strings(gga: Path, commit: str = GGA_COMMIT, path: str = "lang/en.json") -> dict[str, Any]:
    """Return GGA's English strings under GURPS"""
    return json.loads(git_show(gga, commit, path))["GURPS"]


def write(path: Path, fixture: dict[str, Any]) -> None:
    """Write one fixture as the corpus keeps them"""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def v1_fixture(base: dict[str, Any], importer: str, actor: dict[str, Any]) -> dict[str, Any]:
    """Return a GGA 1.0 fixture: the 0.18 fixture's source and changes, the 1.0 code that shaped it, the actor"""
    return {**base, "importer": {"repository": GGA, "commit": GGA_V1_COMMIT, "path": importer,
                                 "version": "1.0.0-alpha"}, "actor": actor}


def main() -> None:
    """Write every fixture of FIXTURES and MOOKS, in GGA 0.18's shape and in GGA 1.0's"""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, required=True, help=f"a local clone of {LIBRARY}")
    parser.add_argument("--gga", type=Path, required=True, help=f"a local clone of {GGA}")
    parser.add_argument("--out", type=Path, default=ROOT / "fixtures" / "sheets" / "gga")
    parser.add_argument("--out-v1", type=Path, default=ROOT / "fixtures" / "sheets" / "gga-1.0")
    args = parser.parse_args()
    strings = gga_strings(args.gga)
    holder = gga_strings(args.gga, GGA_V1_COMMIT, "static/lang/en.json")["migration"]["holderItem"]["name"]
    for spec in FIXTURES:
        gcs = json.loads(git_show(args.library, LIBRARY_COMMIT, spec["gcs"]))
        changes = apply_changes(gcs, spec)
        fixture = {
            "source": {"repository": LIBRARY, "commit": LIBRARY_COMMIT, "path": spec["gcs"],
                       "gcs_version": gcs["version"]},
            "importer": {"repository": GGA, "commit": GGA_COMMIT, "path": "module/actor/actor-importer.js"},
            "changes": changes,
            "collapsed": spec.get("collapse", []),
            "actor": actor(gcs, spec, strings),
        }
        write(args.out / spec["file"], fixture)
        stem = spec["file"].removesuffix(".json")
        write(args.out_v1 / f"{stem}.migrated.json",
              v1_fixture(fixture, "src/module/actor/migrations/v1_0_0.ts",
                         gga_v1.migrated_actor(stem, fixture["actor"], holder)))
        keep = set(spec["keep"]) | ({spec["rename"][1]} if "rename" in spec else set())
        kept = {"traits": cut_gcs(gcs.get("traits") or [], keep), "skills": cut_gcs(gcs.get("skills") or [], keep)}
        write(args.out_v1 / f"{stem}.imported.json",
              v1_fixture(fixture, "src/module/importer/gcs-importer/importer.ts",
                         gga_v1.imported_actor(stem, gcs, fixture["actor"]["name"], kept, spec.get("collapse", []))))
    for spec in MOOKS:
        typed = {key: spec[key] for key in ("name", "iq", "per", "traits", "skills")}
        fixture = {
            "source": {"repository": GGA, "commit": GGA_COMMIT, "path": "lib/npc-input.js", "typed": typed},
            "importer": {"repository": GGA, "commit": GGA_COMMIT, "path": "lib/npc-input.js"},
            "changes": [],
            "collapsed": [],
            "actor": gga_mook.mook_actor(spec),
        }
        write(args.out / spec["file"], fixture)
        stem = spec["file"].removesuffix(".json")
        write(args.out_v1 / f"{stem}.migrated.json",
              v1_fixture(fixture, "src/module/actor/migrations/v1_0_0.ts",
                         gga_v1.migrated_actor(stem, fixture["actor"], holder)))


if __name__ == "__main__":
    main()
