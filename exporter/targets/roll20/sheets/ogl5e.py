"""Roll20's "D&D 5E by Roll20" sheet (charactersheetname ogl5e): where it holds the values the D&D 5e rules (dnd5e)
read, on a player character's sheet and on an NPC's, with the public source of each"""

from __future__ import annotations

from typing import Any

RULES_SYSTEM = "dnd5e"

# The sheet's code lives in Roll20/roll20-character-sheets "5th Edition OGL by Roll20/" (one HTML file) and in its
# legacy copy "DD5thEditionLegacy/" with the same attribute names, split into files; read in the legacy copy, and each
# worker and field named below found the same in the live file (OGL5E_LIVE).
OGL5E_LIVE = ("Roll20/roll20-character-sheets 5th Edition OGL by Roll20/5th Edition OGL by Roll20.html"
              "@987297db4d5fd249342c7d5dd62b7c5026c7836d")
OGL5E_COMMIT = "e7a41745f5b50d7e07d017c174a29f46d6110f38"
OGL5E_WORKERS = f"Roll20/roll20-character-sheets DD5thEditionLegacy/src/js/sheetworkers.js@{OGL5E_COMMIT}"
OGL5E_NPC = f"Roll20/roll20-character-sheets DD5thEditionLegacy/src/html/npc.html@{OGL5E_COMMIT}"
OGL5E_HIDDEN = ("Roll20/roll20-character-sheets DD5thEditionLegacy/src/html/hiddeninputs.html"
                "@6778333ec5effc3c1361536d4feaedd52cc76b26")
# `npc` is 1 on an NPC's sheet (the checkbox of npc.html, a monster dropped from the compendium), 0 by default (the
# sheet's hidden input).
NPC = "npc"

# The reader of each input (exporter/targets/roll20/sheets/__init__.py says what a reader is), with its source. Every
# value here is one a sheet worker writes, and its field's default (0, or 10 for passive_wisdom) is no character's
# value, so each is read only where it was set.
READERS: dict[str, tuple[Any, str]] = {
    # A PC's Stealth bonus, worked out by update_skills (Dexterity modifier, proficiency or expertise, Jack of All
    # Trades, the flat bonus, items); text such as "3+1d4" under dice proficiency, which is asked for. An NPC's
    # statblock lists Stealth only where it is proficient: npc_stealth_base (its worker keeps npc_stealth from it),
    # else the Dexterity modifier is its Stealth.
    "stealth": ({"when": NPC, "then": {"set": ["npc_stealth_base", "dexterity_mod"]},
                 "otherwise": {"set": "stealth_bonus"}},
                f"{OGL5E_WORKERS} update_skills, update_npc_lists, update_mod; {OGL5E_NPC}; {OGL5E_HIDDEN}"),
    # A PC's passive_wisdom: 10 + perception_bonus + passiveperceptionmod (update_passive_perception). An NPC has no
    # such attribute: its passive Perception is text in npc_senses, as a compendium drop writes it (processDrop).
    "passive_perception": ({"when": NPC, "then": {"set": "npc_senses", "after": "passive Perception"},
                            "otherwise": {"set": "passive_wisdom"}},
                           f"{OGL5E_WORKERS} update_passive_perception, processDrop; {OGL5E_HIDDEN}"),
    # PC and NPC alike (update_initiative): the Dexterity modifier and initmod, plus Dexterity / 100 where the sheet's
    # tiebreaker is on ("2.14"), read as the whole number below it.
    "initiative": ({"set": "initiative_bonus"}, f"{OGL5E_WORKERS} update_initiative; {OGL5E_HIDDEN}"),
}
