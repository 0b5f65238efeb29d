// GURPS 4e at the table: the entry module of the system, which hands its rules core, exact odds and table runtime to
// the session (system.js).
import * as Odds from "../odds/gurps4e.js";
import * as Rules from "../rules/gurps4e.js";
import * as Runtime from "../runtime/gurps4e.js";
import { provideSystem } from "../system.js";

provideSystem("gurps4e", { Odds, Rules, Runtime });
