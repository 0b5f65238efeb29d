// The Roll20 host of the table session (common/session.js): statuses are token markers with a count badge, cards are
// chat messages with the dice written out, the turn order is the Campaign's, and the surprise lives in the script's
// state. The script counts its own rounds with a row of its own in the turn order, and since its changes to the order
// fire no events (docs/dev/roll20.md §4), it plays on as long as it moves the order itself.
import { SCRIPT_NAME } from "../common/config.js";
import { queued, tableSession } from "../common/session.js";
import { setMarker } from "./markers.js";
import { store } from "./state.js";
import { card, HE, notice, t, toAll, toGM } from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Dialog.Title", "Roll20.Dice", "Roll20.Error", "Roll20.NobodyCanAct"];
import {
  arrangeTurnorder, dropRoundRow, isAdvance, isRoundRow, parseTurnorder, readTurnorder, roundRow, writeTurnorder,
} from "./turnorder.js";

/** Write the dice of a message as text: 3d6 (4, 2, 6) */
const diceText = (rolls) => rolls.map((roll) => `${roll.count}d${roll.sides} (${roll.faces.join(", ")})`).join("; ");

/**
 * Return the host of the game's table.
 * @returns {import("../common/session.js").Host}
 */
function roll20Host() {
  const rolls = [];
  return {
    t,
    async roll(count, sides) {
      const faces = Array.from({ length: count }, () => randomInteger(sides));
      rolls.push({ count, sides, faces });
      return faces;
    },
    mark: async (id, status, on, lasts) => setMarker(id, status, on, lasts ? lasts.left : null),
    async arrange(order) {
      arrangeTurnorder(order);
      return false; // the script plays the new top itself
    },
    async send({ title, lines, gm, dice, record }, surprise) {
      if (record) surprise.log.push(record);
      const rolled = dice ? rolls.splice(0) : [];
      const html = card(title, [...lines.map(HE), ...(rolled.length ? [HE(`${t("Roll20.Dice")}: ${diceText(rolled)}`)] : [])]);
      if (gm) toGM(html);
      else toAll(html);
    },
    load: () => store().surprise,
    async save(surprise) {
      store().surprise = surprise;
      // Once the surprise is over, the script's round row leaves the turn order.
      if (!surprise || surprise.done) dropRoundRow();
      return true;
    },
    // The script counts its own rounds: a surprise begins in its round 1.
    turnOrder: () => ({ started: false, round: 0 }),
    settings: () => ({ automation: store().config.automation, skip: store().config.skip, cards: store().config.cards }),
  };
}

/** Return the session of the game's table */
export const gameSession = () => tableSession(roll20Host());

/** Tell whether a token is a member of the surprise being played */
const isMember = (surprise, id) => Object.prototype.hasOwnProperty.call(surprise?.labels ?? {}, id);

/** Put the script's round row at the end of the turn order, named for the round the surprise is in */
function placeRoundRow(session) {
  const surprise = session.current();
  writeTurnorder([...readTurnorder().filter((row) => !isRoundRow(row)), roundRow(session.roundName(), surprise.round)]);
}

/**
 * Play the turn order's top row, and go on as long as the script itself moves on (its changes fire no events): past
 * its round row, which starts the next round, and past every combatant the rules do not let act. It stops at the
 * first turn someone plays, or when the same rows come round again with nothing changed, in the rules or on the
 * table: then nobody left in the turn order can ever act, and the GM is told.
 */
async function playTop(session) {
  const seen = new Set();
  for (;;) {
    const row = readTurnorder()[0];
    if (!session.isFollowing() || !row) return;
    const surprise = session.current();
    if (isRoundRow(row)) {
      surprise.round += 1;
      await session.follow({ roundBegan: true });
      // The row goes to the end, named once the rules know which round this is (they may have arranged the order).
      if (!surprise.done) placeRoundRow(session);
      continue;
    }
    if (!getObj("graphic", row.id) || !isMember(surprise, row.id)) return;
    const { skip } = await session.follow({ started: row.id });
    if (!skip) return;
    const now = readTurnorder();
    if (now[0]?.id !== row.id) return;
    // What the rules keep and what the GM sees (the status lines), apart from the round count and the log.
    const kept = { ...session.current(), round: undefined, log: undefined };
    const signature = JSON.stringify([now.map((r) => r.id), kept, session.statusLines()]);
    if (seen.has(signature)) {
      notice(t("Roll20.NobodyCanAct"));
      return;
    }
    seen.add(signature);
    writeTurnorder([...now.slice(1), now[0]]);
    await session.follow({ ended: row.id });
  }
}

/** Whisper an unexpected error to the GM instead of crashing the sandbox */
function reportError(error) {
  log(`${SCRIPT_NAME}: ${error?.stack ?? error}`);
  toGM(card(t("Dialog.Title"), [HE(t("Roll20.Error", { message: String(error?.message ?? error) }))]));
}

/** Run the script's work one task after another: a Next may arrive while a command is still rolling */
export const serialized = (task) => queued(task, reportError);

/** Resolve the draft: roll, post the card, set markers, start following the turn order. Returns {surprise} or {problem} */
export async function resolveDraft(draft) {
  const session = gameSession();
  const resolved = await session.resolve(draft, () => ({ round: 1, log: [] }));
  if (resolved.problem) return resolved;
  store().draft = null;
  if (!resolved.surprise.done) {
    await session.roundStarted(); // the script's round 1 begins with the top of the order
    placeRoundRow(session);
    await playTop(session);
  }
  return resolved;
}

/** Turn order changes made by people: a Next is the end of one turn and the start of the next */
export function onTurnorderChange(campaign, prev) {
  const previous = parseTurnorder(prev?.turnorder);
  if (!isAdvance(readTurnorder(), previous)) return;
  serialized(async () => {
    const session = gameSession();
    const row = previous[0];
    if (row && !isRoundRow(row) && isMember(session.current(), row.id)) await session.follow({ ended: row.id });
    await playTop(session);
  });
}

/** Tokens removed mid-fight leave the surprise: their markers go with them, and the rules stop waiting for them */
export function onTokenDestroyed(token) {
  serialized(() => gameSession().left(token.id));
}
