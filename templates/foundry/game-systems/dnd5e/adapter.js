// dnd5e (game system id "dnd5e", foundryvtt/dnd5e): the Stealth, passive Perception and Initiative totals it prepares,
// read as they stand; its own Surprised, reused (exporter/game_systems/dnd5e.py); and one quirk of its modern rules:
// from 5.1 its Surprised gives Disadvantage on every initiative rolled through it (conditionEffects.initiativeDisadvantage,
// config.mjs 3795-3796 at release-5.3.3), which the 2014 rules do not have.
import { DEFAULT_OPTIONS } from "../../../common/config.js";

/** dnd5e's package id (its system.json) */
export const GAME_SYSTEM_ID = "dnd5e";

/** Read an actor's data path as it stands: dnd5e prepares the totals as the actor loads (creature.mjs, attributes.mjs) */
export const readPath = (actor, path) => foundry.utils.getProperty(actor, path);

/** dnd5e keeps no traits by name that the rules read: asked */
export const hasTrait = () => null;

/** dnd5e keeps no skills by name that the rules read (its skills are data paths): asked */
export const skillLevel = () => null;

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
