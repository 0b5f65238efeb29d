// GURPS Game Aid (game system id "gurps", crnormand/gurps): its traits and skills read by name (gga.js), its data paths
// as they stand; its tracker is core's, no re-roll of its own. Its mental stun, reused for the surprised status, and
// the versions checked come through the build (exporter/game_systems/gurps.py).
import { hasTrait, skillLevel } from "./gga.js";

/** GURPS Game Aid's package id (its system.json) */
export const GAME_SYSTEM_ID = "gurps";

/** Read an actor's data path as it stands: GGA prepares attributes where its template keeps them */
export const readPath = (actor, path) => foundry.utils.getProperty(actor, path);

export { hasTrait, skillLevel };

/** GGA keeps core's initiative: rolled when asked, never re-rolled as a round changes */
export const rerollsAsRoundChanges = () => false;
