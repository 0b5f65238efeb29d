"""The Roll20 chat macros compute what the rules core computes, over a grid of inputs and fixed dice

Each case answers a macro's queries and sheet attributes, fixes its dice, and has tests/roll20/eval_macros.mjs
roll it with the Roll20 dice parser; the expected values come from the rules core's own functions.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import pytest

from exporter.campaign import load_campaign
from exporter.definitions import Definitions, build_definitions
from exporter.rules import adnd1e, dnd5e, fallout_ttrpg, gurps4e
from exporter.rules.shared import SIDE_KEYS
from exporter.targets.roll20.macros import Context, chat_macros, plain
from exporter.rules.models import model_of
from tests.conftest import CAMPAIGNS, NODE, ROOT

DEFS = {d.system: d for d in (build_definitions(load_campaign(path)) for path in CAMPAIGNS)}
# Fallout has no sheet, so its campaign maps no attribute; this mapping exercises @{selected|...} too.
FALLOUT_NAMES = {"per": "fo_per", "survival": "fo_survival"}
FALLOUT_SHEET = {key: {"attribute": name} for key, name in FALLOUT_NAMES.items()}
THREE_DICE_FACES = [(1, 1, 1), (6, 6, 6), (2, 3, 4)]


@dataclass
class Case:
    """One macro run: sheet attributes, query answers, dice faces, and each row's value by the rules core"""

    macro: str
    text: str
    expected: dict[str, int]
    answers: dict[str, Any] = field(default_factory=dict)
    attributes: dict[str, int] = field(default_factory=dict)
    faces: tuple[int, ...] = ()
    sides: list[int] | None = None  # the die sizes the core rolled for the compared rows, where it rolled them all


class Faces:
    """Roll the given faces in order, then 1s; record the size of every die the core asks for"""

    def __init__(self, faces: tuple[int, ...] | list[int]) -> None:
        self.faces = list(faces)
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        """Return the next face, checked against the die"""
        face = self.faces[len(self.sides)] if len(self.sides) < len(self.faces) else 1
        assert 1 <= face <= sides
        self.sides.append(sides)
        return face


def variant(defs: Definitions, attributes: dict[str, str]) -> Definitions:
    """Return the definitions with another map of Roll20 sheet attributes"""
    roll20 = dataclasses.replace(defs.targets["roll20"], attributes=attributes)
    return dataclasses.replace(defs, targets={**defs.targets, "roll20": roll20})


def variants(defs: Definitions, sheet: dict[str, str] | None = None) -> Iterator[tuple[Definitions, bool]]:
    """Yield the definitions reading the sheet, then asking for everything: (defs, reads the sheet)"""
    yield variant(defs, sheet if sheet is not None else defs.targets["roll20"].attributes), True
    yield variant(defs, {}), False


def macro_text(defs: Definitions, macro_id: str) -> str:
    """Return one chat macro's text"""
    return next(m["action"] for m in chat_macros(defs) if m["id"] == macro_id)


def label(defs: Definitions, *keys: str, values: dict[str, int] | None = None) -> str:
    """Return the text a macro shows for catalogue keys joined, as a query prompt or a row label"""
    language = defs.module.default_language
    return plain(Context(language, defs.catalogue[language], {}, values or {}).text(*keys))


def yes_no(defs: Definitions, flag: bool) -> str:
    """Return the option label that answers a yes/no query"""
    return label(defs, "Dialog.Yes" if flag else "Dialog.No")


# --- GURPS ----------------------------------------------------------------------------------------------

GURPS_SIDES = [
    {"leader": "L", "members": [{"name": "L", "iq": 10, "combat_reflexes": True}]},
    {"leader": "L",
     "members": [{"name": "L", "iq": 12, "tactics": 1}, {"name": "M", "iq": 9, "combat_reflexes": True}]},
    {"leader": "L", "gm_modifier": -3, "members": [{"name": "L", "iq": 9, "tactics": 20}]},
    {"members": [{"name": "M", "iq": 11}]},
    {"animals": True, "gm_modifier": 4, "members": [{"name": "M", "iq": 4}]},
]


