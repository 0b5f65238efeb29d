"""GURPS Game Aid 1.0's actors: traits and skills as Foundry Items, made by its GCS importer or its migration

Written for this project from reading crnormand/gurps at GGA_V1_COMMIT (branch develop, 1.0.0-alpha; none of GGA's
code), paths under src/module/:

- the item schemas: item/data/base.ts (baseItemModelSchema: disabled, importid, importFrom, ...), trait.ts (level,
  userdesc, points, cr), skill.ts (points, importedLevel, specialization, techlevel, difficulty, relativelevel, otf),
  data/mixins/containable.ts (containedBy, open); the item types of item/types.ts (`feature`, `skill`);
- the GCS importer, importer/gcs-importer/importer.ts: #importItem 809-893, #importTrait 1020-1066 (it keeps GCS's
  `disabled`), #importSkill 1070-1144 (`points: skill.points ?? 0`), #importAttributes 365-378;
- the migration of a 0.18 actor, actor/migrations/v1_0_0.ts (migrateActorSource 94-283: every trait and skill of
  `system.ads` and `system.skills` becomes an Item, through flattenItemList 555-574, which follows `contains` only,
  so the entries of a container folded on the 0.18 sheet, in its `collapsed` list, are not carried over; a holder
  Item for the actor's reactions, named by GGA's `GURPS.migration.holderItem.name`), and item/migrations/v1_0_0.ts
  (migrateTraitSystem 322-343, migrateSkillSystem 347-366: the 0.18 entry spread into the Item's system, `importid`
  from its `uuid`, `importedLevel` from its `import`).

The data model keeps only the fields of its schema: what the importer or the migration gives beyond them is left out
here as storing the document drops it, and a field neither gives is left out too (the model fills its initial value
as the document is prepared). Left out besides, since ambush reads none of them: the actions (weapons), reactions and
conditional modifiers of an Item (empty here), `modifierTags`, and every actor field but the attributes IQ and Per,
`holderItemId` and `profile`, whose presence is how GGA itself tells a 1.0 actor (v1_0_0.ts 113, `alreadyMigrated`).
Ids are made from the fixture's name and GCS's id (GGA draws random ones), so that the files do not change.
"""

from __future__ import annotations

import hashlib
from typing import Any

# item/data/base.ts, containable.ts, trait.ts and skill.ts: the fields of each Item type's system
BASE_FIELDS = ("containedBy", "open", "actions", "disabled", "bonuses", "itemModifiers", "addToQuickRoll", "_reactions",
               "_conditionalmods", "notes", "notesOpen", "pageref", "vttNotes", "checkotf", "duringotf", "passotf",
               "failotf", "consumeAction", "importid", "importFrom", "originalName")
ITEM_FIELDS = {
    "feature": BASE_FIELDS + ("level", "userdesc", "points", "cr"),
    "skill": BASE_FIELDS + ("points", "importedLevel", "specialization", "techlevel", "difficulty", "relativelevel",
                            "otf"),
}
LEFT_OUT = ("modifierTags",)
SORT_INTEGER_DENSITY = 100000  # API v14 variables/CONST.SORT_INTEGER_DENSITY.html


def item_id(*parts: str) -> str:
    """Return a fixed 16-character document id for an Item"""
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def stored(kind: str, system: dict[str, Any]) -> dict[str, Any]:
    """Cut an Item's system to its schema's fields, as storing the document does"""
    return {key: value for key, value in system.items() if key in ITEM_FIELDS[kind] and key not in LEFT_OUT}


def actor_system(attributes: dict[str, dict[str, Any]], holder: str = "") -> dict[str, Any]:
    """Return the actor's kept system: IQ and Per as {importedValue, points}, the holder Item's id, a profile"""
    return {"holderItemId": holder, "attributes": attributes, "profile": {}}


# --- the GCS importer (importer/gcs-importer/importer.ts) ------------------------------------------------------

def imported_notes(entry: dict[str, Any]) -> str:
    """Return the notes #importItem takes: resolved notes, else local notes, else notes"""
    return (entry.get("calc") or {}).get("resolved_notes") or entry.get("local_notes") or entry.get("notes") or ""


def imported_base(fixture: str, entry: dict[str, Any]) -> dict[str, Any]:
    """Return the system #importItem starts every Item from, and its id"""
    return {"actions": {}, "_reactions": {}, "_conditionalmods": {}, "notes": imported_notes(entry),
            "pageref": entry.get("reference") or "", "vttNotes": entry.get("vtt_notes"), "importFrom": "GCS",
            "importid": entry.get("id") or "", "itemModifiers": "", "open": True}


def modifier_notes(trait: dict[str, Any]) -> str:
    """Return the notes #importTrait writes for the trait's enabled modifiers"""
    text = ""
    for modifier in trait.get("modifiers") or []:
        if modifier.get("disabled"):
            continue
        text += ("; " if text else "") + modifier["name"]
        notes = (modifier.get("calc") or {}).get("resolved_notes") or modifier.get("local_notes") or ""
        if modifier.get("levels"):
            text += f"{modifier['levels']}"
        if notes:
            text += f" ({notes})"
    return text


def import_trait(fixture: str, trait: dict[str, Any], index: int, parent: str | None, items: list) -> None:
    """Add a GCS trait and its children as #importTrait makes them: the children first, then the trait"""
    own = item_id(fixture, trait["id"])
    system = imported_base(fixture, trait)
    system |= {"notes": "\n".join(note for note in (modifier_notes(trait), system["notes"]) if note),
               "disabled": bool(trait.get("disabled")), "containedBy": parent, "cr": trait.get("cr"),
               "level": (trait.get("levels") or 0) if trait.get("can_level") else None,
               "userdesc": trait.get("userdesc") or "", "points": (trait.get("calc") or {}).get("points") or 0}
    for number, child in enumerate(trait.get("children") or []):
        import_trait(fixture, child, number, own, items)
    items.append({"_id": own, "type": "feature", "name": trait["name"], "sort": index * SORT_INTEGER_DENSITY,
                  "system": stored("feature", system)})


