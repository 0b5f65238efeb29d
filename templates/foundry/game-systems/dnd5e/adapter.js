// dnd5e (game system id "dnd5e", foundryvtt/dnd5e): the Stealth, passive Perception and Initiative totals it prepares,
// read as they stand; its own Surprised, reused (exporter/game_systems/dnd5e.py); its own Initiative roll, for the
// 2024 rules, and the uses it gives back on Initiative; and one quirk of its modern rules: from 5.1 its Surprised gives
// Disadvantage on every initiative rolled through it (conditionEffects.initiativeDisadvantage, config.mjs 3795-3796 at
// release-5.3.3), which the 2014 rules do not have.
import { DEFAULT_OPTIONS } from "../../../common/config.js";

/** dnd5e's package id (its system.json) */
export const GAME_SYSTEM_ID = "dnd5e";

/** Read an actor's data path as it stands: dnd5e prepares the totals as the actor loads (creature.mjs, attributes.mjs) */
export const readPath = (actor, path) => foundry.utils.getProperty(actor, path);

/** dnd5e keeps no traits by name that the rules read: asked */
export const hasTrait = () => null;

/** dnd5e keeps no skills by name that the rules read (its skills are data paths): asked */
export const skillLevel = () => null;

/** The Initiative bonus dnd5e prepares (data/actor/templates/attributes.mjs 373-406), the one its own roll adds */
const INITIATIVE_BONUS = "system.attributes.init.total";

/**
 * Roll a combatant's Initiative through dnd5e's own roll, with Disadvantage where the rules give it (2024, D9):
 * Actor5e#getInitiativeRoll (documents/actor/actor.mjs 1770-1786 at release-5.3.3), the caller's Disadvantage winning
 * over nothing but itself (1826-1832: an Advantage of the actor's own stays, and the two cancel), so that what the
 * sheet adds (its bonuses, exhaustion, the Dexterity tiebreaker the world may have on) and every module's
 * dnd5e.preConfigureInitiative hook count as at the sheet. Returns the roll, its d20 faces and its total; null, for the
 * rules core to roll, where the GM gave the dialog another bonus than dnd5e's, or dnd5e would roll no d20 (its fixed
 * Initiative scores, which would drop the Disadvantage). Either way the combatant regains what dnd5e gives back on
 * Initiative.
 */
export async function rollInitiative(combat, id, kind, bonus) {
  const combatant = combat.combatants.get(id);
  const rolled = await rollThroughDnd5e(combatant?.actor, kind, bonus);
  await recoverOnInitiative(combatant);
  return rolled;
}

/** Roll an actor's Initiative through dnd5e's own roll, as rollInitiative says; null where the rules core rolls */
async function rollThroughDnd5e(actor, kind, bonus) {
  if (typeof actor?.getInitiativeRoll !== "function" || readPath(actor, INITIATIVE_BONUS) !== bonus) return null;
  const roll = actor.getInitiativeRoll(kind === "disadvantage" ? { disadvantage: true } : {});
  const d20 = roll?.dice?.[0];
  if (!d20 || d20.faces !== 20) return null;
  await roll.evaluate();
  return { roll, rolls: d20.results.map((result) => result.result), total: roll.total };
}

/**
 * Give a combatant back what he regains when he rolls Initiative, as dnd5e does after every Initiative its combat rolls,
 * whoever rolls the die (Combat5e#rollInitiative and #_recoverUses, documents/combat.mjs 63-67 and 165-171 at
 * release-5.3.3: a defeated combatant regains nothing): the uses of his items with the recovery period "initiative"
 * (config.mjs limitedUsePeriods), through Combatant5e#recoverCombatUses (documents/combatant.mjs 85-97), which says
 * so on a card of its own. Without it, a feature that comes back on Initiative would silently stay spent.
 */
async function recoverOnInitiative(combatant) {
  if (!combatant || combatant.isDefeated || typeof combatant.recoverCombatUses !== "function") return;
  await combatant.recoverCombatUses(["initiative"]);
}

/** dnd5e keeps core's initiative: rolled when asked, never re-rolled as a round changes */
export const rerollsAsRoundChanges = () => false;

/**
 * Set the world up for the campaign's rules, at setup, after dnd5e's init: with the 2014 rules a surprised creature
 * rolls initiative as anyone does, so Surprised leaves dnd5e's set of conditions that give Disadvantage on it, as dnd5e
 * itself takes it out under its legacy rules (settings.mjs applyLegacyRules 709-713 at release-5.3.3). Under the 2024
 * rules it stays: an initiative rolled through dnd5e for a creature the module marked Surprised has Disadvantage.
 */
export function prepareWorld() {
  if (DEFAULT_OPTIONS.rules !== "2014") return;
  CONFIG.DND5E?.conditionEffects?.initiativeDisadvantage?.delete("surprised");
}
