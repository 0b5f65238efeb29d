// AD&D 1e at the table: the entry module of the system, which hands its rules core, exact odds and table runtime to
// the session (system.js).
import * as Odds from "../odds/adnd1e.js";
import * as Rules from "../rules/adnd1e.js";
import * as Runtime from "../runtime/adnd1e.js";
import { provideSystem } from "../system.js";

provideSystem("adnd1e", { Odds, Rules, Runtime });