def named(side: dict[str, Any], key: str) -> dict[str, Any]:
    """Prefix a side's member names with its key, so both sides may use one configuration"""
    out = {**side, "members": [{**m, "name": f"{key}{m['name']}"} for m in side["members"]]}
    if "leader" in side:
        out["leader"] = f"{key}{side['leader']}"
    return out


def gurps_scenario(defs: Definitions, procedure: str, a: dict[str, Any], b: dict[str, Any]) -> gurps4e.Scenario:
    """Build a GURPS scenario with the campaign's options"""
    return model_of(gurps4e.Scenario).model_validate({"system": "gurps4e", "procedure": procedure, "options": defs.options,
                                            "sides": {"a": named(a, "a"), "b": named(b, "b")}})


def initiative_cases(defs: Definitions) -> Iterator[Case]:
    """Each side's 1d6 plus its modifiers, which the GM sums: B393 through the core's resolve"""
    text = macro_text(defs, "surprise-initiative")
    hint = gurps4e.CONSTANTS["initiative_bonus"]
    for a, b in product(GURPS_SIDES, GURPS_SIDES):
        for faces in [(1, 1), (1, 6), (6, 1), (3, 4), (6, 6)]:
            roller = Faces(faces)
            outcome = gurps4e.resolve(gurps_scenario(defs, "partial", a, b), roller)
            assert outcome.initiative is not None
            rolls = outcome.initiative
            yield Case("surprise-initiative", text,
                       {label(defs, f"Dialog.Side.{k}"): rolls[k].total for k in SIDE_KEYS},
                       {label(defs, f"Dialog.Side.{k}", "RollMacro.Gurps.SideModifiers", values=hint):
                        sum(rolls[k].modifiers.values()) for k in SIDE_KEYS},
                       faces=faces, sides=roller.sides[:2])


def contest_cases(defs: Definitions) -> Iterator[Case]:
    """The sneak's and the watcher's 3d6 and skills, for every skill the core lets roll"""
    text = macro_text(defs, "surprise-contest")
    skills = [skill for skill in range(1, 21) if gurps4e.success_threshold(skill) is not None]
    stealth_label, per_label = label(defs, "Input.stealth"), label(defs, "Input.per")
    for stealth, per in product(skills, skills):
        for faces in [(1, 1, 1, 6, 6, 6), (6, 6, 6, 1, 1, 1), (2, 5, 3, 4, 4, 1)]:
            roller = Faces(faces)
            sneak = {"members": [{"name": "s", "iq": 10, "stealth": stealth}]}
            watchers = {"members": [{"name": "w", "iq": 10, "per": per}]}
            contest = gurps4e.resolve(gurps_scenario(defs, "quick-contest", sneak, watchers), roller).contest
            assert contest is not None
            sneak_roll, watcher_roll = contest.sneak, contest.watchers[0]
            expected = {stealth_label: sneak_roll.roll, per_label: watcher_roll.roll,
                        label(defs, "Input.stealth", "RollMacro.Skill"): sneak_roll.skill,
                        label(defs, "Input.per", "RollMacro.Skill"): watcher_roll.skill}
            yield Case("surprise-contest", text, expected, {stealth_label: stealth, per_label: per}, faces=faces,
                       sides=roller.sides[:6])


def freeze_cases(defs: Definitions) -> Iterator[Case]:
    """The total-surprise freeze of a member without Combat Reflexes"""
    text = macro_text(defs, "surprise-freeze")
    for face in range(1, gurps4e.CONSTANTS["freeze_die"] + 1):
        roller = Faces((face,))
        side = {"members": [{"name": "m", "iq": 10}]}
        outcome = gurps4e.resolve(gurps_scenario(defs, "total", side, side), roller)
        yield Case("surprise-freeze", text, {label(defs, "RollMacro.Seconds"): outcome.freeze["bm"]},
                   faces=(face,), sides=roller.sides[:1])


