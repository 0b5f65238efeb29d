"""Definitions: what a virtual tabletop must offer for a campaign, free of any VTT's words

Writers read only this layer: the module's identity, statuses, inputs per procedure, automation settings,
macros, translations, the rule constants, the options with their defaults, the odds' tail cut, the side keys
and what the campaign tells each target, all derived from the campaign and the rules core. How a VTT shows
them (icons, marker colours, API names) is the target's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exporter.definitions.catalogue import Catalogue, load_catalogue
from exporter.definitions.identity import Author, ModuleInfo, TargetSettings
from exporter.definitions.macros import MacroDef, macro_defs
from exporter.definitions.settings import SETTINGS, SettingDef
from exporter.definitions.statuses import StatusDef, status_defs
from exporter.platforms import SECTIONS, section_module
from exporter.rules.declared import Declared, declared_fields
from exporter.rules.rolls import RollProcedure
from exporter.rules.shared import SIDE_KEYS, TAIL_CUT, input_entries, option_reads
from exporter.rules.systems import system_module

if TYPE_CHECKING:
    from exporter.campaign import Campaign
    from exporter.rules.protocol import RulesSystem

@dataclass(frozen=True)
class InputDef:
    """One value a procedure reads: where it lives (scenario, side, member) and its type"""

    key: str
    level: str
    type: str
    required: str = ""
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    replaces: str | None = None  # an input given instead of another one, never with it
    label: str | None = None  # the key of its label (Input.<label>) where it is not the input's own key
    fields: tuple[InputDef, ...] = ()  # the fields of each entry of a list input (the opening attacks)
    prefill: Any = None  # what a prompt offers before a value is set, where the rules module gives one


@dataclass(frozen=True)
class ProcedureDef:
    """One surprise procedure of the system and the inputs it needs"""

    id: str
    inputs: tuple[InputDef, ...]


@dataclass(frozen=True)
class Definitions:
    """Everything the target writers render for one campaign"""

    module: ModuleInfo
    system: str
    unit: str
    options: dict[str, Any]
    constants: dict[str, Any]
    tail_cut: tuple[int, int]  # the odds tail cut (TAIL_CUT) as numerator and denominator
    side_keys: tuple[str, ...]
    procedures: tuple[ProcedureDef, ...]
    statuses: tuple[StatusDef, ...]
    settings: tuple[SettingDef, ...]
    macros: tuple[MacroDef, ...]
    catalogue: Catalogue
    targets: dict[str, TargetSettings]
    rolls: tuple[RollProcedure, ...] = ()

    @property
    def procedure_ids(self) -> tuple[str, ...]:
        """Return the ids of the system's procedures, in the rules module's order"""
        return tuple(p.id for p in self.procedures)


def input_def(rules: RulesSystem, part: type[Declared], key: str, level: str, required: str,
              replaces: str | None = None) -> InputDef:
    """Describe one field of a scenario part as an input, with the kind the rules module declares or its type, its
    default, bounds and prefill"""
    field = declared_fields(part)[key]
    kind = rules.INPUT_KINDS.get(key) or INPUT_TYPES[field.plain_type]
    bounds = field.bounds
    fields = opener_fields(rules) if kind == "openers" else ()
    prefill = getattr(rules, "INPUT_PREFILLS", {}).get(key)
    low, high = (bounds.ge, bounds.le) if bounds else (None, None)
    return InputDef(key, level, kind, required, field.default, low, high, replaces, fields=fields, prefill=prefill)


def opener_fields(rules: RulesSystem) -> tuple[InputDef, ...]:
    """Describe the fields of one declared opening attack (the Opener part): who attacks, his bonus, the number"""
    opener = rules.Opener  # type: ignore[attr-defined]  # a rules module with an openers input declares one
    return tuple(InputDef("name", "opener", "member", "ab", label="attacker") if key == "name"
                 else input_def(rules, opener, key, "opener", "ab") for key in declared_fields(opener))


# The JSON type of a field's values, by their Python type.
INPUT_TYPES = {bool: "boolean", int: "number", str: "string"}


def procedure_defs(system: str, options: dict[str, Any]) -> tuple[ProcedureDef, ...]:
    """Describe each procedure of a system with the inputs the rules core reads for it"""
    rules = system_module(system)
    models = {"scenario": rules.Scenario, "side": rules.Side, "member": rules.Member}
    alternatives = getattr(rules, "ALTERNATIVE_INPUTS", {})
    out = []
    for procedure in rules.PROCEDURES:
        inputs = tuple(input_def(rules, models[e.level], e.key, e.level, widened(rules, e.required, e.key, options),
                                 alternatives.get(e.key))
                       for e in input_entries(rules.INPUTS[procedure])
                       if option_reads(options.get, e.option))  # C5a/C5b: read only when on
        out.append(ProcedureDef(procedure, inputs))
    return tuple(out)


def widened(rules: RulesSystem, required: str, key: str, options: dict[str, Any]) -> str:
    """Return who must give an input once house rules apply, as the rules module declares (REQUIRED_WITH_OPTION)"""
    for option, inputs in getattr(rules, "REQUIRED_WITH_OPTION", {}).items():
        if options.get(option) and key in inputs:
            return str(inputs[key])
    return required


def module_info(campaign: Campaign) -> ModuleInfo:
    """Return the identity of the campaign's module"""
    authors = tuple(Author(**author.model_dump()) for author in campaign.authors)
    return ModuleInfo(campaign.id, campaign.title, campaign.version, campaign.description, authors,
                      tuple(campaign.languages), campaign.default_language)


def target_settings(campaign: Campaign) -> dict[str, TargetSettings]:
    """Return what the campaign gives each platform with a table in it, its defaults filled in, its URLs expanded"""
    return {platform: section_module(platform).target_settings(campaign) for platform in SECTIONS}


def build_definitions(campaign: Campaign) -> Definitions:
    """Derive the definitions of a campaign"""
    rules = system_module(campaign.system)
    options = campaign.rules_options.model_dump(mode="json")
    return Definitions(
        module=module_info(campaign),
        system=campaign.system,
        unit=rules.UNIT,
        options=options,
        constants=rules.CONSTANTS,
        tail_cut=(TAIL_CUT.numerator, TAIL_CUT.denominator),
        side_keys=SIDE_KEYS,
        procedures=procedure_defs(campaign.system, options),
        statuses=status_defs(rules.STATUSES),
        settings=SETTINGS,
        macros=macro_defs(rules.GM_ROLLS),
        catalogue=load_catalogue(campaign.languages, campaign.strings),
        targets=target_settings(campaign),
        rolls=rules.roll_procedures(),
    )
