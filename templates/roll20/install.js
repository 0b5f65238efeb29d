// The script's start in a game: its banner, its state created or migrated from an older schema, the GM's macros.
import { COMMAND, LAST_UPDATE, MACRO_NAME, PROCEDURES, SCRIPT_NAME, VERSION } from "../common/config.js";
import { newRecord } from "../common/follow.js";
import { warnSharedMarker, warnUnknownMarkers } from "./markers.js";
import { knownScripts, passingWay } from "./neighbours.js";
import { CARDS, defaultConfig, isRecord, isWholeDraft, isWholeSurprise, SCHEMA_VERSION } from "./state.js";
import { DEFAULT_LANGUAGE, LANGUAGES, notice, promptText, t } from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Dialog.ChooseProcedure", "Procedure.{procedure}", "Roll20.SameCommand", "Roll20.StateReset"];

/** Create the GM macros for the commands, unless they exist (docs/dev/roll20.md §6) */
function createMacros() {
  const gm = findObjs({ _type: "player" }).find((player) => playerIsGM(player.id));
  if (!gm) return;
  const choices = PROCEDURES.map((p) => `${promptText(t(`Procedure.${p.id}`))},${p.id}`).join("|");
  const macros = [
    [MACRO_NAME, `${COMMAND} resolve --procedure ${PROCEDURES.length > 1 ? `?{${promptText(t("Dialog.ChooseProcedure"))}|${choices}}` : PROCEDURES[0].id}`],
    [`${MACRO_NAME}-Roll`, `${COMMAND} roll`],
    [`${MACRO_NAME}-Status`, `${COMMAND} status`],
    [`${MACRO_NAME}-Clear`, `${COMMAND} clear`],
    [`${MACRO_NAME}-Help`, `${COMMAND} help`],
  ];
  for (const [name, action] of macros) {
    if (findObjs({ _type: "macro", name }).length) continue;
    createObj("macro", { _playerid: gm.id, playerid: gm.id, name, action, visibleto: "", istokenaction: false });
  }
}

/**
 * Create or migrate the script's state (schema 1 kept the marker as a top-level key; schema 2 kept drafts in another
 * shape, and surprises without their first round; schema 3 counted a surprise's rounds itself). Damaged parts are replaced and the GM is told: the markers of a
 * surprise that was lost can only be removed by hand.
 */
export function checkInstall() {
  const built = LAST_UPDATE === null ? "" : `  [built ${new Date(LAST_UPDATE * 1000).toISOString().slice(0, 10)}]`;
  log(`-=> ${SCRIPT_NAME} v${VERSION} <=-${built}`);
  const stored = state[SCRIPT_NAME];
  let damaged = false;
  switch (isRecord(stored) ? stored.version : undefined) {
    case 1:
      stored.config = { ...defaultConfig(), marker: typeof stored.marker === "string" ? stored.marker : defaultConfig().marker };
      delete stored.marker;
      stored.surprise = null;
      stored.draft = null;
      stored.version = 2;
      // falls through
    case 2:
      // Schema 3: a draft has the shape of a scenario file, and a surprise knows the round it began in (round 1);
      // cards went all public or all to the GM, now by default the outcome to all and the rolls to the GM.
      if (isRecord(stored.surprise) && !Number.isInteger(stored.surprise.firstRound)) stored.surprise.firstRound = 1;
      if (isRecord(stored.config) && "public" in stored.config) {
        if (stored.config.public === false) stored.config.cards = "gm";
        delete stored.config.public;
      }
      stored.draft = null;
      stored.version = 3;
      // falls through
    case 3:
      // Schema 4: the session follows the turn order by its record of the turns played (common/follow.js), not by the
      // round a surprise kept; a surprise being played goes on from the start of its round.
      if (isRecord(stored.surprise) && Number.isInteger(stored.surprise.round)) {
        stored.surprise.follow = { ...newRecord(null), round: stored.surprise.round };
        delete stored.surprise.round;
      }
      stored.version = 4;
      // falls through
    case 4: {
      const given = isRecord(stored.config) ? stored.config : {};
      const defaults = defaultConfig();
      const fits = (key) => typeof given[key] === typeof defaults[key];
      damaged = !isRecord(stored.config) || Object.keys(defaults).some((key) => key in given && !fits(key))
        || (stored.surprise != null && !isWholeSurprise(stored.surprise));
      stored.config = Object.fromEntries(Object.keys(defaults).map((key) => [key, fits(key) ? given[key] : defaults[key]]));
      if (!CARDS.includes(stored.config.cards)) stored.config.cards = defaults.cards;
      if (!LANGUAGES.includes(stored.config.language)) stored.config.language = DEFAULT_LANGUAGE;
      if (!isWholeSurprise(stored.surprise)) stored.surprise = null;
      if (!isWholeDraft(stored.draft)) stored.draft = null;
      stored.version = SCHEMA_VERSION;
      break;
    }
    default:
      damaged = stored !== undefined;
      state[SCRIPT_NAME] = { version: SCHEMA_VERSION, config: defaultConfig(), surprise: null, draft: null };
  }
  if (damaged) {
    log(`${SCRIPT_NAME}: unknown or damaged state was replaced`);
    notice(t("Roll20.StateReset"));
  }
  createMacros();
  warnUnknownMarkers();
  // Once every script's ready handler has run: some make on ready the state they are known by
  setTimeout(() => {
    const way = passingWay();
    log(`${SCRIPT_NAME}: beside ${knownScripts().join(", ") || "no script it knows"}; passing turns: ${way.by}`);
    warnSharedMarker();
  }, 0);
}

/**
 * Tell whether this script answers its command: the first script of the game that says it does (API_Meta, in load
 * order). A second one tells the GM and answers nothing, so that one command never gets two answers.
 */
export function firstToAnswer() {
  const first = Object.entries(API_Meta).find(([, meta]) => meta?.command === COMMAND)?.[0];
  if (first === SCRIPT_NAME) return true;
  log(`${SCRIPT_NAME}: ${first} already answers ${COMMAND}; this script answers nothing`);
  notice(t("Roll20.SameCommand", { command: COMMAND, other: first }));
  return false;
}
