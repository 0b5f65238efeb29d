// GURPS 4e surprise at the table (docs/rules/gurps4e.md): who is surprised, then the mental stun turn by turn (docs/rules/gurps4e.md#turn-by-turn).
// Every turn counts on its own: rounds mean nothing extra to the stun.
import { SIDE_KEYS } from "../config.js";
import { list, named, signed } from "../format.js";
import * as Rules from "../rules/gurps4e.js";
import { memberNamed, membersOf, scenarioOptions } from "../scenario.js";
import { mark, unmarkAll } from "../surprise-record.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Chat.NobodySurprised", "Gurps.*", "Procedure.{procedure}", "Tracking.Never", "Tracking.Recovered",
  "Tracking.Stunned"
];

/** Return the rules member behind a combatant id */
const memberOf = (surprise, id) => memberNamed(surprise.scenario, id);

/** The parts of a surprise this runtime keeps by member id, changed a member at a time (common/surprise-record.js) */
const MEMBER_PARTS = ["tracks"];

/** Return the stun track of a combatant, if he is stunned: tracks are kept by member id */
const trackOf = (surprise, id) => (surprise.tracks && Object.hasOwn(surprise.tracks, id) ? surprise.tracks[id] : undefined);

/** Return the stun tracks in the scenario's order of the members (an object's own order puts ids like "12" first) */
const trackList = (surprise) => membersOf(surprise.scenario).map((member) => trackOf(surprise, member.name)).filter(Boolean);

/**
 * Return a surprise stored before tracks were kept by member id (a list, with the outcome filled turn by turn) in
 * today's form: a copy, the one given is left as it is; null when it is in today's form already
 */
function upgraded(surprise) {
  if (!Array.isArray(surprise.tracks)) return null;
  const { members, ...outcome } = surprise.outcome ?? {};
  const tracks = Object.fromEntries(surprise.tracks.map((track) => [track.name, track]));
  return { ...surprise, outcome, tracks };
}

/** Describe one side's initiative roll */
function initiativeLine(table, surprise, key, roll) {
  const modifiers = list(Object.entries(roll.modifiers)
    .map(([name, value]) => named(table.t, table.t(`Gurps.Modifier.${name}`), signed(value))),
  table.language(), { style: "narrow" }) || table.t("Gurps.NoModifiers");
  return table.t("Gurps.InitiativeLine", { side: surprise.scenario.sides[key].name, roll: roll.roll, modifiers, total: roll.total });
}

/** Describe one roll of the sneaking contest: the sneak's (no winner) or a watcher's against it */
function contestLine(table, surprise, attempt, winner) {
  const roll = attempt.roll === null ? table.t("Gurps.CannotRoll") : attempt.roll;
  const data = { name: surprise.labels[attempt.name] ?? "?", skill: attempt.skill, roll };
  return table.t(winner ? `Gurps.Contest.Watcher.${winner}` : "Gurps.Contest.Sneak", data);
}

/** The members whose stun is not settled, by tracks object: kept up to date turn by turn, counted once per copy */
const unsettledOf = new WeakMap();

/** Tell a track is settled: recovered, and nothing waits for the end of his turn */
const settled = (track) => track.lost !== null && !track.clearAtEnd;

/** Tell the surprise is over once the members changed (ids) are settled: everyone recovered or never can, and nothing waits */
function settle(surprise, ...ids) {
  const tracks = surprise.tracks ?? {};
  let unsettled = unsettledOf.get(tracks);
  if (!unsettled) {
    unsettled = new Set(Object.keys(tracks).filter((id) => !settled(tracks[id])));
    unsettledOf.set(tracks, unsettled);
  }
  for (const id of ids) {
    if (Object.hasOwn(tracks, id) && !settled(tracks[id])) unsettled.add(id);
    else unsettled.delete(id);
  }
  surprise.done = unsettled.size === 0 && !surprise.unaware;
}

