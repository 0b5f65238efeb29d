// The game systems' adapters, one folder each, chosen by the world's game system id (game.system.id), as DFreds
// Convenient Effects keeps effects/<system>/ behind a registry: each reads that system's sheets and knows its tracker's
// quirks; a world whose game system has none gets none/, which reads data paths and asks for the rest. The statuses a
// game system has that the module reuses come through the build, from exporter/game_systems/.
import * as ars from "./ars/adapter.js";
import * as dnd5e from "./dnd5e/adapter.js";
import * as gurps from "./gurps/adapter.js";
import * as none from "./none/adapter.js";

/**
 * What an adapter gives the neutral layers (sheets.js, initiative.js): each function of each adapter, none/'s the
 * answers of a game system the module knows nothing of.
 *
 * @typedef {object} GameSystemAdapter
 * @property {string|null} GAME_SYSTEM_ID The game.system.id it serves; null for none/
 * @property {(actor: object, path: string) => unknown} readPath The value at an actor's data path: undefined where the
 *   actor has none (the rule's default holds), null where the game system shows one the actor does not hold (asked)
 * @property {(actor: object, name: string) => boolean|null} hasTrait Whether an actor has a trait (an advantage) by
 *   name; null where it cannot be told (asked)
 * @property {(actor: object, name: string) => number|null|undefined} skillLevel An actor's level in a skill by name:
 *   undefined where he has no such skill, null where it cannot be told (asked)
 * @property {(combat: object) => boolean} rerollsAsRoundChanges Whether the game system re-rolls every initiative as
 *   this combat's round changes (initiative.js waits for the new order)
 * @property {(combat: object, id: string, kind: string, bonus: number) => Promise<{roll: object, rolls: number[],
 *   total: number} | null>} [rollInitiative] Roll a combatant's Initiative through the game system's own roll (dnd5e);
 *   null where it cannot with that bonus, and the rules core rolls
 * @property {() => void} [prepareWorld] Set the world up for the campaign's rules at setup, where the game system's own
 *   automation would play them otherwise (dnd5e's Surprised and initiative)
 */

/** @type {GameSystemAdapter[]} The adapters of the game systems ambush knows */
const ADAPTERS = [gurps, ars, dnd5e];

/** Return the adapter of the world's game system, none/'s where ambush has no adapter for it */
export function gameSystemAdapter() {
  return ADAPTERS.find((adapter) => adapter.GAME_SYSTEM_ID === game.system?.id) ?? none;
}
