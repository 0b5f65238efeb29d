// A draft's combatants: each with his place, and the edits of them every host can offer: rename one and every choice
// that named him, add one, remove one and clear the choices that named him, draft them again for another procedure.
// Each edit returns a new draft and leaves the one given as it was; the host keeps it and shows it.
import { SIDE_KEYS } from "./config.js";
import { draftFromCombatants, inputsAt, isEmpty, ownValue } from "./draft.js";

/** Return every combatant of a draft with his place, side a first, then side b, then those left out */
const everyone = (draft) => [
  ...SIDE_KEYS.flatMap((key) => draft.sides[key].members.map((member) => [key, member])),
  ...(draft.out ?? []).map((member) => ["out", member]),
];

/** Return where a combatant stands in a draft: "a", "b", "out" or null, and his entry there */
function placeOf(draft, id) {
  const found = everyone(draft).find(([, member]) => member.id === id);
  return found ? { place: found[0], member: found[1] } : { place: null, member: null };
}

/** Return a deep copy of a draft (plain data) to change */
const copied = (draft) => JSON.parse(JSON.stringify(draft));

/** Rewrite the choices that name a combatant (leaders, the attacker, the openers); null clears them, and his openers */
function renameReferences(draft, old, name) {
  const referencing = (level) => inputsAt(draft.procedure, level).filter((input) => input.type === "member").map((input) => input.key);
  for (const key of referencing("scenario")) if (draft[key] === old) draft[key] = name;
  for (const side of SIDE_KEYS) for (const key of referencing("side")) if (draft.sides[side][key] === old) draft.sides[side][key] = name;
  if (Array.isArray(draft.openers)) {
    draft.openers = name === null ? draft.openers.filter((row) => row.name !== old)
      : draft.openers.map((row) => (row.name === old ? { ...row, name } : row));
  }
}

/**
 * Return the draft with a combatant renamed, and every choice that named him; null when no combatant has the id. A
 * name that is empty or another's is kept as typed, his last good name kept in `named` (the form says what is wrong,
 * Roll waits): the choices follow the last name that named him alone.
 */
function renameCombatant(draft, id, raw) {
  const name = String(raw).trim();
  const edited = copied(draft);
  const { member } = placeOf(edited, id);
  if (!member) return null;
  const named = member.named ?? member.name;
  member.name = name;
  const taken = everyone(edited).some(([, other]) => other !== member && other.name.trim() === name);
  if (!name || taken) member.named = named;
  else {
    delete member.named;
    if (named !== name) renameReferences(edited, named, name);
  }
  return edited;
}

/**
 * Return the draft with a new combatant `id` at the end of a side, with the rules' defaults and the first name
 * `nameFor(number)` gives that no other has (numbers from the count of combatants plus one), and that combatant
 */
function addCombatant(draft, side, id, nameFor) {
  const edited = copied(draft);
  const taken = new Set(everyone(edited).map(([, member]) => member.name));
  let number = everyone(edited).length + 1;
  while (taken.has(nameFor(number))) number += 1;
  const member = { id, name: nameFor(number) };
  for (const input of inputsAt(edited.procedure, "member")) member[input.key] = input.default;
  edited.sides[side].members.push(member);
  return { draft: edited, member };
}

/** Return the draft without a combatant, and without every choice that named him; null when no combatant has the id */
function removeCombatant(draft, id) {
  const edited = copied(draft);
  const { member } = placeOf(edited, id);
  if (!member) return null;
  for (const key of SIDE_KEYS) edited.sides[key].members = edited.sides[key].members.filter((entry) => entry.id !== id);
  edited.out = (edited.out ?? []).filter((entry) => entry.id !== id);
  renameReferences(edited, member.named ?? member.name, null);
  return edited;
}

/** Return the draft of its combatants for another procedure: each keeps his place and the values the new one reads too */
function changeProcedure(draft, procedure) {
  const combatants = everyone(draft).map(([place, member]) => {
    const unread = ownValue(member, "unread");
    // An empty value reads as none held, but one his sheet could not read stays unread: asked for, never a default
    const asked = (key) => Array.isArray(unread) && unread.includes(key) && isEmpty(ownValue(member, key));
    return { id: member.id, label: member.name, side: place === "out" ? null : place,
      read: (key) => (asked(key) ? null : ownValue(member, key) ?? undefined) };
  });
  const drafted = draftFromCombatants(procedure, combatants);
  for (const key of SIDE_KEYS) drafted.sides[key].name = draft.sides[key].name ?? "";
  return drafted;
}

export { addCombatant, changeProcedure, everyone, placeOf, removeCombatant, renameCombatant };