/** Roll who is surprised, post the card, mark the stunned side; the stun itself follows turn by turn */
async function resolve(table, surprise) {
  const opened = await Rules.openSurprise(surprise.scenario, table.roll);
  const { tracks, loser, ...outcome } = opened;
  surprise.outcome = { ...outcome };
  surprise.tracks = Object.fromEntries(tracks.map((track) => [track.name, { ...track, clearAtEnd: false }]));
  surprise.kind = opened.surprise_kind;
  surprise.unaware = false;
  const lines = [];
  const details = [];
  if (opened.initiative) SIDE_KEYS.forEach((key) => details.push(initiativeLine(table, surprise, key, opened.initiative[key])));
  if (opened.contest) {
    details.push(contestLine(table, surprise, opened.contest.sneak));
    opened.contest.watchers.forEach((watcher) => details.push(contestLine(table, surprise, watcher, watcher.winner)));
  }
  if (surprise.scenario.procedure === "total") lines.push(table.t("Gurps.TotalByGM"));
  if (opened.surprise === "none") {
    lines.push(table.t("Chat.NobodySurprised"));
    surprise.done = true;
  } else {
    const sides = surprise.scenario.sides;
    lines.push(table.t(`Gurps.Stunned.${opened.surprise_kind}`, { winner: sides[opened.surprise].name, loser: sides[loser].name }));
    for (const [id, seconds] of Object.entries(opened.freeze)) {
      lines.push(table.t("Gurps.Freeze", { name: surprise.labels[id] ?? "?", seconds }));
    }
    // No duration in rounds: a stun lasts until the IQ roll succeeds; the badge counts the frozen seconds.
    for (const track of trackList(surprise)) {
      await mark(table, surprise, track.name, "surprised", true, track.freeze ? { left: track.freeze } : null);
    }
    if (opened.contest) {
      // A13: the undetected sneak's opening attack meets no defence.
      for (const track of trackList(surprise)) await mark(table, surprise, track.name, "unaware", true);
      surprise.unaware = true;
      lines.push(table.t("Gurps.Unaware"));
    }
  }
  await table.post({ title: table.t(`Procedure.${surprise.scenario.procedure}`), lines, details, record: { type: "resolve", outcome } });
}

/** Play a stunned combatant's own turn: the freeze countdown or the IQ roll (docs/rules/gurps4e.md#turn-by-turn); true = Do Nothing */
async function turnStarted(table, surprise, id) {
  const track = trackOf(surprise, id);
  if (!track || track.lost !== null) return false;
  if (track.never) return true;
  const turn = track.turns.length + 1;
  const record = await Rules.takeStunTurn(track, memberOf(surprise, id), surprise.kind, turn, table.roll, scenarioOptions(surprise.scenario));
  const name = surprise.labels[id] ?? "?";
  let line;
  let detail = null; // the roll and its target (the character's IQ) are the GM's business
  if (record.state === "frozen") {
    const left = track.freeze - turn;
    line = table.t("Gurps.FrozenTurn", { name, left });
    await mark(table, surprise, id, "surprised", true, left ? { left } : null);
  } else {
    line = table.t(record.success ? "Gurps.Public.Recovered" : "Gurps.Public.StillStunned", { name });
    if (record.roll === null) detail = table.t(track.never ? "Gurps.Never" : "Gurps.CannotRecover", { name, target: record.target });
    else detail = table.t(record.success ? "Gurps.Recovered" : "Gurps.StillStunned", { name, target: record.target, roll: record.roll });
  }
  if (record.state === "stunned" && !record.success) await mark(table, surprise, id, "surprised", true);
  if (record.success) {
    if (Rules.recoveryLiftsAtOnce(scenarioOptions(surprise.scenario))) await mark(table, surprise, id, "surprised", false);
    else track.clearAtEnd = true;
  }
  settle(surprise, id);
  await table.post({ title: table.t("Gurps.TurnTitle"), lines: [line], details: detail ? [detail] : [],
    record: { type: "turn", member: id, turn: record } });
  return true;
}

/** End a turn: lift a stun that lasted to the end of its turn, and the unawareness after the opening turn */
async function turnEnded(table, surprise, id) {
  const track = trackOf(surprise, id);
  if (track?.clearAtEnd) {
    await mark(table, surprise, id, "surprised", false);
    track.clearAtEnd = false;
  }
  if (surprise.unaware) {
    for (const candidate of trackList(surprise)) await mark(table, surprise, candidate.name, "unaware", false);
    surprise.unaware = false;
  }
  settle(surprise, id);
}

/** A new round: nothing happens to the stun, which counts the combatants' own turns */
async function roundStarted() {
  return false;
}

/** A combatant left the fight: his statuses go, and his stun no longer keeps the surprise going */
async function left(table, surprise, id) {
  await unmarkAll(table, surprise, id);
  if (surprise.tracks) delete surprise.tracks[id];
  settle(surprise, id);
}

/** Return one line per stunned combatant: recovered after how many seconds, never, or stunned for how many turns */
function statusLines(table, surprise) {
  return trackList(surprise).map((track) => {
    const name = surprise.labels[track.name] ?? "?";
    if (track.lost !== null) return table.t("Tracking.Recovered", { name, seconds: track.lost });
    return track.never ? table.t("Tracking.Never", { name }) : table.t("Tracking.Stunned", { name, turns: track.turns.length });
  });
}

export {
  MEMBER_PARTS, STRING_KEYS, left, resolve, roundStarted, statusLines, turnEnded, turnStarted, upgraded,
};
