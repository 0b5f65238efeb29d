// The Roll20 host of the table session (common/session.js): statuses are token markers with a count badge, cards are
// chat messages with the dice written out, the turn order is the Campaign's, and the surprise lives in the script's
// state. A Roll20 turn order counts no rounds and turns round; other scripts move it without telling anyone, and the
// script's own changes fire no events either (docs/dev/roll20.md §4): so the script looks at the order as it is after
// every change and lets the session reconcile (common/follow.js), and passes on the turns of those who may not act in
// the way the other scripts that follow the order hear (neighbours.js).
import { COMMAND, SCRIPT_NAME } from "../common/config.js";
import { label, list, sequence } from "../common/format.js";
import { queued, tableSession } from "../common/session.js";
import { setMarker } from "./markers.js";
import { passingWay, shownRound } from "./neighbours.js";
import { rowKey, rowsOf } from "./rows.js";
import { isRecord, store } from "./state.js";
import { card, language, notice, number, t, textLines, toAll, toGM } from "./text.js";
import { arrangeTurnorder, dropRoundRow, isRoundRow, readTurnorder, roundRow, writeTurnorder } from "./turnorder.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = [
  "Roll20.Dice", "Roll20.DiceRoll", "Roll20.Error", "Roll20.NobodyCanAct", "Roll20.NoOwnRow", "Roll20.NoRow",
  "Roll20.PassByClick",
];

/** Write the dice of a message as text: 3d6 (4, 2, 6); 3W6 (4, 2 und 6) in German, 3d6（4、2、6）in Chinese */
const diceText = (rolls) => sequence(t, rolls.map((roll) => t("Roll20.DiceRoll", { count: roll.count, sides: roll.sides,
  faces: list(roll.faces.map(number), language(), { style: "narrow" }) })));

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
    // Only what the script set, by marker: one the token showed before, or another script set or changed, is not its
    // own (docs/dev/roll20.md §5). A surprise kept by an older version has no record of what it wrote yet.
    async mark(id, status, on, lasts, surprise) {
      if (!isRecord(surprise.marks)) surprise.marks = {};
      return setMarker(id, status, on, lasts ? lasts.left : null, surprise.marks, (surprise.applied[id] ?? []).includes(status));
    },
    async arrange(order) {
      arrangeTurnorder(order);
      return false; // the script looks at the order again itself
    },
    async send({ title, lines, gm, dice, records }, surprise) {
      surprise.log.push(...records);
      const rolled = dice ? rolls.splice(0) : [];
      const messages = card(title, textLines([...lines, ...(rolled.length ? [label(t, t("Roll20.Dice"), diceText(rolled))] : [])]));
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
    // A Roll20 turn order counts no rounds (docs/dev/roll20.md §4): the session counts them as the order comes round;
    // beside RoundMaster, whose count it cannot change, it numbers the rounds as RoundMaster shows them.
    turnOrder: () => ({ round: null, shown: shownRound() }),
    settings: () => ({ automation: store().config.automation, skip: store().config.skip, cards: store().config.cards }),
  };
}

/** Return the session of the game's table */
export const gameSession = () => tableSession(roll20Host());

/**
 * Look at a turn order as the session reads it: the rows' keys (a custom row's label with its "-1"), the top one's turn,
 * no round counter, and what the rows stand for (rows.js)
 */
function lookAt(order, surprise) {
  const { stands } = rowsOf(order, new Set(Object.keys(surprise?.labels ?? {})));
  return { order: order.map(rowKey), current: order.length ? 0 : -1, round: null, forward: null, rotating: true, stands };
}

/** Put the script's round row at the end of the turn order, named for the round being played */
function placeRoundRow(session) {
  const surprise = session.current();
  if (!surprise || surprise.done) return;
  writeTurnorder([...readTurnorder().filter((row) => !isRoundRow(row)), roundRow(session.roundName(), surprise.follow.round)]);
}

/** The order after the tracker's Next: the top row to the end */
const rotated = (order) => [...order.slice(1), order[0]];

/** The order after the tracker's Next, then past the script's own round row, as play goes on */
function passed(order) {
  let next = rotated(order);
  for (let turns = 0; isRoundRow(next[0]) && next.length > 1 && turns < next.length; turns += 1) next = rotated(next);
  return next;
}

/** The members whose turn started since the GM's last change: one action plays each turn at most once */
let played = new Set();

/** The labels of the members the top row of an order stands for */
function topMembers(look, surprise) {
  const top = look.order[0];
  const ids = Object.prototype.hasOwnProperty.call(look.stands, top) ? look.stands[top] : [top];
  return ids.filter((id) => Object.prototype.hasOwnProperty.call(surprise.labels, id)).map((id) => surprise.labels[id]);
}

