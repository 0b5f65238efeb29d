// A world whose game system ambush has no adapter for: data paths are read as they stand, and what only a known game
// system's sheets hold (a trait or a skill by name) is asked for in the dialog.

/** No game system: this adapter serves every world the others do not */
export const GAME_SYSTEM_ID = null;

/** Read an actor's data path as it stands */
export const readPath = (actor, path) => foundry.utils.getProperty(actor, path);

/** A trait by name cannot be told without knowing the game system's sheets: asked */
export const hasTrait = () => null;

/** A skill's level by name cannot be told without knowing the game system's sheets: asked */
export const skillLevel = () => null;

/** A game system not known to re-roll initiative is not waited for */
export const rerollsAsRoundChanges = () => false;