def recovery_cases(defs: Definitions) -> Iterator[Case]:
    """The recovery roll and target: IQ 1..18, CR or not, own turns 1..4, partial or total (A3, A4, A12)"""
    for run, sheet in variants(defs):
        text = macro_text(run, "surprise-recovery")
        for iq, cr, turn, kind, faces in product(range(1, 19), (False, True), range(1, 5), ("partial", "total"),
                                                 THREE_DICE_FACES):
            member = model_of(gurps4e.Member)(name="m", iq=iq, combat_reflexes=cr)
            target = gurps4e.recovery_target(member, kind, turn)
            roller = Faces(faces)
            attempt = gurps4e.make_success_roll(roller, "m", target)
            expected = {label(run, "RollMacro.Target"): target}
            if attempt.roll is not None:  # below 3 the core takes no dice: the macro's text says so
                expected[label(run, "RollMacro.Roll")] = attempt.roll
            answers: dict[str, Any] = {label(run, "Input.combat_reflexes"): yes_no(run, cr),
                                       label(run, "RollMacro.Gurps.Turn"): turn,
                                       label(run, "RollMacro.Gurps.Kind"): label(run, f"Procedure.{kind}")}
            attributes = {run.targets["roll20"].attributes["iq"]["attribute"]: iq} if sheet else {}
            if not sheet:
                answers[label(run, "Input.iq")] = iq
            yield Case("surprise-recovery", text, expected, answers, attributes, faces,
                       roller.sides if attempt.roll is not None else None)


# --- AD&D -----------------------------------------------------------------------------------------------


def adnd_side(surprised_on: int, surprises_on: int, aware: bool, name: str) -> dict[str, Any]:
    """One AD&D side with one member"""
    return {"surprised_on": surprised_on, "surprises_on": surprises_on, "aware": aware, "members": [{"name": name}]}


def side_roll_cases(defs: Definitions) -> Iterator[Case]:
    """Each side's d6 and threshold: ratings 0..6 against 1..6, aware or not, through the core's resolve"""
    text = macro_text(defs, "surprise-d6")
    for index, (own, surprises, aware) in enumerate(product(range(0, 7), range(1, 7), (False, True))):
        ratings = {"a": (own, surprises, aware), "b": ((own + 3) % 7, 7 - surprises, index % 3 == 0)}
        scenario = model_of(adnd1e.Scenario).model_validate({
            "system": "adnd1e", "procedure": "roll", "options": defs.options,
            "sides": {k: adnd_side(*ratings[k], name=k) for k in SIDE_KEYS}})
        thresholds = adnd1e.side_thresholds(scenario)
        for faces in [(1, 6), (6, 1), (3, 3)]:
            rolled = [face for face, k in zip(faces, SIDE_KEYS, strict=True) if thresholds[k] > 0]
            roller = Faces(rolled)
            outcome = adnd1e.resolve(scenario, roller)
            expected, answers = {}, {}
            for k in SIDE_KEYS:
                side = label(defs, f"Dialog.Side.{k}")
                expected[label(defs, f"Dialog.Side.{k}", "Input.surprised_on")] = outcome.sides[k].threshold
                if outcome.sides[k].roll is not None:  # a side with threshold 0 does not roll
                    expected[side] = outcome.sides[k].roll
                answers[label(defs, f"Dialog.Side.{k}", "Input.surprised_on")] = ratings[k][0]
                answers[label(defs, f"Dialog.Side.{k}", "Input.surprises_on")] = ratings[k][1]
                answers[label(defs, f"Dialog.Side.{k}", "Input.aware")] = yes_no(defs, ratings[k][2])
            yield Case("surprise-d6", text, expected, answers, faces=faces,
                       sides=roller.sides if len(rolled) == len(faces) else None)


