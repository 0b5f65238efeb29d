"""ARS (package id "ars"): its readers and versions, beside its adapter templates/foundry/game-systems/ars/"""

from __future__ import annotations

from typing import Any

GAME_SYSTEM_ID = "ars"
RULES_SYSTEM = "adnd1e"  # the rules whose inputs its sheets hold

# ARS v2023.08.06 for V11, as imported unchanged into lastredoubt/acks2-arsbase: src/template.json (abilities),
# src/module/actor/actor.js _buildAbilityFields and src/module/config.js dexterityTable (the computed Dex reaction
# adjustment at system.abilities.dex.reaction, per rules variant). ARS itself is on GitLab; V13/V14 stay unconfirmed.
ARS = "ARS v2023.08.06: lastredoubt/acks2-arsbase@d47147c53b9733003995e3620df7877cdcca6d61 (V13/V14 unconfirmed)"

# The V11 copy's package is ars-v2023.08.06.zip; its system.json `version` is inferred from that name.
VERSIONS = {"2023.08.06": ARS}

# The reader of each input of the AD&D 1e rules (adnd1e), with its source.
READERS: dict[str, tuple[Any, str]] = {
    "dex": ("system.abilities.dex.value", f"{ARS} src/template.json"),
    # Given instead of dex (docs/rules/adnd1e.md#dexterity) where ARS computed it: read for Dex 19-25 only,
    # beyond the 1e table, and only from a variant with 1e tables (templates/foundry/game-systems/ars/adapter.js).
    "surprise_adjustment": ("system.abilities.dex.reaction", f"{ARS} src/module/config.js"),
}

# ARS has none of the module's statuses of its own (docs/dev/foundry.md §11): the module adds them.
REUSED_STATUSES: dict[str, tuple[str, ...]] = {}
