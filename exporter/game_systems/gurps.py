"""GURPS Game Aid (package id "gurps"): readers, versions, statuses, beside templates/foundry/game-systems/gurps/"""

from __future__ import annotations

from typing import Any

GAME_SYSTEM_ID = "gurps"
RULES_SYSTEM = "gurps4e"  # the rules whose inputs its sheets hold

# GURPS Game Aid (crnormand/gurps @ac714d44d6b93fd989bdeb6870c736fb04645ec4, 0.18.22):
# template.json: system.attributes.IQ.value and .PER.value; system.ads and system.skills hold named entries nested
# through `contains` and, once a container is folded on the sheet, `collapsed` (module/actor/actor.js toggleExpand),
# named and pointed as module/actor/actor-importer.js importAd and importSk store them
# (templates/foundry/game-systems/gurps/gga.js).
GGA = "crnormand/gurps@ac714d44d6b93fd989bdeb6870c736fb04645ec4"
# GURPS Game Aid 1.0.0-alpha (crnormand/gurps branch develop @6dd54dd7, V14 only): traits and skills are Items of the
# types `feature` and `skill` (src/module/item/data/trait.ts, skill.ts, base.ts: points, level, disabled, containedBy,
# importid), made by src/module/importer/gcs-importer/importer.ts or migrated from 0.18 by
# src/module/actor/migrations/v1_0_0.ts; system.ads and system.skills are deprecated getters there, never read.
GGA1 = "crnormand/gurps@6dd54dd7ab129f24a7f858038b1aa39883997758"
# GGA's Mook Generator (0.18.22 lib/npc-input.js checkTraits, checkSkills): traits named as typed, a cost "[15]"
# included; skills at 0 points with the typed level in `import` and no `uuid`, which GGA's importers set.

# The versions (system.json `version`) the readers and the module's GGA code were checked against.
VERSIONS = {"0.18.22": GGA, "1.0.0-alpha": f"{GGA1} static/system.json"}

# The reader of each input of the GURPS rules (gurps4e), with its source.
READERS: dict[str, tuple[Any, str]] = {
    "iq": ("system.attributes.IQ.value", f"{GGA} template.json"),
    "per": ("system.attributes.PER.value", f"{GGA} template.json"),
    "combat_reflexes": ({"advantage": "Combat Reflexes"}, f"{GGA} module/actor/actor-importer.js importAd, "
                                                           f"lib/npc-input.js checkTraits; {GGA1} "
                                                           f"src/module/item/data/trait.ts"),
    "tactics": ({"skill": "Tactics"}, f"{GGA} module/actor/actor-importer.js importSk, lib/npc-input.js "
                                      f"checkSkills; {GGA1} src/module/item/data/skill.ts"),
    "stealth": ({"skill": "Stealth"}, f"{GGA} module/actor/actor-importer.js importSk, lib/npc-input.js "
                                      f"checkSkills; {GGA1} src/module/item/data/skill.ts"),
}

# The module's statuses GGA has its own of, reused rather than added (docs/dev/foundry.md §6: GGA replaces
# CONFIG.statusEffects with its own list, module/effects/effects.js at ac714d44): its mental stun is the stun of a
# GURPS surprise (docs/rules/gurps4e.md#turn-by-turn: Do Nothing, -4, no retreat).
REUSED_STATUSES = {"surprised": ("mentalstun",)}
