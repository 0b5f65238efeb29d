// The turn order: read and written as the Campaign's JSON (docs/dev/roll20.md §4), with the script's own round row.
import { SCRIPT_NAME } from "../common/config.js";
import { isRoundMarker, masterOf } from "./neighbours.js";
import { isRecord } from "./state.js";
import { t } from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Roll20.RoundRow"];

/**
 * Parse a turn order; "" and damaged JSON count as empty (docs/dev/roll20.md §4). Rows without an id are kept, so that
 * a Next over them still reads as one and writing the order back keeps them; they play no turn.
 */
function parseTurnorder(raw) {
  if (!raw) return [];
  try {
    const order = JSON.parse(raw);
    return Array.isArray(order) ? order.filter(isRecord) : [];
  } catch (error) {
    return [];
  }
}

/** Read the turn order */
export const readTurnorder = () => parseTurnorder(Campaign().get("turnorder"));

/** Write the turn order (scripts' changes fire no events, so callers run their own handlers) */
export const writeTurnorder = (order) => Campaign().set("turnorder", JSON.stringify(order));

/** Tell whether a row is the script's own round row */
export const isRoundRow = (row) => row?.id === "-1" && row[SCRIPT_NAME] === true;

/** A fresh round row naming the round being played: the rules' name for it (an AD&D segment), or its number */
export const roundRow = (name, round) => ({
  id: "-1", pr: "", formula: "", [SCRIPT_NAME]: true, custom: name ?? t("Roll20.RoundRow", { round }),
});

/** Take the script's round row out of the turn order, if it is there */
export function dropRoundRow() {
  if (readTurnorder().some(isRoundRow)) writeTurnorder(readTurnorder().filter((row) => !isRoundRow(row)));
}

/**
 * The tokens of the turn order's token rows that still exist, other scripts' round markers left out, and the copies
 * Gaslight keeps of a token on the players' pages (the token itself stands for them)
 */
export const turnorderTokens = (order) => order.filter((row) => row.id !== "-1").map((row) => getObj("graphic", row.id))
  .filter((token) => token && !isRoundMarker(token) && !masterOf(token.id));

/**
 * Sort the turn order's rows into the given order, each token row's pr showing its Sequence; rows of tokens not
 * in the order come after them, the script's round row last.
 */
export function arrangeTurnorder(order) {
  const rank = new Map(order.map((entry, index) => [entry.id, index]));
  const sequence = new Map(order.map((entry) => [entry.id, entry.sequence]));
  const place = (row) => (isRoundRow(row) ? order.length + 1 : rank.has(row.id) ? rank.get(row.id) : order.length);
  const rows = readTurnorder().map((row) => (sequence.has(row.id) ? { ...row, pr: String(sequence.get(row.id)) } : row));
  writeTurnorder(rows.sort((x, y) => place(x) - place(y)));
}
