"""The statuses the rules mark on combatants, by neutral id, in no VTT's words"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StatusDef:
    """A status the rules mark on a combatant: its neutral id and the catalogue key of its label"""

    id: str
    label: str


# The catalogue key of each status label, by the status ids the rules modules declare (STATUSES).
STATUS_LABELS = {"surprised": "Status.Surprised", "prone": "Status.Prone", "sleep": "Status.Asleep",
                 "unaware": "Status.Unaware"}


def status_defs(ids: tuple[str, ...]) -> tuple[StatusDef, ...]:
    """Describe the statuses of a rules module"""
    return tuple(StatusDef(status, STATUS_LABELS[status]) for status in ids)
