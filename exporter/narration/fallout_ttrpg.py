"""Narrate a Fallout TTRPG surprise: the spot check or the opening Sneak Attacks, then the Surprise Round"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exporter.narration import counted, listed, side_label, signed
from exporter.rules import fallout_ttrpg as rules
from exporter.rules.fallout_ttrpg import Outcome, SneakAttack, SpotTest, SurpriseRound
from exporter.rules.shared import SideKey, other

if TYPE_CHECKING:
    from exporter.rules.fallout_ttrpg import Scenario

RESULT_TEXT = {"success": "success", "failure": "normal failure", "poor-failure": "poor failure"}
SURPRISED_EFFECT = "no Actions, Reactions or Free Reactions"
SLEEPER_START = "Prone with empty Weapon and Quick Slots, armour still on"


def narrate(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Return the lines that tell a played surprise, in order"""
    lines = test_lines(scenario, outcome) if scenario.procedure == "world-map" else opener_lines(scenario, outcome)
    lines += verdict_lines(scenario, outcome)
    if outcome.surprise_round is not None:
        lines += surprise_round_lines(scenario, outcome.surprise_round)
    lines += idle_sleeper_lines(scenario, outcome)
    round_number = 1 if outcome.surprise_round is None else 2
    lines.append(f"Round {round_number}: everyone in Sequence order: {listed(outcome.normal_order)}.")
    return lines


# --- the World Map spot check ------------------------------------------------------------------------


def test_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Describe the party's PER + Survival Test and, when rolled, the enemies' test"""
    hunting = " The enemies are hunting or set in ambush: any failure is a poor failure." if scenario.hunting else ""
    lines = [f"World Map spot check: a PER + Survival Test against DC {scenario.dc}.{hunting}"]
    if outcome.test is not None:
        lines.append(spot_test_line(scenario, "a", outcome.test))
    if outcome.enemy_test is not None:
        lines.append(f"The GM rolls the enemies' own spot check (enemy_spot_roll): "
                     f"{spot_test_line(scenario, 'b', outcome.enemy_test)}")
    return lines


def spot_test_line(scenario: Scenario, key: SideKey, test: SpotTest) -> str:
    """Describe one leader's test: the d20, PER - 5, Survival, the total against the DC"""
    leader = rules.member_named(scenario, test.leader)
    per, survival = leader.per or 0, leader.survival or 0
    return (f"{test.leader} rolls for {side_label(scenario, key)} (highest PER + Survival): d20 {test.roll}, "
            f"PER {per} ({signed(per - rules.SPECIAL_BASELINE)}), Survival {signed(survival)}, "
            f"total {test.total} vs DC {test.dc}: {RESULT_TEXT[test.result]}.")


# --- the opening Sneak Attacks -----------------------------------------------------------------------


def opener_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Describe each opener's attack with Advantage, and who did not need to roll"""
    attacks = outcome.openers or ()
    lines = [attack_line(scenario, attack) for attack in attacks]
    rolled = {attack.name for attack in attacks}
    waiting = [opener.name for opener in rules.opening_order(scenario) if opener.name not in rolled]
    if waiting and any(attack.hit for attack in attacks):
        lines.append(f"No further opening rolls ({listed(waiting)}): only the first hit triggers the "
                     f"Surprise Round.")
    return lines


def attack_line(scenario: Scenario, attack: SneakAttack) -> str:
    """Describe one Sneak Attack: the two d20, the kept one, the bonus, the total against the target"""
    first, second = attack.dice
    return (f"{attack.name} ({side_label(scenario, attack.side)}) opens with a Sneak Attack, Advantage: "
            f"d20 {first} and {second}, keeps {attack.kept}, {signed(attack.attack_bonus)} = {attack.total} "
            f"vs {attack.target_number}: {'hit' if attack.hit else 'miss'}.")


# --- who gets the jump -------------------------------------------------------------------------------


