"""What each placeholder of the catalogue stands for: a text, a number that names or scores, or a count of things

A count's words depend on it ("1 second", "2 seconds"), so every string that shows a count chooses them by its
plural form (exporter/lang/messages.py), in every language; a number that names or scores something ("round 3",
"rolls 5", "1 to 6") changes no word. Every placeholder a string uses is declared here once, by its name, with the
strings where a name stands for something else declared beside it with the reason; tests/test_plurals.py holds every
string of every language to it, and a campaign may choose a plural form only by a number (exporter/campaign.py).
"""

from __future__ import annotations

from typing import Literal

Kind = Literal["text", "number", "count"]

COUNTS = frozenset({"count", "left", "more", "seconds", "segments", "turns"})
NUMBERS = frozenset({
    "a", "b", "none", "chance",  # percentages
    "roll", "first", "second", "total", "skill", "target", "dc",  # dice, scores and what they meet
    "round", "segment", "number", "line",  # the number of a round, a segment, a die, a line: a label
    "minimum", "maximum", "value", "sides",  # bounds, a value a GM typed, a die's size
    "low", "high", "part", "parts",  # the ends of a range; one part of a message sent in several
    "given", "adjustment", "die",  # a value a sheet holds, the one the rules' table gives, the die it counts on
    "combat_reflexes", "ally_combat_reflexes", "higher_iq", "tactics", "tactics_master", "leaderless",  # modifiers
    "lowest_roll", "sure_success", "sure_failure", "highest_roll", "lowest_rollable",  # the faces of 3d6
})
TEXTS = frozenset({
    "name", "names", "acting", "side", "winner", "loser", "who", "kind", "faces", "modifiers", "field", "other",
    "procedure", "status", "title", "file", "problem", "what", "message", "command", "marker", "macro", "pack",
    "system", "expected", "row", "scripts", "version", "checked", "label", "range", "mark", "fields", "why",
    "attribute", "held", "section", "points",
})

# Strings where a placeholder stands for something else than its name does elsewhere: (key, name) -> kind, and why.
EXCEPTIONS: dict[tuple[str, str], tuple[Kind, str]] = {
    **{(f"Odds.Expected.{unit}", "value"): ("count", f"the {unit}s a member loses on average")
       for unit in ("second", "segment", "round", "turn")},
    **{(f"Web.File.{key}", "value"): ("text", "what a scenario file gives for a field")
       for key in ("System", "Procedure", "Option")},
    ("Tracking.Segment", "count"): ("number", "the segments of the surprise after \"of\": no word follows the count"),
    ("Format.Count", "count"): ("number", "a count in parentheses after a name: no word follows it"),
    ("Format.Label", "value"): ("text", "what a label names: a value, a name, a list"),
    ("Web.Kept.Lost", "parts"): ("text", "the parts of the kept state the page starts without, listed"),
    **{(key, "count"): ("number", "the dice of a roll written as dice notation, 3d6")
       for key in ("Roll20.DiceRoll", "Web.DiceRoll", "Web.Dice.What")},
}


def kind(key: str, name: str) -> Kind:
    """Return what a placeholder of a string stands for; KeyError for one nobody declared"""
    if (key, name) in EXCEPTIONS:
        return EXCEPTIONS[key, name][0]
    if name in COUNTS:
        return "count"
    if name in NUMBERS:
        return "number"
    if name in TEXTS:
        return "text"
    raise KeyError(f"{key}: the placeholder {{{name}}} is declared nowhere in exporter/lang/placeholders.py")