def member_segment_cases(defs: Definitions) -> Iterator[Case]:
    """A member's own segments: side segments 0..6, an adjustment -5..+5 or Dex 3..18 (docs/rules/adnd1e.md#dexterity)

    The adjustment is always asked: a macro cannot tell a set value from the sheet's default
    (docs/dev/roll20.md §7); Dex
    is read from the sheet's plain attribute where the campaign names one.
    """
    options = model_of(adnd1e.Options).model_validate(defs.options)
    for run, sheet in variants(defs):
        text = macro_text(run, "surprise-segments")
        source = label(run, "RollMacro.Adnd.AdjustmentFrom")
        dex_name = run.targets["roll20"].attributes.get("dex", {}).get("attribute")
        given = [(model_of(adnd1e.Member)(name="m", surprise_adjustment=a), "Input.surprise_adjustment", a) for a in range(-5, 6)]
        from_dex = [(model_of(adnd1e.Member)(name="m", dex=d), "Input.dex", d) for d in range(3, 19)]
        for side_segments, (member, choice, value) in product(range(0, 7), given + from_dex):
            own = adnd1e.member_segments(side_segments, adnd1e.member_adjustment(member, options))
            answers: dict[str, Any] = {label(run, "RollMacro.Adnd.SideSegments"): side_segments,
                                       source: label(run, choice)}
            # Attribute calls resolve before queries (docs/dev/roll20.md §6): the sheet's Dex is read whichever option
            # is picked.
            attributes = {dex_name: value if choice == "Input.dex" else 10} if sheet and dex_name else {}
            if not attributes or choice != "Input.dex":
                answers[label(run, choice)] = value
            yield Case("surprise-segments", text, {label(run, "RollMacro.Adnd.OwnSegments"): own}, answers, attributes)


# --- Fallout --------------------------------------------------------------------------------------------


def fallout_scenario(defs: Definitions, **fields: Any) -> fallout_ttrpg.Scenario:
    """Build a Fallout scenario with the campaign's options"""
    return model_of(fallout_ttrpg.Scenario).model_validate({"system": "fallout-ttrpg", "options": defs.options, **fields})


def spot_test_cases(defs: Definitions) -> Iterator[Case]:
    """The World Map test total and DC: PER 1..10, Survival 0..6, three DCs, d20 at 1, 10 and 20"""
    for run, sheet in variants(defs, FALLOUT_SHEET):
        text = macro_text(run, "surprise-spot-test")
        for per, survival, dc, face in product(range(1, 11), range(0, 7), (5, 15, 25), (1, 10, 20)):
            sides = {"a": {"members": [{"name": "p", "per": per, "survival": survival}]},
                     "b": {"members": [{"name": "e"}]}}
            roller = Faces((face,))
            test = fallout_ttrpg.resolve(fallout_scenario(run, procedure="world-map", dc=dc, sides=sides), roller).test
            assert test is not None
            answers: dict[str, Any] = {label(run, "Input.dc"): dc}
            attributes = {FALLOUT_NAMES["per"]: per, FALLOUT_NAMES["survival"]: survival} if sheet else {}
            if not sheet:
                answers |= {label(run, "Input.per"): per, label(run, "Input.survival"): survival}
            yield Case("surprise-spot-test", text, {label(run, "RollMacro.Total"): test.total,
                                                    label(run, "Input.dc"): test.dc},
                       answers, attributes, (face,), roller.sides[:1])


