// The rules system this build plays: its rules core (with the exact odds) and its table runtime. The system's entry module
// (systems/<id>.js, the one config.js names) provides them as it loads; the session and the hosts ask for them when
// they act, by which time every module of the build has loaded (a Foundry module lists the entry in its esmodules,
// the Roll20 bundle runs it before the host).
import { SYSTEM } from "./config.js";

/**
 * The parts of a rules system.
 * @typedef {object} RulesSystem
 * @property {object} Rules  the rules core (rules/<id>.js): resolve(scenario, roller), the exact odds, odds(scenario),
 *   and where the rules refuse what a draft cannot tell, scenarioProblem(scenario): {key, data} or null
 * @property {object} Runtime  its table runtime (runtime/<id>.js): resolve, turnStarted, turnEnded, roundStarted,
 *   left, statusLines and MEMBER_PARTS (the parts it keeps by member id); where its rules need them, also
 *   nextRoundNumber (the VTT's own number otherwise), roundSeconds (none: the VTT's own time), roundName (none) and
 *   upgraded (a surprise an earlier version stored, in today's form; none: the form never changed)
 */

let provided = null;

/** Provide the parts of the system this build plays; a second system is refused */
function provideSystem(id, parts) {
  if (id !== SYSTEM) throw new Error(`ambush: this build plays ${SYSTEM}, not ${id}`);
  provided = parts;
}

/** Return the parts of the rules system being played */
function rulesSystem() {
  if (!provided) throw new Error(`ambush: the ${SYSTEM} rules were not loaded (systems/${SYSTEM}.js)`);
  return provided;
}

export { provideSystem, rulesSystem };
