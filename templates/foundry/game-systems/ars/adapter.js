// ARS, Advanced Roleplaying System (game system id "ars"; docs/game-systems.md, Foundry: ARS): its ability scores as the
// GM typed them, its Dexterity reaction adjustment where the 1e table stops, and its tracker's re-roll of every
// initiative as a round changes. The versions checked come through the build (exporter/game_systems/ars.py).
import { numberOf } from "../values.js";

/** ARS's package id (its system.json) */
export const GAME_SYSTEM_ID = "ars";

/** ARS's rules variants whose Dexterity table is AD&D 1e's (lastredoubt/acks2-arsbase src/module/config.js at d47147c5) */
const ARS_1E_VARIANTS = ["0", "1"];

/** Return the ARS world's rules variant ("0", "1", "2"), or null where ARS registered none */
function arsVariant() {
  return game.settings.settings.has("ars.systemVariant") ? String(game.settings.get("ars", "systemVariant")) : null;
}

/**
 * Return an ability score as the GM typed it in ARS: undefined where the actor has none, null where ARS shows one of
 * its own instead. ARS shows a blank, 0 or text as 1 and clamps the rest to 1-25 (lastredoubt/acks2-arsbase
 * src/module/actor/actor.js _buildAbilityFields at d47147c5), so only a whole number from 1 to 25 in the stored data
 * is the actor's own.
 */
function arsScore(actor, ability) {
  const stored = foundry.utils.getProperty(actor._source ?? actor, `system.abilities.${ability}.value`);
  if (stored === undefined) return undefined;
  const score = typeof stored === "number" || /^\s*\d+\s*$/.test(String(stored ?? "")) ? Number(stored) : NaN;
  return Number.isInteger(score) && score >= 1 && score <= 25 ? score : null;
}

/**
 * Read a data path of an ARS actor. An ability score ARS replaced with its own (a blank shown as 1) is asked (null).
 * The Dexterity reaction adjustment ARS computes is read only where the 1e table stops, Dexterity 19 to 25, and only
 * from a variant with 1e tables: below 19 the module applies the 1e table to Dexterity itself, and variant 2's table
 * is AD&D 2e's (+2 at Dexterity 18, where 1e gives +3), so there the Dexterity is read instead (docs/game-systems.md).
 */
export function readPath(actor, path) {
  const ability = /^system\.abilities\.([a-z]+)\.value$/.exec(path)?.[1];
  const score = arsScore(actor, ability ?? "dex");
  if (ability) return score === undefined || score === null ? score : foundry.utils.getProperty(actor, path);
  if (path !== "system.abilities.dex.reaction") return foundry.utils.getProperty(actor, path);
  if (score === undefined || score === null) return score;
  const dex = numberOf(foundry.utils.getProperty(actor, "system.abilities.dex.value"));
  return dex > 18 && ARS_1E_VARIANTS.includes(arsVariant()) ? foundry.utils.getProperty(actor, path) : undefined;
}

/** ARS keeps no traits by name: asked */
export const hasTrait = () => null;

/** ARS keeps no skills by name that the rules read: asked */
export const skillLevel = () => null;

/**
 * Tell whether ARS re-rolls every initiative as this combat's round changes: it does, on any change of round, back or
 * forward, while its world setting rollInitEachRound is on, and as the first round begins in any case
 * (docs/dev/foundry.md §11). An ARS without that setting is not known to re-roll, and is not waited for.
 */
export function rerollsAsRoundChanges(combat) {
  if (!game.settings.settings.has("ars.rollInitEachRound")) return false;
  return game.settings.get("ars", "rollInitEachRound") !== false || (combat.round === 1 && combat.turn === 0);
}
