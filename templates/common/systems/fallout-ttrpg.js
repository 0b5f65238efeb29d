// The Fallout TTRPG homebrew at the table: the entry module of the system, which hands its rules core, exact odds and table runtime to
// the session (system.js).
import * as Odds from "../odds/fallout-ttrpg.js";
import * as Rules from "../rules/fallout-ttrpg.js";
import * as Runtime from "../runtime/fallout-ttrpg.js";
import { provideSystem } from "../system.js";

provideSystem("fallout-ttrpg", { Odds, Rules, Runtime });
