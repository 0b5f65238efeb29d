// The Roll20 host of the table session (common/session.js): statuses are token markers with a count badge, cards are
// chat messages with the dice written out, the turn order is the Campaign's, and the surprise lives in the script's
// state. A Roll20 turn order counts no rounds and turns round; other scripts move it without telling anyone, and the
// script's own changes fire no events either (docs/dev/roll20.md §4): so the script looks at the order as it is after
// every change and lets the session reconcile (common/follow.js), and plays on as long as it moves the order itself.
import { COMMAND, SCRIPT_NAME } from "../common/config.js";
import { queued, tableSession } from "../common/session.js";
import { setMarker } from "./markers.js";
import { store } from "./state.js";
import { card, language, notice, number, t, textLines, toAll, toGM } from "./text.js";
import { arrangeTurnorder, dropRoundRow, isRoundRow, readTurnorder, roundRow, writeTurnorder } from "./turnorder.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Roll20.Dice", "Roll20.DiceRoll", "Roll20.Error", "Roll20.NobodyCanAct"];

/** Write the dice of a message as text: 3d6 (4, 2, 6), or 3W6 (4, 2, 6) in German */
const diceText = (rolls) => rolls.map((roll) => t("Roll20.DiceRoll", { count: roll.count, sides: roll.sides,
  faces: roll.faces.map(number).join(", ") })).join("; ");

/** The dice rolled since the last card that carries dice: a card may sum up several events' turns */
const rolls = [];

/**
 * Return the host of the game's table.
 * @returns {import("../common/session.js").Host}
 */
function roll20Host() {
  return {
    t,
    language,
    async roll(count, sides) {
      const faces = Array.from({ length: count }, () => randomInteger(sides));
      rolls.push({ count, sides, faces });
      return faces;
    },
    // Only what ambush set: a marker the token already showed stays the GM's (docs/dev/roll20.md §5).
    mark: async (id, status, on, lasts, surprise) =>
      setMarker(id, status, on, lasts ? lasts.left : null, (surprise.applied[id] ?? []).includes(status)),
    async arrange(order) {
      arrangeTurnorder(order);
      return false; // the script looks at the order again itself
    },
    async send({ title, lines, gm, dice, records }, surprise) {
      surprise.log.push(...records);
      const rolled = dice ? rolls.splice(0) : [];
      const messages = card(title, textLines([...lines, ...(rolled.length ? [`${t("Roll20.Dice")}: ${diceText(rolled)}`] : [])]));
      if (gm) toGM(messages);
      else toAll(messages);
    },
    load: () => store().surprise,
    async save(surprise) {
      store().surprise = surprise;
      // Once the surprise is over, the script's round row leaves the turn order.
      if (!surprise || surprise.done) dropRoundRow();
      return true;
    },
    // A Roll20 turn order counts no rounds (docs/dev/roll20.md §4): the session counts them as the order comes round.
    turnOrder: () => ({ round: null }),
    settings: () => ({ automation: store().config.automation, skip: store().config.skip, cards: store().config.cards }),
  };
}

/** Return the session of the game's table */
export const gameSession = () => tableSession(roll20Host());

/** Look at the turn order as the session reads it: the rows' ids, the top one's turn, no round counter */
function lookAt() {
  const order = readTurnorder();
  return { order: order.map((row) => String(row.id)), current: order.length ? 0 : -1, round: null, forward: null, rotating: true };
}

/** Put the script's round row at the end of the turn order, named for the round being played */
function placeRoundRow(session) {
  const surprise = session.current();
  if (!surprise || surprise.done) return;
  writeTurnorder([...readTurnorder().filter((row) => !isRoundRow(row)), roundRow(session.roundName(), surprise.follow.round)]);
}

/** Move the top row to the end, as the tracker's Next does (a script's change: nobody else hears it) */
const rotate = () => {
  const order = readTurnorder();
  writeTurnorder([...order.slice(1), order[0]]);
};

/** What the rules keep and what the GM sees, with the order: when it comes round unchanged, nothing moves on */
function progress(session) {
  const kept = { ...session.current(), follow: undefined, log: undefined, held: undefined };
  return JSON.stringify([readTurnorder().map((row) => row.id), kept, session.statusLines()]);
}

/**
 * Let the session follow the turn order as it is, and go on as long as the script itself moves it (its changes fire
 * no events): past its own round row, which takes no turn, and past every member the rules do not let act. When the
 * order comes round to the same top row with nothing changed in the rules, nobody left in it can ever act: the GM is
 * told, and the script stops.
 */
async function play(session) {
  const seen = new Set();
  for (;;) {
    if (isRoundRow(readTurnorder()[0]) && readTurnorder().length > 1) {
      rotate();
      continue;
    }
    const before = session.current()?.follow.round;
    const { skip, restart } = await session.observe(lookAt());
    if (session.current()?.follow.round !== before) placeRoundRow(session);
    if (restart) continue;
    if (!skip) return;
    const now = progress(session);
    if (seen.has(now)) {
      await session.flush();
      notice(t("Roll20.NobodyCanAct", { command: COMMAND }));
      return;
    }
    seen.add(now);
    rotate();
  }
}

/** Whisper an unexpected error to the GM instead of crashing the sandbox */
function reportError(error) {
  log(`${SCRIPT_NAME}: ${error?.stack ?? error}`);
  notice(t("Roll20.Error", { message: String(error?.message ?? error) }));
}

/** Run the script's work one task after another: a Next may arrive while a command is still rolling */
export const serialized = (task) => queued(task, reportError);

/**
 * Look at the turn order once every handler of the event that changed it has run: other scripts move the order in
 * their handlers, through the API, and nobody hears those changes (docs/dev/roll20.md §4).
 */
export function followSoon() {
  setTimeout(() => serialized(() => play(gameSession())), 0);
}

/** Resolve the draft: roll, post the card, set markers, start following the turn order. Returns {surprise} or {problem} */
export async function resolveDraft(draft) {
  const session = gameSession();
  const resolved = await session.resolve(draft, () => ({ log: [] }));
  if (resolved.problem) return resolved;
  store().draft = null;
  await play(session);
  return resolved;
}

/** The turn order changed: by a person's click, or by another script that tells its observers */
export const onTurnorderChange = () => followSoon();

/** Tokens removed mid-fight leave the surprise: their markers go with them, and the rules stop waiting for them */
export function onTokenDestroyed(token) {
  serialized(() => gameSession().left(token.id));
}