def import_skill(fixture: str, skill: dict[str, Any], index: int, parent: str | None, items: list) -> None:
    """Add a GCS skill and its children as #importSkill makes them (techniques are not converted)"""
    if skill["id"].startswith("q"):
        raise SystemExit(f"techniques are not converted: {skill['name']!r}")
    own = item_id(fixture, skill["id"])
    calc = skill.get("calc") or {}
    system = imported_base(fixture, skill)
    system |= {"containedBy": parent, "points": skill.get("points") or 0, "difficulty": skill.get("difficulty") or "",
               "relativelevel": calc.get("rsl") or "", "importedLevel": calc.get("level") or 0,
               "specialization": skill.get("specialization") or "", "techlevel": skill.get("tech_level") or ""}
    for number, child in enumerate(skill.get("children") or []):
        import_skill(fixture, child, number, own, items)
    items.append({"_id": own, "type": "skill", "name": skill["name"], "sort": index * SORT_INTEGER_DENSITY,
                  "system": stored("skill", system)})


def imported_actor(fixture: str, gcs: dict[str, Any], name: str, kept: dict[str, list], folded: list[str]) -> dict:
    """Return the actor GGA 1.0's GCS importer makes of a GCS character, cut to the kept traits and skills (and the
    containers above them); a container folded on the sheet has `open` false (base.ts toggleOpen)"""
    items: list[dict[str, Any]] = []
    for index, trait in enumerate(kept["traits"]):
        import_trait(fixture, trait, index, None, items)
    for index, skill in enumerate(kept["skills"]):
        import_skill(fixture, skill, index, None, items)
    for item in items:
        if item["name"] in folded:
            item["system"]["open"] = False
    attributes = {}
    for key in ("IQ", "PER"):
        calc = next(a for a in gcs["attributes"] if a["attr_id"] == key.lower()).get("calc", {})
        attributes[key] = {"importedValue": calc.get("value", 10), "points": calc.get("points", 0)}
    return {"name": name, "type": "character", "system": actor_system(attributes), "items": items}


# --- the migration of a 0.18 actor (actor/migrations/v1_0_0.ts, item/migrations/v1_0_0.ts) --------------------

def flatten(entries: dict[str, Any], parent: str | None, fixture: str, path: str) -> list[tuple[dict, str, str | None]]:
    """Return (entry, id, parent id) of each entry and of its `contains`, depth first (flattenItemList); a `collapsed`
    list is not followed"""
    out = []
    for key, entry in entries.items():
        own = item_id(fixture, path, key, entry.get("uuid") or entry["name"])
        out.append((entry, own, parent))
        out += flatten(entry.get("contains") or {}, own, fixture, f"{path}.{key}")
    return out


def migrated_trait(entry: dict[str, Any], parent: str | None) -> dict[str, Any]:
    """migrateTraitSystem: the placeholders, the 0.18 trait spread over them, `importid` its uuid (no CR in the
    corpus: its CR note would be taken out of the notes)"""
    if entry.get("cr") is not None:
        raise SystemExit(f"a trait with a control roll is not converted: {entry['name']!r}")
    system = {"actions": {}, "_reactions": {}, "_conditionalmods": {}, "containedBy": parent, "points": 0,
              "importedLevel": 0}
    system |= {key: value for key, value in entry.items() if key != "contains"}
    system |= {"containedBy": parent, "importid": entry.get("uuid") or ""}
    return stored("feature", system)


def migrated_skill(entry: dict[str, Any], parent: str | None) -> dict[str, Any]:
    """migrateSkillSystem: the placeholders, the 0.18 skill spread over them, its `import` as `importedLevel`"""
    system = {"actions": {}, "_reactions": {}, "_conditionalmods": {}, "containedBy": parent, "points": 0,
              "importedLevel": 0}
    system |= {key: value for key, value in entry.items() if key != "contains"}
    number = entry.get("import")
    try:
        level = int(float(number)) if number not in (None, "") else 0
    except ValueError:
        level = 0
    system |= {"containedBy": parent, "importedLevel": level or 0,
               "relativelevel": str(entry.get("relativelevel") or ""), "importid": entry.get("uuid") or ""}
    return stored("skill", system)


def migrated_actor(fixture: str, actor18: dict[str, Any], holder_name: str) -> dict[str, Any]:
    """Return what GGA 1.0 makes of a 0.18 actor as it loads it (migrateActorSource): each trait and skill an Item
    (not those of a folded container), the holder Item, the attributes' `import` as `importedValue`"""
    system = actor18["system"]
    items = []
    for entry, own, parent in flatten(system.get("ads") or {}, None, fixture, "ads"):
        items.append({"_id": own, "type": "feature", "name": entry["name"], "system": migrated_trait(entry, parent)})
    for entry, own, parent in flatten(system.get("skills") or {}, None, fixture, "skills"):
        items.append({"_id": own, "type": "skill", "name": entry["name"], "system": migrated_skill(entry, parent)})
    holder = item_id(fixture, "holder")
    items.append({"_id": holder, "type": "feature", "name": holder_name,
                  "system": stored("feature", {"containedBy": None, "points": 0, "_reactions": {},
                                               "_conditionalmods": {}, "actions": {}})})
    attributes = {key: {"importedValue": value["import"], "value": value.get("value", 10),
                        "points": value.get("points", 0)}
                  for key, value in system["attributes"].items()}
    return {"name": actor18["name"], "type": "character", "system": actor_system(attributes, holder), "items": items}
