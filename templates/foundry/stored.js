// What the Foundry host writes of a surprise after an event: only what changed. A Foundry update merges an object into
// the stored one, deletes a key named "-=key" (foundryvtt/foundryvtt#7716: also inside flags) and replaces a list
// whole, since it cannot address one element of it; and every update of a whole surprise is sent, merged and shown to
// every client. So the host keeps a copy of what it stored (the base) and, from the parts the event may have changed
// (common/surprise-record.js FIXED_PARTS and MEMBER_PARTS), writes the dotted keys that differ: a turn of one combatant costs
// his entries and the small parts, not the thousands of others. A list that grows an id a turn (GROWING_LISTS: the
// members whose turn started this round) is stored as each id's place in it, {id: place}, so that a turn adds one key;
// storedForm and workingForm turn the one form into the other.
import { grownFrom } from "../common/follow.js";
import { ADDED_ONLY, FIXED_PARTS, GROWING_LISTS, MEMBER_PARTS, REPLACED_ONLY } from "../common/surprise-record.js";
import { rulesSystem } from "../common/system.js";

/** The parts this host adds at the roll and never changes: the actors behind the members (host.js actorRefs) */
const HOST_FIXED_PARTS = ["actors"];

/** A key an update can address: no dot, no operator ("-=", "=="), nothing an object's prototype answers to */
const addressable = (key) => /^[A-Za-z0-9_]+$/.test(key) && key !== "__proto__";

const isContainer = (value) => value !== null && typeof value === "object";
const isPlainObject = (value) => isContainer(value) && !Array.isArray(value);

/** Return a copy of a JSON value (plain data: faster than structuredClone, which a turn would pay on every write) */
function copyOf(value) {
  if (Array.isArray(value)) return value.every((item) => !isContainer(item)) ? value.slice() : value.map(copyOf);
  if (!isPlainObject(value)) return value;
  const copy = {};
  for (const key of Object.keys(value)) copy[key] = copyOf(value[key]);
  return copy;
}

/** Tell two JSON values equal */
function same(before, after) {
  if (before === after) return true;
  if (Array.isArray(before)) {
    if (!Array.isArray(after) || before.length !== after.length) return false;
    for (let index = 0; index < before.length; index += 1) {
      const one = before[index];
      const other = after[index];
      if (one !== other && (!isContainer(one) || !same(one, other))) return false;
    }
    return true;
  }
  if (!isPlainObject(before) || !isPlainObject(after)) return false;
  const keys = Object.keys(before);
  return keys.length === Object.keys(after).length
    && keys.every((key) => Object.hasOwn(after, key) && same(before[key], after[key]));
}

/** The growing lists by their path in the surprise, as [part, key] */
const growing = GROWING_LISTS.map((path) => path.split("."));
const growingPaths = new Set(GROWING_LISTS);

/** Return a copy of a surprise with each growing list in the form `turn` gives it */
function withLists(surprise, turn) {
  const copy = copyOf(surprise);
  for (const [part, key] of growing) {
    if (isPlainObject(copy[part]) && copy[part][key] !== undefined) copy[part][key] = turn(copy[part][key]);
  }
  return copy;
}

/** Return a copy of a surprise as it is stored: each growing list as {id: place} */
const storedForm = (surprise) => withLists(surprise, (list) => (Array.isArray(list) ? placesOf(list) : list));

/** Return a copy of a stored surprise as the session plays it: each growing list a list again (as stored before: kept) */
const workingForm = (stored) => withLists(stored, (places) => (isPlainObject(places) ? listOf(places) : places));

/** Tell a stored surprise was stored before growing lists were kept by id: it is to be written whole */
const storedAsLists = (stored) => growing.some(([part, key]) => Array.isArray(stored?.[part]?.[key]));

/** Return each id of a list with its place */
const placesOf = (list) => Object.fromEntries(list.map((id, place) => [id, place]));

/** Return the ids of {id: place} in their places' order */
const listOf = (places) => Object.keys(places).sort((one, other) => places[one] - places[other]);

/** Tell a value at this path in the surprise is a list never changed in place (REPLACED_ONLY): the base may keep it */
const replacedOnly = (part, value) => Array.isArray(value) && REPLACED_ONLY.includes(part.split(".")[0]);

/** Return what the base keeps of a value written at this path: the list itself where it is never changed, else a copy */
const baseValue = (part, value) => (replacedOnly(part, value) ? value : copyOf(value));

