"""Chat macros for GMs without Mod access: the default roll template, inline rolls and queries"""

from __future__ import annotations

from typing import Any

from exporter.definitions import Definitions

# ROLL20.md 6: inside an inner (nested) query these three must be HTML entities, and only there.
NESTED_QUERY_ESCAPES = {"}": "&#125;", "|": "&#124;", ",": "&#44;"}
# Characters that would end a query, a template field or an inline roll if they appeared in text.
UNSAFE_IN_MACRO = str.maketrans({ch: " " for ch in "{}[]|@%#?&,"})


def plain(text: str) -> str:
    """Make catalogue text safe to stand inside a template field or a query prompt"""
    return " ".join(text.translate(UNSAFE_IN_MACRO).split())


def query(prompt: str, *options: str) -> str:
    """A roll query: ?{Prompt|default} or ?{Prompt|Label,value|...}"""
    return "?{" + "|".join([plain(prompt), *options]) + "}"


def nested(inner: str) -> str:
    """Encode a query that stands inside another query's option"""
    return "".join(NESTED_QUERY_ESCAPES.get(ch, ch) for ch in inner)


def attribute(defs: Definitions, key: str, fallback_prompt: str, default: int) -> str:
    """Read an input from the selected token's sheet, or ask for it when the campaign maps no attribute"""
    name = defs.targets["roll20"].attributes.get(key)
    return f"@{{selected|{name}}}" if name else query(fallback_prompt, str(default))


def template(title: str, fields: list[tuple[str, str]]) -> str:
    """A default roll template message"""
    return "&{template:default} {{name=" + plain(title) + "}} " + " ".join(
        "{{" + plain(label) + "=" + value + "}}" for label, value in fields)


def chat_macros(defs: Definitions) -> list[dict[str, Any]]:
    """Return the system's chat macros: {id, name, action}, one per roll procedure"""
    s = defs.catalogue[defs.module.languages[0]]
    c = defs.constants
    if defs.system == "gurps4e":
        d6 = f"1d{c['initiative_die']}"
        success = f"{c['success_dice']}d{c['success_die']}"
        side_mods = s["RollMacro.Gurps.SideModifiers"]
        turn = query(s["RollMacro.Gurps.Turn"], "1")
        kind = query(s["RollMacro.Gurps.Kind"], f"{plain(s['Procedure.partial'])},{nested(turn)} - 1",
                     f"{plain(s['Procedure.total'])},0")
        cr = query(s["Input.combat_reflexes"], f"{plain(s['RollMacro.No'])},0",
                   f"{plain(s['RollMacro.Yes'])},{c['combat_reflexes_recovery']}")
        return [
            macro("surprise-initiative", s["RollMacro.Gurps.Initiative"], [
                (s["Dialog.Side.a"], f"[[{d6} + {query(s['Dialog.Side.a'] + ': ' + side_mods, '0')}]]"),
                (s["Dialog.Side.b"], f"[[{d6} + {query(s['Dialog.Side.b'] + ': ' + side_mods, '0')}]]"),
            ]),
            macro("surprise-contest", s["RollMacro.Gurps.Contest"], [
                (s["Input.stealth"], f"[[{success}]]"),
                (f"{s['Input.stealth']}: {s['RollMacro.Skill']}", f"[[{query(s['Input.stealth'], '12')}]]"),
                (s["Input.per"], f"[[{success}]]"),
                (f"{s['Input.per']}: {s['RollMacro.Skill']}", f"[[{query(s['Input.per'], '10')}]]"),
            ]),
            macro("surprise-freeze", s["RollMacro.Gurps.Freeze"],
                  [(s["RollMacro.Seconds"], f"[[1d{c['freeze_die']}]]")]),
            macro("surprise-recovery", s["RollMacro.Gurps.Recovery"], [
                (s["RollMacro.Roll"], f"[[{success}]]"),
                (s["RollMacro.Target"], f"[[{attribute(defs, 'iq', s['Input.iq'], 10)} + {cr} + {kind}]]"),
            ]),
        ]
    if defs.system == "adnd1e":
        die = f"1d{c['die']}"
        adjustment = attribute(defs, "surprise_adjustment", s["Input.surprise_adjustment"], 0)
        side_segments = query(s["RollMacro.Adnd.SideSegments"], "2")
        return [
            macro("surprise-d6", s["RollMacro.Adnd.SideRoll"], [
                (s["Dialog.Side.a"], f"[[{die}]]"),
                (f"{s['Dialog.Side.a']}: {s['Input.surprised_on']}",
                 f"[[{query(s['Dialog.Side.a'] + ': ' + s['Input.surprised_on'], '2')}]]"),
                (s["Dialog.Side.b"], f"[[{die}]]"),
                (f"{s['Dialog.Side.b']}: {s['Input.surprised_on']}",
                 f"[[{query(s['Dialog.Side.b'] + ': ' + s['Input.surprised_on'], '2')}]]"),
            ]),
            macro("surprise-segments", s["RollMacro.Adnd.Member"], [
                (s["RollMacro.Adnd.OwnSegments"], f"[[{{{side_segments} - {adjustment}, 0}}kh1]]"),
            ]),
        ]
    per = attribute(defs, "per", s["Input.per"], 5)
    survival = attribute(defs, "survival", s["Input.survival"], 0)
    return [
        macro("surprise-spot-test", s["Procedure.world-map"], [
            (s["RollMacro.Total"], f"[[1d{c['test_die']} + {per} - {c['special_baseline']} + {survival}]]"),
            (s["Input.dc"], f"[[{query(s['Input.dc'], '15')}]]"),
        ]),
        macro("surprise-sneak-attack", s["Procedure.sneak-attack"], [
            (s["RollMacro.Total"],
             f"[[{c['advantage_dice']}d{c['test_die']}kh1 + {query(s['Input.attack_bonus'], '0')}]]"),
            (s["Input.target_number"], f"[[{query(s['Input.target_number'], '15')}]]"),
        ]),
    ]


def macro(macro_id: str, title: str, fields: list[tuple[str, str]]) -> dict[str, Any]:
    """One macro: a file name, a display name and its chat text"""
    return {"id": macro_id, "name": plain(title), "action": template(title, fields)}
