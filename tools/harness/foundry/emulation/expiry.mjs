// V14 core effect expiry (docs/dev/foundry.md §8, https://foundryvtt.com/api/v14/variables/CONFIG.ActiveEffect.html): an
// effect expires when its duration has run out and its expiry event happens; the expiryAction "update" (the
// default) only sets duration.expired and leaves the effect on the actor, "delete" deletes it. V13 core expires
// nothing (Times Up does), so none of this runs there.
//
// With the option expiryInMemory, core behaves as foundryvtt#13743 reports (open, 14.x): the registry's refresh sets
// duration.expired on the effect in memory and the active GM persists nothing; (harness choice) this client's copy of
// the effect carries the flag, its stored data does not, and the expiryAction is not applied.
//
// Harness choices where the sources are silent: the events of a turn change are turnEnd (the prior combatant),
// then roundEnd and roundStart when the round changed, then turnStart (the new combatant), and combatStart when
// round 0 becomes round 1; combatEnd when the combat is deleted. A turnStart or turnEnd expiry concerns the
// effect's start.combatant only (draw-steel PR #1880, torgeternity#668: it fires on the combatant whose turn it
// was at creation). A finite rounds or turns duration without an expiry event expires at turnStart (dnd5e PR
// #7400; dnd5e PR #6837: "at the start of the active-at-the-time-of-application Actor's turn"). A seconds duration
// has run out once the world's clock has passed it since the effect's start (0 seconds at once: dnd5e#7484, whose
// stamped effects expire at the next turn start); one without a value never runs out (it is no temporary effect).
// Calendar units are not expired here. Core persists the change as the active GM, sent before the
// combatTurnChange hook of the same update runs; without an active GM nothing expires (foundryvtt#13743 reports
// that core also sets duration.expired in memory on every client, which the emulation does not model).

import { acting } from "./core.mjs";
import { EXPIRY_EVENTS } from "./documents.mjs";

/** The expiry events a combat's change from prior to current {round, turn, combatantId} fires, in order */
export function turnEvents(prior, current) {
  if (!prior.round && current.round >= 1) return [["combatStart", null], ["roundStart", null], ["turnStart", current.combatantId]];
  const events = [];
  if (prior.combatantId) events.push(["turnEnd", prior.combatantId]);
  if (current.round !== prior.round) events.push(["roundEnd", null], ["roundStart", null]);
  if (current.combatantId) events.push(["turnStart", current.combatantId]);
  return events;
}

/** Tell whether an effect's rounds, turns or seconds duration has run out in the combat */
function ranOut(environment, effect, combat) {
  const { value, units } = effect._source.duration;
  const start = effect._source.start;
  if (units === "seconds") return Number.isFinite(value) && environment._worldTime - (start.time ?? 0) >= value;
  if (!Number.isFinite(value) || start.round === null) return false;
  if (units === "rounds") return combat.round - start.round >= value;
  if (units === "turns") {
    const count = Math.max(combat.turns.length, 1);
    return (combat.round - start.round) * count + ((combat.turn ?? 0) - (start.turn ?? 0)) >= value;
  }
  return false;
}

/** The event an effect expires at: its own, or turnStart for a finite rounds or turns duration */
function eventOf(effect) {
  const { value, units, expiry } = effect._source.duration;
  if (expiry) return expiry;
  return Number.isFinite(value) && (units === "rounds" || units === "turns") ? "turnStart" : null;
}

/** The effects of world actors that a combat's event expires now */
export function expiring(environment, combat, event, combatantId) {
  const found = [];
  for (const actor of environment._world.actors) {
    for (const effect of actor.effects) {
      const start = effect._source.start;
      if (effect.duration.expired || start.combat !== combat.id || eventOf(effect) !== event) continue;
      if ((event === "turnStart" || event === "turnEnd") && start.combatant && start.combatant !== combatantId) continue;
      if (event === "combatEnd" || ranOut(environment, effect, combat)) found.push(effect);
    }
  }
  return found;
}

/** Expire what each event concerns, as the active GM, with the world's expiryAction */
export async function runExpiry(environment, combat, events) {
  const gm = environment._world.users.activeGM;
  if (!gm) return;
  const action = environment.CONFIG.ActiveEffect.expiryAction;
  for (const [event, combatantId] of events) {
    if (!EXPIRY_EVENTS.includes(event)) continue;
    for (const effect of expiring(environment, combat, event, combatantId)) {
      if (!effect.parent.effects.has(effect.id)) continue;
      if (environment.options.expiryInMemory) {
        effect._expireInMemory();
        continue;
      }
      const change = () => (action === "delete" ? effect.delete() : effect.update({ "duration.expired": true }));
      await (gm.id === environment.localUserId ? acting.exit(change) : acting.run({ userId: gm.id }, change));
    }
  }
}
