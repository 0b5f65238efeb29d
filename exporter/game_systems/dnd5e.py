"""dnd5e (package id "dnd5e"): its readers and versions, beside its adapter templates/foundry/game-systems/dnd5e/"""

from __future__ import annotations

from typing import Any

GAME_SYSTEM_ID = "dnd5e"
RULES_SYSTEM = "dnd5e"  # the rules whose inputs its sheets hold

# dnd5e 5.3.3, the line whose system.json spans V13 and V14 (minimum 13.347, verified 14), in its own repository on
# GitHub (the game system's organisation, foundryvtt/dnd5e); paths under module/.
DND5E = "dnd5e 5.3.3: dnd5e@965ad2d0cf5d063dac675ba078b5bd3c3c0dd449"

VERSIONS = {"5.3.3": f"{DND5E} system.json"}

# The reader of each input of the D&D 5e rules (dnd5e), with its source: the totals dnd5e prepares for characters and
# NPCs alike (character.mjs 226, npc.mjs 418).
READERS: dict[str, tuple[Any, str]] = {
    "stealth": ("system.skills.ste.total", f"{DND5E} data/actor/templates/creature.mjs prepareSkill 251-260"),
    "passive_perception": ("system.skills.prc.passive", f"{DND5E} data/actor/templates/creature.mjs 271-277"),
    "initiative": ("system.attributes.init.total", f"{DND5E} data/actor/templates/attributes.mjs 373-406"),
}

# dnd5e's own Surprised (config.mjs 3756, a pseudo condition), which it puts in CONFIG.statusEffects at i18nInit
# (dnd5e.mjs 500-502): reused, not added beside it.
REUSED_STATUSES = {"surprised": ("surprised",)}
