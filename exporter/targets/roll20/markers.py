"""How the Roll20 script shows the neutral statuses: a token marker each, a colour or a built-in marker's name"""

from __future__ import annotations

from exporter.definitions import Definitions

# Default marker of each status, by the neutral status ids of the definitions layer; a campaign may name the
# marker of surprised ([roll20] marker), and a GM may change it with !surprise config.
STATUS_MARKERS = {"surprised": "yellow", "prone": "brown", "sleep": "purple", "unaware": "red"}


def status_markers(defs: Definitions) -> dict[str, str]:
    """Return the marker of each of the system's statuses, the campaign's own for surprised"""
    markers = {status.id: STATUS_MARKERS[status.id] for status in defs.statuses}
    markers["surprised"] = defs.targets["roll20"].settings["marker"] or markers["surprised"]
    return markers
