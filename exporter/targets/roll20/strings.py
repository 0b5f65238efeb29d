"""The strings the Roll20 script carries: only the catalogue keys its rendered code refers to, per language

The rendered script (its adapter code, the system's table runtime and rules core) is read for catalogue keys:
a string literal that is a key ("Dialog.Title"), or the fixed start of a key built at run time
(`Gurps.Stunned.${kind}`, "Gurps.Modifier." + name), which brings every key with that start. Keys the script
builds from its own PROCEDURES (`Procedure.${id}`, `Input.${key}`) are only those of the system's procedures
and inputs. So a script carries its own system's strings and no other system's, nor the Foundry module's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from exporter.definitions import Definitions
from exporter.definitions.catalogue import Catalogue

# A JS string that holds a catalogue key, or a key's fixed start: ends with its quote or a ${ substitution.
KEY_REFERENCE = re.compile(r"""
    (?P<quote>["'`])
    (?P<key>[A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9_-]+)*\.?)
    (?P<end>\$\{|(?P=quote))
""", re.VERBOSE)


def data_keys(defs: Definitions) -> dict[str, set[str]]:
    """Return the keys of the namespaces the script fills from its PROCEDURES: the system's procedures and inputs"""
    return {
        "Procedure.": {f"Procedure.{procedure}" for procedure in defs.procedure_ids},
        "Input.": {f"Input.{item.key}" for procedure in defs.procedures for item in procedure.inputs},
    }


def referenced_keys(script: str, known: Iterable[str], scoped: Mapping[str, set[str]]) -> set[str]:
    """Return the known keys a script refers to, whole or by their fixed start"""
    keys = set(known)
    found: set[str] = set()
    for match in KEY_REFERENCE.finditer(script):
        key = match["key"]
        if match["end"] == match["quote"] and not key.endswith("."):
            found |= {key} & keys
        elif key in scoped:
            found |= scoped[key] & keys
        else:
            found |= {k for k in keys if k.startswith(key)}
    return found


def script_strings(defs: Definitions, script: str) -> Catalogue:
    """Return, per language, the strings a rendered script refers to, keys sorted"""
    keys = referenced_keys(script, defs.catalogue["en"], data_keys(defs))  # en has every key
    return {language: {key: table[key] for key in sorted(keys) if key in table}
            for language, table in defs.catalogue.items()}