def sneak_attack_cases(defs: Definitions) -> Iterator[Case]:
    """The Sneak Attack total with Advantage and the number to hit: bonus -2..8, five targets, five dice pairs"""
    text = macro_text(defs, "surprise-sneak-attack")
    sides = {"a": {"members": [{"name": "p"}]}, "b": {"members": [{"name": "e"}]}}
    for bonus, target, faces in product(range(-2, 9), (2, 10, 15, 21, 28),
                                        [(1, 1), (1, 20), (20, 1), (7, 13), (20, 20)]):
        roller = Faces(faces)
        scenario = fallout_scenario(defs, procedure="sneak-attack", attacker="p", attack_bonus=bonus,
                                    target_number=target, sides=sides)
        openers = fallout_ttrpg.resolve(scenario, roller).openers
        assert openers
        yield Case("surprise-sneak-attack", text,
                   {label(defs, "RollMacro.Total"): openers[0].total,
                    label(defs, "Input.target_number"): openers[0].target_number},
                   {label(defs, "Input.attack_bonus"): bonus, label(defs, "Input.target_number"): target},
                   faces=faces, sides=roller.sides[:2])


# --- D&D 5e ---------------------------------------------------------------------------------------------

DND5E_NAMES = {"stealth": "stealth_bonus", "initiative": "initiative_bonus"}
DND5E_SHEET = {key: {"attribute": name} for key, name in DND5E_NAMES.items()}


def stealth_check_cases(defs: Definitions) -> Iterator[Case]:
    """A hider's Stealth total: bonus -3..12 at d20 1, 10 and 20, read from the sheet or asked"""
    for run, sheet in variants(defs, DND5E_SHEET):
        text = macro_text(run, "surprise-stealth-check")
        for bonus, face in product(range(-3, 13), (1, 10, 20)):
            roller = Faces((face,))
            check = dnd5e.roll_check(roller, "h", "normal", bonus)
            answers = {} if sheet else {label(run, "Input.stealth"): bonus}
            attributes = {DND5E_NAMES["stealth"]: bonus} if sheet else {}
            yield Case("surprise-stealth-check", text, {label(run, "RollMacro.Total"): check.total}, answers,
                       attributes, (face,), roller.sides)


def initiative_disadvantage_cases(defs: Definitions) -> Iterator[Case]:
    """A surprised creature's 2024 Initiative, the lower of two d20: bonus -2..6 at five pairs of faces"""
    for run, sheet in variants(defs, DND5E_SHEET):
        text = macro_text(run, "surprise-initiative-disadvantage")
        for bonus, faces in product(range(-2, 7), [(1, 20), (20, 1), (7, 13), (20, 20), (1, 1)]):
            roller = Faces(faces)
            check = dnd5e.roll_check(roller, "s", "disadvantage", bonus)
            answers = {} if sheet else {label(run, "Input.initiative"): bonus}
            attributes = {DND5E_NAMES["initiative"]: bonus} if sheet else {}
            yield Case("surprise-initiative-disadvantage", text, {label(run, "RollMacro.Total"): check.total},
                       answers, attributes, faces, roller.sides)


CASES: dict[str, list[tuple[str, Callable[[Definitions], Iterator[Case]]]]] = {
    "gurps4e": [("surprise-initiative", initiative_cases), ("surprise-contest", contest_cases),
                ("surprise-freeze", freeze_cases), ("surprise-recovery", recovery_cases)],
    "adnd1e": [("surprise-d6", side_roll_cases), ("surprise-segments", member_segment_cases)],
    "fallout-ttrpg": [("surprise-spot-test", spot_test_cases), ("surprise-sneak-attack", sneak_attack_cases)],
    "dnd5e": [("surprise-stealth-check", stealth_check_cases),
              ("surprise-initiative-disadvantage", initiative_disadvantage_cases)],
}
MACRO_IDS = [macro_id for entries in CASES.values() for macro_id, _ in entries]