/**
 * Tell the GM, once each, of a member the rules mark who has no row of his own in the turn order: which row plays his
 * turn, or that none does (rows.js)
 */
function tellRowless(surprise, order) {
  if (!surprise || surprise.done) return;
  const { rowless, via } = rowsOf(order, new Set(Object.keys(surprise.labels)));
  const told = new Set(Array.isArray(surprise.rowless) ? surprise.rowless : []);
  const fresh = rowless.filter((id) => !told.has(id) && (surprise.applied[id] ?? []).length);
  if (!fresh.length) return;
  surprise.rowless = [...told, ...fresh];
  const rows = new Map();
  for (const id of fresh) rows.set(via.get(id) ?? null, [...(rows.get(via.get(id) ?? null) ?? []), surprise.labels[id]]);
  for (const [row, names] of rows) {
    const data = { names: list(names, language()), count: names.length, row: row ?? "", command: COMMAND };
    notice(t(row === null ? "Roll20.NoRow" : "Roll20.NoOwnRow", data));
  }
}

/**
 * Let the session follow the turn order as it is, and pass on the turns of those the rules do not let act as the
 * scripts that follow the order can hear it (neighbours.js, passingWay): with none of them, the script moves the order
 * itself and goes on; with an observer, it moves the order one row, tells them, and goes on once they have acted; with
 * one that hears only clicks, it moves nothing and tells the GM whose turn to pass. Its own round row it passes when no
 * script is left out. One action plays each turn at most once: when passing the turn would start again a turn it
 * started (a pass through the order found nobody who may act), it stops and says so. `fresh`: a person's change, not
 * the script's own going on.
 */
async function play(session, fresh = true) {
  if (fresh) played = new Set();
  const way = passingWay();
  if (way.by === "clicks") dropRoundRow();
  for (let moves = 0; ; moves += 1) {
    const order = readTurnorder();
    if (way.by !== "clicks" && isRoundRow(order[0]) && order.length > 1) {
      writeTurnorder(rotated(order));
      if (way.by === "observer") return tellAndGoOn(way);
      continue;
    }
    const before = session.current()?.follow.round;
    const look = lookAt(order, session.current());
    const { skip, restart, started } = await session.observe(look);
    started.forEach((id) => played.add(id));
    const surprise = session.current();
    if (surprise?.follow.round !== before && way.by !== "clicks") placeRoundRow(session);
    tellRowless(surprise, readTurnorder());
    if (restart) continue;
    if (!skip) return;
    if (way.by === "clicks") {
      await session.flush();
      const names = topMembers(look, surprise);
      notice(t("Roll20.PassByClick", { names: list(names, language()), count: names.length }));
      return;
    }
    const next = passed(readTurnorder());
    if (moves > 4 * next.length || session.wouldStart(lookAt(next, surprise)).some((id) => played.has(id))) {
      await session.flush();
      notice(t("Roll20.NobodyCanAct"));
      return;
    }
    // One row at a time, as a click moves it: the script's own round row is passed at the top of the loop
    writeTurnorder(rotated(readTurnorder()));
    if (way.by === "observer") return tellAndGoOn(way);
  }
}

/** Tell the observers of the turn order of the script's move, and go on once they have acted on it (in their timers) */
function tellAndGoOn(way) {
  way.tell();
  setTimeout(() => serialized(() => play(gameSession(), false)), 0);
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
  const resolved = await session.resolve(draft, () => ({ log: [], marks: {} }));
  if (resolved.problem) return resolved;
  store().draft = null;
  await play(session);
  return resolved;
}

/** The turn order changed: by a person's click, or by another script that tells its observers */
export const onTurnorderChange = () => followSoon();

/**
 * The commands with which other scripts pass a turn through the API, which fires no event (docs/dev/roll20.md §4):
 * TurnMarker1's and RoundMaster's `!eot` and `!pot`, CombatMaster's `!cmaster --turn,...`
 */
const TURN_COMMAND = /^!(eot|pot)\b|^!cmaster\b.*--turn\b/;

/** How long another script's command may take to move the order: RoundMaster 5.067 runs each part 1 ms after the last */
const COMMAND_SETTLES_MS = 50;

/** Another script's command that passes a turn: look at the order once it has run */
export function onTurnCommand(msg) {
  if (msg.type !== "api" || !TURN_COMMAND.test(String(msg.content))) return;
  setTimeout(() => serialized(() => play(gameSession())), COMMAND_SETTLES_MS);
}

/** Tokens removed mid-fight leave the surprise: their markers go with them, and the rules stop waiting for them */
export function onTokenDestroyed(token) {
  serialized(() => gameSession().left(token.id));
}
