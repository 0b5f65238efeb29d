"""Narrate a D&D 5e surprise: the hiders' Stealth checks, who notices no threat, and in 2024 the Initiative rolls"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exporter.narration import listed, side_label, signed
from exporter.rules.dnd5e import Check, Outcome, stealth_kind
from exporter.rules.shared import SIDE_KEYS, other

if TYPE_CHECKING:
    from exporter.rules.dnd5e import Scenario

EFFECT_2014 = "cannot move or take an action on their first turn, nor take a reaction until that turn ends"
EFFECT_2024 = "roll Initiative with Disadvantage and lose no turn"


def narrate(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Return the lines that tell a played surprise, in order"""
    options = scenario.options
    lines = [f"D&D 5e surprise, {options.rules} rules."]
    if options.surprise_by == "gm":
        lines.append("The GM decides who is surprised: no Stealth checks.")
    else:
        lines += stealth_lines(scenario, outcome)
    lines += surprised_lines(scenario, outcome)
    lines.append(verdict_line(scenario, outcome))
    if outcome.initiative is not None:
        lines += initiative_lines(scenario, outcome)
    return lines


def check_text(check: Check, bonus: int, kind: str) -> str:
    """Write a d20 check: the faces, the kept one with Advantage or Disadvantage, the bonus and the total"""
    if len(check.rolls) == 1:
        return f"d20 {check.rolls[0]} {signed(bonus)} = {check.total}"
    first, second = check.rolls
    kept = check.total - bonus
    return f"d20 {first} and {second} ({kind}, keeps {kept}) {signed(bonus)} = {check.total}"


def stealth_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Describe each hider's Stealth check, and the sides whose members do not all hide"""
    options = scenario.options
    ties = "a tie stays hidden" if options.ties == "hider" else "a tie is noticed"
    rule = ("at least half of a side's hiders must stay hidden from a watcher (group check)" if options.group_check
            else "every hider of a side must stay hidden from a watcher")
    lines = [f"Dexterity (Stealth) checks against each watcher's passive Wisdom (Perception); {ties}; {rule}."]
    members = {member.name: member for key in SIDE_KEYS for member in scenario.side(key).members}
    for check in outcome.stealth:
        member = members[check.name]
        lines.append(f"{check.name} hides: {check_text(check, member.stealth, stealth_kind(member))}.")
    for key in SIDE_KEYS:
        open_members = [member.name for member in scenario.side(key).members if not member.hiding]
        if not outcome.stealth and key == "b":
            lines.append("Nobody hides: both sides notice each other, nobody is surprised.")
        elif outcome.stealth and open_members:
            lines.append(f"Not hiding on {side_label(scenario, key)}: {listed(open_members)}; "
                         f"{side_label(scenario, other(key))} notices a threat.")
    return lines


def surprised_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """List the surprised members of each side and what surprise costs them"""
    effect = EFFECT_2014 if scenario.options.rules == "2014" else EFFECT_2024
    lines = []
    for key in SIDE_KEYS:
        names = [member.name for member in outcome.members if member.side == key and member.surprised]
        if names:
            lines.append(f"Surprised on {side_label(scenario, key)} ({effect}): {listed(names)}.")
    return lines


def verdict_line(scenario: Scenario, outcome: Outcome) -> str:
    """Say which side gets the jump, or why neither does"""
    if outcome.surprise != "none":
        winner, loser = outcome.surprise, other(outcome.surprise)
        return f"{side_label(scenario, winner)} gets the jump on {side_label(scenario, loser)}."
    if any(member.surprised for member in outcome.members):
        return "Both sides have surprised members: neither side gets the jump."
    return "Nobody is surprised."


def initiative_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Describe the 2024 Initiative rolls and the turn order they give"""
    bonuses = {member.name: member.initiative for key in SIDE_KEYS for member in scenario.side(key).members}
    lines = []
    for check in outcome.initiative or ():
        lines.append(f"{check.name} rolls Initiative: "
                     f"{check_text(check, bonuses[check.name], 'Disadvantage, surprised')}.")
    lines.append(f"Turn order: {listed(outcome.order or ())}.")
    return lines
