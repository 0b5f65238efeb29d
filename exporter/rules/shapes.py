"""The shapes of the scenario models, for records.py; written by exporter/rules/models/write_shapes.py"""

from __future__ import annotations

from typing import Any

# system -> model -> its rules module's methods class (or None) and its fields: the type, and the default when
# it has one ({} for a model: the model read from an empty table).
SHAPES: dict[str, dict[str, dict[str, Any]]] = {
    "gurps4e": {
        "Scenario": {
            "methods": "ScenarioMethods",
            "fields": {
                "system": {"type": ("literal", ("gurps4e",))},
                "procedure": {"type": ("literal", ("partial", "total", "quick-contest"))},
                "surprising": {"type": ("literal", ("a", "b")), "default": "a"},
                "sides": {"type": ("model", "Sides")},
                "options": {"type": ("model", "Options"), "default": {}},
            },
        },
        "Sides": {
            "methods": None,
            "fields": {
                "a": {"type": ("model", "Side")},
                "b": {"type": ("model", "Side")},
            },
        },
        "Options": {
            "methods": None,
            "fields": {
                "stun_roll_timing": {"type": ("literal", ("start", "end")), "default": "start"},
                "freeze_roll_scope": {"type": ("literal", ("side", "individual")), "default": "side"},
                "leaderless_iq_bonus": {"type": ("bool",), "default": False},
            },
        },
        "Side": {
            "methods": "SideMethods",
            "fields": {
                "name": {"type": ("optional", ("str", 1, 200, True)), "default": None},
                "leader": {"type": ("optional", ("str", 1, 200, True)), "default": None},
                "animals": {"type": ("bool",), "default": False},
                "gm_modifier": {"type": ("int", -20, 20), "default": 0},
                "expecting_trouble": {"type": ("bool",), "default": True},
                "members": {"type": ("list", ("model", "Member"), 1, 10000)},
            },
        },
        "Member": {
            "methods": None,
            "fields": {
                "name": {"type": ("str", 1, 200, True)},
                "iq": {"type": ("int", 1, 40)},
                "combat_reflexes": {"type": ("bool",), "default": False},
                "tactics": {"type": ("int", 0, 40), "default": 0},
                "stealth": {"type": ("optional", ("int", 1, 40)), "default": None},
                "per": {"type": ("optional", ("int", 1, 40)), "default": None},
            },
        },
    },
    "adnd1e": {
        "Scenario": {
            "methods": "ScenarioMethods",
            "fields": {
                "system": {"type": ("literal", ("adnd1e",))},
                "procedure": {"type": ("literal", ("roll",))},
                "sides": {"type": ("model", "Sides")},
                "options": {"type": ("model", "Options"), "default": {}},
            },
        },
        "Sides": {
            "methods": "SidesMethods",
            "fields": {
                "a": {"type": ("model", "Side")},
                "b": {"type": ("model", "Side")},
            },
        },
        "Options": {
            "methods": None,
            "fields": {
                "dex_unsurprised_may_act": {"type": ("bool",), "default": True},
                "side_best_rating": {"type": ("bool",), "default": False},
                "dex_encumbrance_gate": {"type": ("bool",), "default": False},
                "missile_triple_rate": {"type": ("bool",), "default": False},
            },
        },
        "Side": {
            "methods": None,
            "fields": {
                "name": {"type": ("optional", ("str", 1, 200, True)), "default": None},
                "surprised_on": {"type": ("int", 0, 6), "default": 2},
                "surprises_on": {"type": ("int", 1, 6), "default": 2},
                "aware": {"type": ("bool",), "default": False},
                "members": {"type": ("list", ("model", "Member"), 1, 10000)},
            },
        },
        "Member": {
            "methods": "MemberMethods",
            "fields": {
                "name": {"type": ("str", 1, 200, True)},
                "dex": {"type": ("optional", ("int", 3, 18)), "default": None},
                "surprise_adjustment": {"type": ("optional", ("int", -5, 5)), "default": None},
                "encumbered": {"type": ("bool",), "default": False},
                "surprised_on": {"type": ("optional", ("int", 0, 6)), "default": None},
                "surprises_on": {"type": ("optional", ("int", 1, 6)), "default": None},
            },
        },
    },
    "fallout-ttrpg": {
        "Scenario": {
            "methods": "ScenarioMethods",
            "fields": {
                "system": {"type": ("literal", ("fallout-ttrpg",))},
                "procedure": {"type": ("literal", ("world-map", "sneak-attack"))},
                "dc": {"type": ("optional", ("int", -9007199254740991, 9007199254740991)), "default": None},
                "hunting": {"type": ("bool",), "default": False},
                "attacker": {"type": ("optional", ("str", 1, 200, True)), "default": None},
                "attack_bonus": {"type": ("optional", ("int", -9007199254740991, 9007199254740991)), "default": None},
                "target_number": {"type": ("optional", ("int", -9007199254740991, 9007199254740991)), "default": None},
                "openers": {"type": ("optional", ("list", ("model", "Opener"), None, 20000)), "default": None},
                "sides": {"type": ("model", "Sides")},
                "options": {"type": ("model", "Options"), "default": {}},
            },
        },
        "Opener": {
            "methods": None,
            "fields": {
                "name": {"type": ("str", 1, 200, True)},
                "attack_bonus": {"type": ("int", -9007199254740991, 9007199254740991)},
                "target_number": {"type": ("int", -9007199254740991, 9007199254740991)},
            },
        },
        "Sides": {
            "methods": None,
            "fields": {
                "a": {"type": ("model", "Side")},
                "b": {"type": ("model", "Side")},
            },
        },
        "Options": {
            "methods": None,
            "fields": {
                "opening_attack_is_free": {"type": ("bool",), "default": False},
                "poor_failure_margin": {"type": ("int", 1, 9007199254740991), "default": 5},
                "enemy_spot_roll": {"type": ("bool",), "default": False},
                "cautious_sleeper_wakes": {"type": ("literal", ("sr_turn_start", "sr_end")),
                                           "default": "sr_turn_start"},
            },
        },
        "Side": {
            "methods": None,
            "fields": {
                "name": {"type": ("optional", ("str", 1, 200, True)), "default": None},
                "members": {"type": ("list", ("model", "Member"), 1, 10000)},
            },
        },
        "Member": {
            "methods": None,
            "fields": {
                "name": {"type": ("str", 1, 200, True)},
                "per": {"type": ("optional", ("int", 1, 10)), "default": None},
                "survival": {"type": ("optional", ("int", 0, 20)), "default": None},
                "cautious_nature": {"type": ("bool",), "default": False},
                "asleep": {"type": ("bool",), "default": False},
                "sequence": {"type": ("int", -9007199254740991, 9007199254740991), "default": 0},
            },
        },
    },
    "dnd5e": {
        "Scenario": {
            "methods": "ScenarioMethods",
            "fields": {
                "system": {"type": ("literal", ("dnd5e",))},
                "procedure": {"type": ("literal", ("stealth",))},
                "sides": {"type": ("model", "Sides")},
                "options": {"type": ("model", "Options"), "default": {}},
            },
        },
        "Sides": {
            "methods": "SidesMethods",
            "fields": {
                "a": {"type": ("model", "Side")},
                "b": {"type": ("model", "Side")},
            },
        },
        "Options": {
            "methods": None,
            "fields": {
                "rules": {"type": ("literal", ("2014", "2024")), "default": "2014"},
                "surprise_by": {"type": ("literal", ("stealth", "gm")), "default": "stealth"},
                "ties": {"type": ("literal", ("hider", "watcher")), "default": "hider"},
                "group_check": {"type": ("bool",), "default": False},
            },
        },
        "Side": {
            "methods": None,
            "fields": {
                "name": {"type": ("optional", ("str", 1, 200, True)), "default": None},
                "members": {"type": ("list", ("model", "Member"), 1, 10000)},
            },
        },
        "Member": {
            "methods": None,
            "fields": {
                "name": {"type": ("str", 1, 200, True)},
                "hiding": {"type": ("bool",), "default": False},
                "stealth": {"type": ("optional", ("int", -30, 60)), "default": None},
                "stealth_advantage": {"type": ("bool",), "default": False},
                "stealth_disadvantage": {"type": ("bool",), "default": False},
                "passive_perception": {"type": ("optional", ("int", -30, 60)), "default": None},
                "alert": {"type": ("bool",), "default": False},
                "gm_surprised": {"type": ("bool",), "default": False},
                "initiative": {"type": ("optional", ("int", -30, 60)), "default": None},
            },
        },
    },
}