def verdict_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Say who gets the Surprise Round, or why nobody does"""
    if outcome.surprise != "none":
        winner, loser = outcome.surprise, other(outcome.surprise)
        return [f"Surprise Round for {side_label(scenario, winner)} against {side_label(scenario, loser)}."]
    if scenario.procedure == "sneak-attack":
        return ["No opening Sneak Attack hit: the targets are alerted and there is no Surprise Round."]
    if outcome.enemy_test is not None:
        return ["Neither side spots the other first: no Surprise Round."]
    return ["A normal failure: neither side gets the jump, no Surprise Round."]


# --- the Surprise Round ------------------------------------------------------------------------------


def surprise_round_lines(scenario: Scenario, sr: SurpriseRound) -> list[str]:
    """Tell the Surprise Round: who is Surprised, who sleeps, then each turn in order and the wake-ups"""
    victims = scenario.side(other(sr.side)).members
    lines = []
    if sr.surprised:
        lines.append(f"Surprised ({SURPRISED_EFFECT}): {listed(sr.surprised)}.")
    surprised = set(sr.surprised)
    surprised_sleepers = [name for name in sr.wake_at_end if name in surprised]
    if surprised_sleepers:
        lines.append(f"Asleep and Surprised ({SLEEPER_START}; cannot wake during the Surprise Round, even if "
                     f"attacked): {listed(surprised_sleepers)}.")
    for member in victims:
        if member.cautious_nature:
            lines.append(cautious_line(scenario, member.name, member.asleep))
    lines.append(f"Surprise Round, {counted(len(sr.order), 'turn')}:")
    sides = {member.name: key for key, member in rules.members_with_sides(scenario)}  # by name, not a search a turn
    waking = set(sr.wake_at_turn_start)
    seen: set[str] = set()
    for number, name in enumerate(sr.order, start=1):
        lines.append(f"  {number}. {turn_text(scenario, sr, name, name in seen, sides[name], name in waking)}")
        seen.add(name)
    ending = "End of the Surprise Round: Surprised falls off."
    if sr.wake_at_end:
        ending += f" Waking now: {listed(sr.wake_at_end)}."
    lines.append(ending)
    return lines


def cautious_line(scenario: Scenario, name: str, asleep: bool) -> str:
    """Describe a Cautious Nature member of the surprised side"""
    if not asleep:
        return f"{name} has Cautious Nature: not Surprised, and acts in the Surprise Round as the lone responder."
    if scenario.options.cautious_sleeper_wakes == "sr_turn_start":
        return (f"{name} has Cautious Nature but is asleep: not Surprised, wakes as their Surprise Round turn "
                f"starts, {SLEEPER_START}, and may act.")
    return (f"{name} has Cautious Nature but is asleep: not Surprised, yet sleeps through the Surprise Round "
            f"({SLEEPER_START}) and wakes when it ends.")


def turn_text(scenario: Scenario, sr: SurpriseRound, name: str, again: bool, side: SideKey, waking: bool) -> str:
    """Describe one turn of the Surprise Round: name's (of side), again when his second, waking as it starts"""
    who = f"{name} ({side_label(scenario, side)})"
    if name == sr.opener and not again:
        if scenario.options.opening_attack_is_free:
            return f"{who}: the opening Sneak Attack that hit, a free action; {name} acts again in Sequence order."
        return f"{who}: the opening Sneak Attack that hit starts this turn; {name} finishes the turn now."
    if name == sr.opener:
        return f"{who}: a full turn in Sequence order, after the free opening attack."
    if waking:
        return f"{who}: Cautious Nature; wakes as the turn starts, {SLEEPER_START}, then takes a full turn."
    if side != sr.side:
        return f"{who}: Cautious Nature; a full turn as the lone responder."
    return f"{who}: a full turn (Sneak Attack bonuses only if still Undetected or Hidden)."


def idle_sleeper_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Say what becomes of sleepers who are not Surprised: the sleeper rules hold only for surprised ones"""
    surprised_side = None if outcome.surprise == "none" else other(outcome.surprise)
    idle = [member.name for key, member in rules.members_with_sides(scenario)
            if member.asleep and key != surprised_side]
    if not idle:
        return []
    if outcome.surprise == "none":
        why = ("the attack missed, so there is no Surprise Round" if scenario.procedure == "sneak-attack"
               else "there is no Surprise Round")
        return [f"Asleep but not Surprised: {listed(idle)}. {why[0].upper() + why[1:]}, and the sleeper rules "
                f"(Prone, empty slots, waking at the end of the Surprise Round) hold only for surprised sleepers: "
                f"every sleeper takes a normal turn in Sequence order from round 1. If the GM rules that a sleeper "
                f"sleeps on through the noise, pass that turn by hand."]
    return [f"Asleep on {side_label(scenario, outcome.surprise)}, the side that gets the Surprise Round: "
            f"{listed(idle)}. The sleeper rules hold only for surprised sleepers, so every sleeper of this side "
            f"takes a Surprise Round turn; if the GM rules that a sleeper sleeps on, pass that turn by hand."]
