// The module's statuses in CONFIG.statusEffects, reusing a game system's own, and switching them on an actor
// (docs/dev/foundry.md §6, §8).
import { STATUSES } from "../common/config.js";
import { LOG_PREFIX } from "./constants.js";
import { localize } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["{status}"];

/** Our status id -> the id actually used in CONFIG.statusEffects (ours, or the game system's own). */
const inUse = new Map();

/**
 * Return the entries of CONFIG.statusEffects: an array on V13, an object keyed by id on V14, and whatever a game
 * system installed there (docs/dev/foundry.md §6).
 */
export const statusEntries = () => {
  const list = CONFIG.statusEffects ?? [];
  return Array.isArray(list) ? list : Object.values(list);
};

/**
 * How long the module's effects last on V14: until the module removes them, at the latest when the fight ends. The
 * expiry is given, so that a game system that stamps `turnStart` on every effect made without one (dnd5e 6.0.2,
 * foundryvtt/dnd5e#7482, #7484) leaves them alone; no value is, so that core's expiry never runs them out, in the
 * database or in memory only (foundryvtt/foundryvtt#13743). docs/dev/foundry.md §8.
 */
const V14_DURATION = { value: null, expiry: "combatEnd" };

/** Tell whether an effect lasts as the module's own V14 effects do */
const lastsAsOwn = (duration) => (duration?.value ?? null) === null && duration?.expiry === V14_DURATION.expiry;

/** Add one entry to CONFIG.statusEffects in the shape it has, unless its id is already there. */
function addStatusEntry(entry) {
  if (statusEntries().some((existing) => existing.id === entry.id)) return;
  if (Array.isArray(CONFIG.statusEffects)) CONFIG.statusEffects.push(entry);
  else CONFIG.statusEffects[entry.id] = entry;
}

/**
 * Add the module's statuses to CONFIG.statusEffects, reusing a game system's own where it has one.
 * Runs in the setup hook: game systems such as GURPS Game Aid replace the whole list during init.
 */
export function addStatusEffects() {
  const ids = new Set(statusEntries().map((effect) => effect.id));
  for (const status of STATUSES) {
    const existing = status.reuse.find((id) => ids.has(id));
    if (existing) {
      inUse.set(status.id, existing);
      continue;
    }
    const duration = game.release.generation >= 14 ? { duration: { ...V14_DURATION } } : {};
    addStatusEntry({ id: status.id, name: localize(status.label), img: status.icon, hud: true, ...duration });
    ids.add(status.id);
    inUse.set(status.id, status.id);
  }
  console.debug(`${LOG_PREFIX}statuses`, Object.fromEntries(inUse));
}

/** Return the status id to toggle for one of the module's statuses. */
export const statusId = (id) => inUse.get(id) ?? id;

/** Tell whether V14's core expiry has run out an effect: it then stays on the actor, inactive (docs/dev/foundry.md §8). */
const expired = (effect) => Boolean(effect.duration?.expired);

/**
 * Return an actor's effects that carry one of the module's statuses. Found through actor.effects, not
 * actor.statuses: on V14 an expired effect is missing from actor.statuses, yet toggleStatusEffect still finds it.
 */
export const statusEffects = (actor, id) =>
  (actor?.effects ?? []).filter((effect) => effect.statuses?.has(statusId(id)));

/** Tell whether an actor shows one of the module's statuses: an enabled effect core has not expired. */
export const hasStatus = (actor, id) => statusEffects(actor, id).some((effect) => !effect.disabled && !expired(effect));

/** Delete the expired leftovers of a status, so that switching it on creates a live effect again (docs/dev/foundry.md §8). */
async function dropExpired(actor, id) {
  const leftovers = statusEffects(actor, id).filter(expired).map((effect) => effect.id);
  if (leftovers.length) await actor.deleteEmbeddedDocuments("ActiveEffect", leftovers);
}

/**
 * Switch a status on or off on the actor behind a combatant; a combatant without an actor is left alone.
 * Returns the effect now showing the status when it was switched on, true when it was switched off, false when
 * nothing changed. The effect is read back from actor.effects: a game system's toggleStatusEffect (GURPS Game Aid's)
 * may return nothing. On V14 an effect made from a game system's own status (GGA's mental stun, core's prone) is given
 * the module's duration after it is made, where the system gave it another (V14_DURATION).
 */
export async function setStatus(actor, id, active) {
  if (!actor) return false;
  await dropExpired(actor, id);
  if (hasStatus(actor, id) === active) return false;
  await actor.toggleStatusEffect(statusId(id), { active });
  if (!active) return true;
  const effect = statusEffects(actor, id).find((each) => !each.disabled && !expired(each));
  if (!effect) return false;
  if (game.release.generation >= 14 && !lastsAsOwn(effect.duration)) await effect.update({ duration: { ...V14_DURATION } });
  return effect;
}
