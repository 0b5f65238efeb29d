"""The limits on what ambush reads, each in one place: the command line reads them here, the web page from its config.js

A file beyond them is refused with one line (docs/campaign.md and docs/scenarios.md, Limits): it is never parsed, or
never held whole, so that no file makes ambush run for minutes or take gigabytes.
"""

from __future__ import annotations

# A campaign or scenario file: at most this many bytes (a fight of 10,000 a side, every member an opener, is 3 MB).
FILE_BYTES = 8 * 1024 * 1024
# Tables and arrays inside one another, the file's top level 0: [[sides.a.members]] is at 3 (sides, a, members) and its
# members' tables at 4. A dotted key or header opens a table per part, so this also bounds their parts.
NESTING = 32
# One key, or one part of a dotted key, in characters (the longest a campaign needs is a string's, about 40).
KEY_CHARACTERS = 256
# Members of one side of a scenario: the odds, the chart and the simulation of a fight this size take seconds.
MEMBERS_A_SIDE = 10_000

# Text fields, in characters: a title and an author's name; a member's or a side's name; a campaign's description; one
# string override (the longest bundled string has 440); a version; a web address; any other line (an e-mail address).
TITLE_CHARACTERS = 200
NAME_CHARACTERS = 200
DESCRIPTION_CHARACTERS = 20_000
STRING_CHARACTERS = 4_000
VERSION_CHARACTERS = 64
URL_CHARACTERS = 2_000
LINE_CHARACTERS = 1_000
# A campaign's authors, and the Roll20 user ids it names
AUTHORS = 50
USER_IDS = 50

# A bad value is quoted in a message up to this many characters, its length said beyond.
EXCERPT_CHARACTERS = 40


def file_limits() -> dict[str, int]:
    """Return the limits on a file that the web page's reader also keeps (templates/web/toml.js)"""
    return {"bytes": FILE_BYTES, "nesting": NESTING, "keyCharacters": KEY_CHARACTERS}
