"""Narrate a GURPS surprise turn by turn"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exporter.narration import counted, side_label, signed
from exporter.rules.gurps4e import Outcome, StunTurn, succeeds
from exporter.rules.shared import SIDE_KEYS, other

if TYPE_CHECKING:
    from exporter.rules.gurps4e import Scenario

MODIFIER_LABELS = {
    "combat_reflexes": "leader has Combat Reflexes",
    "ally_combat_reflexes": "someone on the side has Combat Reflexes",
    "higher_iq": "leader has the higher IQ",
    "tactics": "leader's Tactics",
    "leaderless": "leaderless",
    "gm": "GM modifier",
}


def narrate(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Tell the story of one GURPS surprise"""
    lines = opening_lines(scenario, outcome)
    if outcome.surprise == "none":
        lines.append("Nobody is surprised: combat starts in the usual turn order.")
        return lines
    winner, loser = outcome.surprise, other(outcome.surprise)  # type: ignore[arg-type]
    kind = "total" if outcome.surprise_kind == "total" else "partial"
    lines.append(f"Surprise for {side_label(scenario, winner)}: everyone in {side_label(scenario, loser)} "
                 f"is mentally stunned ({kind} surprise): Do Nothing, active defences -4, no retreat.")
    if outcome.freeze and scenario.options.freeze_roll_scope == "side":
        seconds = next(iter(outcome.freeze.values()))
        lines.append(f"Freeze roll for the side (1d6): {counted(seconds, 'second')} frozen, Combat Reflexes excepted.")
    else:
        lines.extend(f"Freeze roll for {name} (1d6): {counted(seconds, 'second')} frozen."
                     for name, seconds in outcome.freeze.items())
    lines.extend(turn_lines(outcome))
    return lines


def opening_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Describe the roll that decides who is surprised"""
    if outcome.initiative is not None:
        lines = ["Initiative (1d6 each leader, highest wins, a tie means nobody is surprised):"]
        for key in SIDE_KEYS:
            roll = outcome.initiative[key]
            mods = ", ".join(f"{MODIFIER_LABELS[k]} {signed(v)}" for k, v in roll.modifiers.items()) or "no modifiers"
            lines.append(f"  {side_label(scenario, key)}: rolled {roll.roll}, {mods} -> {roll.total}")
        return lines
    if outcome.contest is not None:
        sneak = outcome.contest.sneak
        lines = [f"Quick Contest: {sneak.name} sneaks (Stealth {sneak.skill}): {roll_text(sneak.roll, sneak.skill)}"]
        for watcher, result in zip(outcome.contest.watchers, outcome.contest.results, strict=True):
            verdict = {"sneak": "the sneak wins", "watcher": "spotted!", "tie": "a tie: nobody won"}[result]
            lines.append(f"  {watcher.name} watches (Per {watcher.skill}): "
                         f"{roll_text(watcher.roll, watcher.skill)}; {verdict}")
        return lines
    surprising, watching = side_label(scenario, scenario.surprising), side_label(scenario, scenario.watching)
    return [f"Total surprise by the GM's call: {surprising} fall on {watching}."]


def roll_text(roll: int | None, skill: int) -> str:
    """Describe one 3d6 roll and its margin"""
    if roll is None:
        return "cannot roll (below 3)"
    return f"rolled {roll}, {'made it' if succeeds(skill, roll) else 'failed'} by {abs(skill - roll)}"


def turn_lines(outcome: Outcome) -> list[str]:
    """Narrate every stunned member's turns, second by second"""
    lines: list[str] = []
    stunned = list(outcome.tracks)  # those with a turn still to tell, in their order: each track is read once a turn
    turn = 0
    while stunned:
        turn += 1
        stunned = [t for t in stunned if len(t.turns) >= turn]
        if not stunned:
            break
        lines.append(f"Turn {turn}:")
        for track in stunned:
            step = track.turns[turn - 1]
            lines.append(f"  {track.member.name}: {step_text(step, track.never and step is track.turns[-1])}")
    for track in outcome.tracks:
        if track.never:
            lines.append(f"{track.member.name} can never roll out of it (IQ {track.member.iq} is below 3) and "
                         "misses the whole fight unless the GM intervenes.")
        else:
            lines.append(f"{track.member.name} loses {counted(track.lost or 0, 'second')} "
                         f"and acts normally from turn {(track.lost or 0) + 1}.")
    return lines


def step_text(step: StunTurn, hopeless: bool) -> str:
    """Describe one stunned turn"""
    if step.state == "frozen":
        return "frozen, Do Nothing (defences -4)."
    if step.roll is None:
        ending = " for good." if hopeless else "."
        return f"IQ roll needs {step.target}, which cannot be rolled; still stunned{ending}"
    if step.success:
        after = "the -4 lifts now" if step.defence == 0 else "the -4 lasts to the end of this turn"
        return f"IQ roll vs {step.target}: {step.roll}, success. Do Nothing this turn ({after}); acts next turn."
    return f"IQ roll vs {step.target}: {step.roll}, failure. Still stunned, Do Nothing (defences -4)."