def evaluate(cases: list[Case]) -> list[dict[str, Any]]:
    """Roll every case's macro in one Node process"""
    assert NODE, "node is required"
    payload = [{"id": index, "text": c.text, "answers": c.answers, "attributes": c.attributes, "faces": list(c.faces)}
               for index, c in enumerate(cases)]
    done = subprocess.run([NODE, "tests/roll20/eval_macros.mjs"], input=json.dumps(payload), capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def problems(case: Case, result: dict[str, Any]) -> list[str]:
    """Compare one evaluated macro with the core: every expected row, its value and its dice"""
    if "error" in result:
        return [f"{case.macro}: {result['error']}"]
    rows = {row["label"]: row for row in result["rows"]}
    out = []
    for row_label, value in case.expected.items():
        got = rows.get(row_label, {}).get("value")
        if got != value:
            out.append(f"{case.macro} {row_label!r}: macro {got}, core {value} for {case.answers} {case.attributes} "
                       f"dice {case.faces}")
    macro_sides = [side for row in result["rows"] for side in row["sides"]]
    if case.sides is not None and macro_sides != case.sides:
        out.append(f"{case.macro}: the macro rolls dice {macro_sides}, the core {case.sides}")
    return out


@pytest.fixture(scope="module")
def evaluated() -> dict[str, list[tuple[Case, dict[str, Any]]]]:
    cases = [case for system, entries in CASES.items() for _, make in entries for case in make(DEFS[system])]
    by_macro: dict[str, list[tuple[Case, dict[str, Any]]]] = defaultdict(list)
    for case, result in zip(cases, evaluate(cases), strict=True):
        by_macro[case.macro].append((case, result))
    return by_macro


def test_every_macro_of_every_example_campaign_is_tested():
    assert sorted(m["id"] for defs in DEFS.values() for m in chat_macros(defs)) == sorted(MACRO_IDS)


@pytest.mark.parametrize("macro_id", MACRO_IDS)
def test_the_macro_computes_what_the_rules_core_computes(evaluated, macro_id):
    runs = evaluated[macro_id]
    assert len(runs) >= 6
    found = [problem for case, result in runs for problem in problems(case, result)]
    assert not found, f"{len(found)} of {len(runs)} runs disagree:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("macro_id", ["surprise-contest", "surprise-recovery"])
def test_the_gurps_success_rolls_state_the_rule_a_total_cannot_show(macro_id):
    # B348, as the core decides it: which 3d6 totals always succeed or fail, and the lowest target one may roll.
    rolls = sorted(gurps4e.success_roll_distribution())
    targets = range(min(rolls) - 3, max(rolls) + 20)
    rollable = [t for t in targets if gurps4e.success_threshold(t) is not None]
    always = [r for r in rolls if all(gurps4e.succeeds(t, r) for t in rollable)]
    never = [r for r in rolls if not any(gurps4e.succeeds(t, r) for t in rollable)]
    text = macro_text(DEFS["gurps4e"], macro_id)
    assert f"{always[0]}–{always[-1]} always succeed" in text  # a range with CLDR's en dash (Format.Range)
    assert f"{never[0]}–{never[-1]} always fail" in text
    assert f"a target below {min(rollable)} cannot be rolled" in text


def test_a_wrong_sign_a_leftover_label_and_a_missed_query_are_caught():
    right = next(make(DEFS["gurps4e"]) for macro_id, make in CASES["gurps4e"] if macro_id == "surprise-recovery")
    case = next(c for c in right if "Yes" in c.answers.values() and c.expected[label(DEFS["gurps4e"],
                                                                                    "RollMacro.Target")] > 10)
    wrong_sign = dataclasses.replace(case, text=case.text.replace("+ 6 *", "- 6 *"))
    leftover = dataclasses.replace(case, text=case.text.replace("[[3d6]]", "[[3d6 dex]]"))
    unanswered = dataclasses.replace(case, answers={k: v for k, v in list(case.answers.items())[1:]})
    results = evaluate([case, wrong_sign, leftover, unanswered])
    assert problems(case, results[0]) == []
    assert "macro" in problems(wrong_sign, results[1])[0]
    assert "leaves text the parser ignores" in problems(leftover, results[2])[0]
    assert "no answer for the query" in problems(unanswered, results[3])[0]