/** Write the keys that turn a growing list `before` (a list, in the base) into `after`, as {id: place} is stored */
function changeList(update, path, holder, key, after, part) {
  const before = holder[key];
  if (!Array.isArray(before) || !Array.isArray(after)) throw new Unaddressable(key);
  if (grownFrom(after) === before && replacedOnly(part, after)) { // one id added to the list stored: that id alone
    const place = before.length;
    if (!addressable(after[place])) throw new Unaddressable(after[place]);
    update[`${path}.${key}.${after[place]}`] = place;
    holder[key] = after;
    return;
  }
  let kept = 0; // the places the two lists share, from the first: most often all of before (a turn adds one id)
  while (kept < before.length && kept < after.length && before[kept] === after[kept]) kept += 1;
  if (kept === before.length && kept === after.length) {
    if (replacedOnly(part, after)) holder[key] = after; // the same from now on: told by identity
    return;
  }
  const staying = new Set(after);
  for (const id of before.slice(kept)) {
    if (staying.has(id)) continue;
    if (!addressable(id)) throw new Unaddressable(id);
    update[`${path}.${key}.-=${id}`] = null;
  }
  for (let place = kept; place < after.length; place += 1) {
    if (!addressable(after[place])) throw new Unaddressable(after[place]);
    update[`${path}.${key}.${after[place]}`] = place;
  }
  holder[key] = replacedOnly(part, after) ? after : after.slice();
}

/** Thrown where a key cannot be addressed by an update: the host writes the whole surprise instead */
class Unaddressable extends Error {}

/** The objects whose entries never change once there, by their path in the surprise (common/surprise-record.js) */
const addedOnly = new Set(ADDED_ONLY);

/**
 * Write into `update` the dotted keys under `path` that turn `holder[key]` (the base) into `after`, and bring the base
 * up to date: objects key by key, anything else whole. `part` is the path in the surprise, for ADDED_ONLY: of such an
 * object only the entries added are compared and written.
 */
function changeInto(update, path, holder, key, after, part) {
  const before = holder[key];
  if (before === after) return;
  if (after === undefined) {
    update[`${path}.-=${key}`] = null;
    delete holder[key];
    return;
  }
  if (growingPaths.has(part)) {
    changeList(update, path, holder, key, after, part);
    return;
  }
  if (isPlainObject(before) && isPlainObject(after)) {
    const inside = `${path}.${key}`;
    const once = addedOnly.has(part);
    for (const inner of Object.keys(before)) {
      if (Object.hasOwn(after, inner)) continue;
      if (!addressable(inner)) throw new Unaddressable(inner);
      changeInto(update, inside, before, inner, undefined, `${part}.${inner}`);
    }
    for (const inner of Object.keys(after)) {
      if (once && Object.hasOwn(before, inner)) continue;
      if (!addressable(inner)) throw new Unaddressable(inner);
      changeInto(update, inside, before, inner, after[inner], `${part}.${inner}`);
    }
    return;
  }
  if (same(before, after)) {
    if (replacedOnly(part, after)) holder[key] = after; // the same from now on: told by identity
    return;
  }
  update[`${path}.${key}`] = copyOf(after);
  holder[key] = baseValue(part, after);
}

/**
 * Return the update that brings the stored surprise (`base`, brought up to date with it) to `surprise`, whose event
 * changed the parts by member of the members in `changed`; null when only a whole write can (a key no update can
 * address). `root` is the flag's path on the combat.
 */
function storedChanges(root, base, surprise, changed) {
  const fixed = new Set([...FIXED_PARTS, ...HOST_FIXED_PARTS]);
  const byMember = new Set([...MEMBER_PARTS, ...rulesSystem().Runtime.MEMBER_PARTS]);
  const update = {};
  try {
    for (const part of new Set([...Object.keys(base), ...Object.keys(surprise)])) {
      if (fixed.has(part)) continue;
      if (!addressable(part)) return null;
      if (!byMember.has(part) || !isPlainObject(base[part]) || !isPlainObject(surprise[part])) {
        changeInto(update, root, base, part, surprise[part], part);
        continue;
      }
      for (const id of changed) {
        if (!addressable(id)) return null;
        changeInto(update, `${root}.${part}`, base[part], id, surprise[part][id], `${part}.${id}`);
      }
    }
  } catch (error) {
    if (error instanceof Unaddressable) return null;
    throw error;
  }
  return update;
}

export { copyOf, storedAsLists, storedChanges, storedForm, workingForm };
