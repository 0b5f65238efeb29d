// The combat's hooks as session calls: every change of the combat (a turn, a round, a re-sort, a combatant added or
// removed) is a look at the table the session reconciles with what it played (common/follow.js); a round about to
// begin gets the number the rules give it, and a change of round or turn the world time they give it; a deleted
// combatant or combat leaves.
import { MODULE_ID } from "../common/config.js";
import { nextRoundNumber, passedSeconds } from "../common/session.js";
import { LOG_PREFIX } from "./constants.js";
import { combatSession, isAutomationClient, serialized, storedState } from "./host.js";
import { localize } from "./i18n.js";
import { forget, initiativeChanged, roundChanged, settingTurn, unplaced } from "./initiative.js";

export const STRING_KEYS = ["Notify.WaitingInitiative"];

/** Return what the combat shows now, as the session reads it; forward is the direction of the change, where known */
const lookAt = (combat, forward) => ({
  order: combat.turns.map((combatant) => combatant.id),
  current: combat.started && Number.isInteger(combat.turn) ? combat.turn : -1,
  round: combat.round,
  forward,
  rotating: false,
  unplaced: unplaced(combat),
});

/** The round of each combat in which the GM was last told that the surprise waits for initiatives */
const toldWaiting = new Map();

/** Tell the GM once a round that no turn is played until the order is rolled (common/follow.js, rule 6) */
function tellWaiting(combat, waiting) {
  if (!waiting.length || toldWaiting.get(combat.id) === combat.round) return;
  toldWaiting.set(combat.id, combat.round);
  ui.notifications.info(localize("Notify.WaitingInitiative"));
}

/** The combat's state that a skip must find unchanged: the current combatant, the round and the order */
const signature = (combat) => JSON.stringify([combat.combatant?.id ?? null, combat.round, combat.turns.map((c) => c.id)]);

/**
 * Let the session follow a combat after a change (docs/dev/foundry.md §7: the hooks run on every client after the
 * update; only the active GM acts). Passes on the turn of one who may not act, unless the table changed meanwhile (a
 * game system re-sorting as the round begins: its own change of turn starts the right one).
 */
function follow(combat, forward) {
  if (!isAutomationClient() || !combat) return undefined;
  return serialized(async () => {
    // The change that sets the turn comes next, and is followed.
    if (!game.combats.has(combat.id) || settingTurn(combat)) return;
    const before = signature(combat);
    const step = await combatSession(combat).observe(lookAt(combat, forward));
    if (!game.combats.has(combat.id)) return;
    tellWaiting(combat, step.waiting);
    if (step.restart) await combat.update({ turn: 0 });
    else if (step.skip && signature(combat) === before) await combat.nextTurn();
  });
}

/**
 * The direction of an update: as nextTurn, nextRound and their reverse give it (docs/dev/foundry.md §7.1), else as
 * onPreUpdateCombat read it from the round before the change (ARS's own turn methods give none); else null.
 */
function directionOf(options) {
  if (options?.direction > 0) return true;
  if (options?.direction < 0) return false;
  return options?.[MODULE_ID]?.forward ?? null;
}

/** A change of turn or round */
export function onUpdateCombat(combat, changed, options) {
  if ("round" in changed) roundChanged(combat);
  if ("turn" in changed || "round" in changed) follow(combat, directionOf(options));
}

/** A combatant's initiative changed: the order is sorted again */
export function onUpdateCombatant(combatant, changed) {
  initiativeChanged(combatant, changed);
  if ("initiative" in changed) follow(combatant.parent, null);
}

/** A combatant joined the combat */
export const onCreateCombatant = (combatant) => follow(combatant.parent, null);

/**
 * Let a change of the combat's round or turn pass the world time the rules give it (an AD&D surprise segment lasts a
 * segment, not a round: docs/dev/foundry.md §7.2, §11). The time travels in the update's options, V13's `advanceTime`
 * and V14's `worldTime.delta`; which of them each generation still reads is not documented, so each one present is
 * rewritten and none is added. `to` is the round the update proposes.
 */
function passTime(combat, to, options) {
  const surprise = storedState(combat);
  if (!surprise || !options) return;
  const passed = (seconds) => passedSeconds(surprise, combat.round, to, seconds);
  if (Number.isFinite(options.advanceTime)) options.advanceTime = passed(options.advanceTime);
  if (Number.isFinite(options.worldTime?.delta)) {
    options.worldTime = { ...options.worldTime, delta: passed(options.worldTime.delta) };
  }
}

/**
 * combatRound and combatTurn: core's methods fire them before the update, on the client that makes it, with the
 * update's options, which "can be mutated" (docs/dev/foundry.md §7.2); the time is set there, and again in
 * preUpdateCombat for the methods that fire neither (ARS's own, §11). Setting it twice gives the same time.
 */
export const onCombatChange = (combat, updateData, updateOptions) =>
  passTime(combat, updateData?.round ?? combat.round, updateOptions);

/**
 * Give the round about to begin the number the rules give it (the AD&D surprise segments are no rounds of the
 * fight), and the change the world time they give it. preUpdateCombat runs on the client that advances the combat, GM
 * or player, before the update is sent (docs/dev/foundry.md §7), so the tracker, the game system and every module see
 * the right number in one change. The direction of a change of round is noted in the update's options first, which
 * every client's updateCombat gets (§7.1): a renumbered round may be lower, and not every update says its direction.
 */
export function onPreUpdateCombat(combat, changed, options) {
  if (!("round" in changed) && !("turn" in changed)) return;
  passTime(combat, changed.round ?? combat.round, options);
  if (!("round" in changed) || changed.round === combat.round) return;
  const forward = changed.round > combat.round;
  if (options) options[MODULE_ID] = { forward };
  if (forward) changed.round = nextRoundNumber(storedState(combat), combat.round, changed.round);
}

/**
 * Clean up after a deleted combat: its statuses would otherwise never be removed. The hook runs on every client;
 * only the active GM acts, after any turn of the automation still running.
 */
export function onDeleteCombat(combat) {
  forget(combat);
  toldWaiting.delete(combat.id);
  if (!isAutomationClient()) return undefined;
  return serialized(async () => {
    try {
      await combatSession(combat).clear();
    } catch (error) {
      console.error(`${LOG_PREFIX}clean-up after a deleted combat failed`, error);
    }
  });
}

/**
 * A combatant removed from a running surprise leaves it: the statuses the module applied to him go (read from the
 * removed combatant's own actor, which may be a token's), and the automation no longer waits for his turns. The
 * hook runs on every client; only the active GM acts. A combat deleted as a whole is onDeleteCombat's.
 */
export function onDeleteCombatant(combatant) {
  const combat = combatant.parent;
  if (!isAutomationClient() || !combat) return undefined;
  return serialized(async () => {
    if (!game.combats.has(combat.id)) return;
    await combatSession(combat, { [combatant.id]: combatant.actor ?? null }).left(combatant.id);
  });
}
