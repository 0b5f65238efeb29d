"""Narrate an AD&D 1e surprise check for a GM at the table"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from exporter.narration import counted, listed, noun, say, side_label, signed
from exporter.rules import adnd1e
from exporter.rules.adnd1e import MemberResult, Outcome, Segment, SideResult
from exporter.rules.shared import SIDE_KEYS, SideKey, other

if TYPE_CHECKING:
    from exporter.rules.adnd1e import Member, Scenario


def narrate(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Return the lines that tell a played surprise check, in order"""
    lines = [side_line(scenario, key, outcome.sides[key]) for key in SIDE_KEYS]
    lines.append(summary_line(scenario, outcome))
    lines += adjustment_lines(scenario, outcome)
    lines += timeline_lines(scenario, outcome.timeline)
    lines.append("Normal rounds begin; roll initiative.")
    return lines


def chance(top: int) -> str:
    """Render a chance on a d6 as "1" or "1-3" """
    return say("{top, plural, =1 {1} other {1-#}}", top=top)


def side_line(scenario: Scenario, key: SideKey, result: SideResult) -> str:
    """Tell a side's threshold and its d6"""
    side, opponent, options = scenario.sides[key], scenario.sides[other(key)], scenario.options
    name = side_label(scenario, key)
    own = adnd1e.surprised_on(side, options)
    if side.aware:
        return f"{name}: aware, does not roll."
    if own == 0:
        return f"{name}: cannot be surprised, does not roll."
    shift = adnd1e.surprises_on(opponent, options)
    why = f" (own {chance(own)}, {side_label(scenario, other(key))} surprise on {chance(shift)})" if shift != 2 else ""
    if result.threshold == 0:
        return f"{name}: the chance to be surprised drops to 0{why}, does not roll."
    roll = f"rolls {result.roll}: " + (
        f"surprised for {counted(result.segments, 'segment')}." if result.segments else "not surprised."
    )
    return f"{name}: surprised on {chance(result.threshold)}{why}; {roll}"


def summary_line(scenario: Scenario, outcome: Outcome) -> str:
    """Tell what the two sides' segments give at side level"""
    seg_a, seg_b = outcome.sides["a"].segments, outcome.sides["b"].segments
    name_a, name_b = side_label(scenario, "a"), side_label(scenario, "b")
    winner = {"a": name_a, "b": name_b}.get(outcome.surprise)
    free = f"{counted(abs(outcome.free_segments), 'segment')} free for {winner}."
    if not seg_a and not seg_b:
        return "Neither side is surprised."
    if seg_a and seg_b and seg_a == seg_b:
        cancel = f"Both sides are surprised for {counted(seg_a, 'segment')}: the surprise cancels between the sides"
        exceptions = dexterity_exceptions(scenario, outcome)
        return f"{cancel}; {'; '.join(exceptions)}." if exceptions else f"{cancel}."
    if seg_a and seg_b:
        both = f"both lose {min(seg_a, seg_b)}"
        return f"Both sides are surprised ({name_a} {seg_a}, {name_b} {seg_b}): {both}, {free}"
    loser = name_a if seg_a else name_b
    return f"Only one side is surprised ({loser}): {free}"


