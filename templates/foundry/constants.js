// The names derived from the module's id (docs/dev/foundry.md §2): its flag and its log prefix.
import { MODULE_ID } from "../common/config.js";

/** The flag, under the module's scope, that keeps a combat's surprise */
export const FLAG = "state";

/** What the module's console lines start with */
export const LOG_PREFIX = `${MODULE_ID} | `;
