// What the Foundry host writes of a surprise after an event: only what changed. A Foundry update merges an object into
// the stored one, deletes a key named "-=key" (foundryvtt/foundryvtt#7716: also inside flags) and replaces a list
// whole, since it cannot address one element of it; and every update of a whole surprise is sent, merged and shown to
// every client. So the host keeps a copy of what it stored (the base) and, from the parts the event may have changed
// (common/surprise.js FIXED_PARTS and MEMBER_PARTS), writes the dotted keys that differ: a turn of one combatant costs
// his entries and the small parts, not the thousands of others.
import { FIXED_PARTS, MEMBER_PARTS } from "../common/surprise.js";
import { rulesSystem } from "../common/system.js";

/** The parts this host adds at the roll and never changes: the actors behind the members (host.js actorRefs) */
const HOST_FIXED_PARTS = ["actors"];

/** A key an update can address: no dot, no operator ("-=", "=="), nothing an object's prototype answers to */
const addressable = (key) => /^[A-Za-z0-9_]+$/.test(key) && key !== "__proto__";

const isPlainObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** Return a copy of a JSON value (plain data: faster than structuredClone, which a turn would pay on every write) */
function copyOf(value) {
  if (Array.isArray(value)) return value.map(copyOf);
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
    for (let index = 0; index < before.length; index += 1) if (!same(before[index], after[index])) return false;
    return true;
  }
  if (!isPlainObject(before) || !isPlainObject(after)) return false;
  const keys = Object.keys(before);
  return keys.length === Object.keys(after).length && keys.every((key) => Object.hasOwn(after, key) && same(before[key], after[key]));
}

/** Thrown where a key cannot be addressed by an update: the host writes the whole surprise instead */
class Unaddressable extends Error {}

/**
 * Write into `update` the dotted keys under `path` that turn `holder[key]` (the base) into `after`, and bring the base
 * up to date: objects key by key, anything else whole
 */
function changeInto(update, path, holder, key, after) {
  const before = holder[key];
  if (same(before, after)) return;
  if (after === undefined) {
    update[`${path}.-=${key}`] = null;
    delete holder[key];
    return;
  }
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const inner of Object.keys(before)) {
      if (!Object.hasOwn(after, inner)) changeInto(update, `${path}.${key}`, before, inner, undefined);
    }
    for (const inner of Object.keys(after)) {
      if (!addressable(inner)) throw new Unaddressable(inner);
      changeInto(update, `${path}.${key}`, before, inner, after[inner]);
    }
    return;
  }
  update[`${path}.${key}`] = copyOf(after);
  holder[key] = copyOf(after);
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
        changeInto(update, root, base, part, surprise[part]);
        continue;
      }
      for (const id of changed) {
        if (!addressable(id)) return null;
        changeInto(update, `${root}.${part}`, base[part], id, surprise[part][id]);
      }
    }
  } catch (error) {
    if (error instanceof Unaddressable) return null;
    throw error;
  }
  return update;
}

export { copyOf, storedChanges };