def dexterity_exceptions(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Say who a Dexterity adjustment lets act, or keeps frozen, while the sides' surprise cancels"""
    phrases = []
    surprise_segments = [segment for segment in outcome.timeline if segment.kind == "surprise"]
    # who acts and who is frozen in each surprise segment, as sets: looked up once per member, not searched
    acting_in = {segment.segment: set(segment.acting) for segment in surprise_segments}
    frozen_in = {segment.segment: set(segment.frozen) for segment in surprise_segments}
    results = member_results(outcome)
    for key, _, member in adnd1e.indexed_members(scenario.sides):
        frozen = adnd1e.frozen_segments(outcome.sides[key].segments, results[member.name].segments,
                                        scenario.options)
        if frozen == outcome.sides[key].segments:
            continue
        side_segments = outcome.sides[key].segments  # beyond them everyone acts anyway
        acting = [s for s in surprise_segments if member.name in acting_in[s.segment] and s.segment <= side_segments]
        held = [s for s in surprise_segments if member.name in frozen_in[s.segment]]
        cause = adjustment_source(member)
        if acting:
            alone = " alone" if all(segment.acting == (member.name,) for segment in acting) else ""
            phrases.append(f"{cause} lets {member.name} act{alone} in {segment_numbers(acting)}")
        elif held:
            phrases.append(f"{cause} keeps {member.name} frozen through segment {frozen} while others act")
    return phrases


def member_results(outcome: Outcome) -> dict[str, MemberResult]:
    """Index the members' results by name (names are unique across both sides)"""
    return {result.name: result for result in outcome.members}


def adjustment_source(member: Member) -> str:
    """Name what sets a member's adjustment: "Dexterity 17" or "a surprise adjustment of +2" """
    if member.dex is not None:
        return f"Dexterity {member.dex}"
    return f"a surprise adjustment of {signed(adnd1e.raw_adjustment(member))}"


def segment_numbers(segments: Sequence[Segment]) -> str:
    """Write segment numbers as "segment 1" or "segments 1 and 2" """
    numbers = [str(segment.segment) for segment in segments]
    return f"{noun(len(numbers), 'segment')} {listed(numbers)}"


def adjustment_lines(scenario: Scenario, outcome: Outcome) -> list[str]:
    """Tell each adjustment that changes a surprised member's segments"""
    lines = []
    results = member_results(outcome)
    for key, _, member in adnd1e.indexed_members(scenario.sides):
        side_segments = outcome.sides[key].segments
        result = results[member.name]
        if side_segments and (result.adjustment or adnd1e.raw_adjustment(member)):
            lines.append(adjustment_line(scenario, member, result, side_segments, side_label(scenario, key)))
    return lines


def adjustment_line(
    scenario: Scenario, member: Member, result: MemberResult, side_segments: int, side_name: str
) -> str:
    """Tell how one member's adjustment changes his segments"""
    raw = adnd1e.raw_adjustment(member)
    source = f"Dexterity {member.dex}" if member.dex is not None else "surprise adjustment"
    if raw != result.adjustment:
        frozen = counted(result.segments, "segment")
        return f"{member.name}: {source} ({signed(raw)}) does not apply while encumbered; frozen for {frozen}."
    text = f"{member.name}: {source} ({signed(raw)}) turns {side_segments} into {result.segments}"
    waits = adnd1e.frozen_segments(side_segments, result.segments, scenario.options)
    if waits != result.segments:
        return f"{text}, but may act only after {side_name}'s {counted(waits, 'segment')}."
    return f"{text}."


def timeline_lines(scenario: Scenario, segments: Sequence[Segment]) -> list[str]:
    """Tell the surprise segments one by one"""
    if not segments:
        return ["No surprise segments."]
    lines = [
        "A surprise segment (6 seconds) allows what fits in it: speaking, attacking, charging, "
        "beginning a spell; only a one-segment spell completes."
    ]
    for segment in segments:
        if segment.kind == "cancelled":
            lines.append(f"Segment {segment.segment} (cancelled): everyone is still surprised; nobody acts.")
            continue
        acting = listed(list(segment.acting))
        verb = say("{count, plural, one {acts} other {act}}", count=len(segment.acting))
        frozen, frozen_verb = frozen_text(scenario, segment.frozen)
        line = f"Segment {segment.segment} (surprise): {acting} {verb}; {frozen} {frozen_verb} frozen."
        if segment.missile_triple_rate:
            line += " Readied missile weapons fire at three times their normal rate."
        lines.append(line)
    return lines


def frozen_text(scenario: Scenario, frozen: Sequence[str]) -> tuple[str, str]:
    """Name who is frozen, a whole side by its name, and pick the verb"""
    parts: list[str] = []
    still = set(frozen)
    for key in SIDE_KEYS:
        names = [member.name for member in scenario.sides[key].members if member.name in still]
        if len(names) > 1 and len(names) == len(scenario.sides[key].members):
            parts.append(f"all of {side_label(scenario, key)}")
        else:
            parts += names
    return listed(parts), say("{count, plural, one {is} other {are}}", count=len(frozen))

