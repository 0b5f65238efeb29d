import { LOG_PREFIX, STATUSES } from "./constants.js";
import { localize } from "./i18n.js";

/** Our status id -> the id actually used in CONFIG.statusEffects (ours, or the game system's own). */
const inUse = new Map();

/**
 * Add the module's statuses to CONFIG.statusEffects, reusing a game system's own where it has one.
 * Runs in the setup hook: game systems such as GURPS Game Aid replace the whole list during init.
 */
export function addStatusEffects() {
  for (const status of STATUSES) {
    const existing = status.reuse.find((id) => CONFIG.statusEffects.some((effect) => effect.id === id));
    if (existing) {
      inUse.set(status.id, existing);
      continue;
    }
    CONFIG.statusEffects.push({ id: status.id, name: localize(status.label), img: status.icon, hud: true });
    inUse.set(status.id, status.id);
  }
  console.debug(`${LOG_PREFIX}statuses`, Object.fromEntries(inUse));
}

/** Return the status id to toggle for one of the module's statuses. */
export const statusId = (id) => inUse.get(id) ?? id;

/** Tell whether an actor shows one of the module's statuses. */
export const hasStatus = (actor, id) => Boolean(actor?.statuses?.has(statusId(id)));

/**
 * Switch a status on or off on the actor behind a combatant; a combatant without an actor is left alone.
 * Returns the created ActiveEffect, true for any other change, false when nothing changed.
 */
export async function setStatus(actor, id, active) {
  if (!actor || hasStatus(actor, id) === active) return false;
  const result = await actor.toggleStatusEffect(statusId(id), { active });
  return typeof result === "object" && result !== null ? result : true;
}
