"""Build VTT output from campaigns (the targets arrive with issues 3 and 4)"""

from __future__ import annotations

from pathlib import Path

from exporter.rules.systems import SYSTEM_IDS


def build_plan(campaigns: tuple[Path, ...], out: Path, target: str, make_zip: bool, check: bool) -> str:
    """Describe what a build will write, while the Foundry and Roll20 writers do not exist yet"""
    sources = [str(c) for c in campaigns] or [f"the bundled example campaign for {s}" for s in SYSTEM_IDS]
    targets = ["foundry", "roll20"] if target == "all" else [target]
    lines = ["ambush build: the VTT writers are not implemented yet; nothing was written.",
             "When they are, this command will build:"]
    for source in sources:
        lines.append(f"  {source}:")
        if "foundry" in targets:
            lines.append(f"    {out}/ID/foundry/  the unpacked Foundry VTT module (module.json at its root)")
            if make_zip:
                lines.append(f"    {out}/ID/ID-VERSION.zip  the installable module zip")
        if "roll20" in targets:
            lines.append(f"    {out}/ID/roll20/  the Roll20 Mod script, script.json and chat macros")
    if check:
        lines.append("--check will compare that tree with what a build writes and exit 1 on a difference.")
    return "\n".join(lines)
