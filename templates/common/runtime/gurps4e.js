// GURPS 4e surprise at the table (docs/rules/gurps4e.md): who is surprised, then the mental stun turn by turn (docs/rules/gurps4e.md#turn-by-turn).
// Every turn counts on its own: rounds mean nothing extra to the stun.
import { SIDE_KEYS } from "../config.js";
import { list, named, signed } from "../format.js";
import * as Rules from "../rules/gurps4e.js";
import { entryNamed, memberNamed, scenarioOptions } from "../scenario.js";
import { mark, unmarkAll } from "../surprise.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Chat.NobodySurprised", "Gurps.*", "Procedure.{procedure}", "Tracking.Never", "Tracking.Recovered",
  "Tracking.Stunned"
];

/** Return the rules member behind a combatant id */
const memberOf = (surprise, id) => memberNamed(surprise.scenario, id);

/** Return the stun track of a combatant, if he is stunned */
const trackOf = (surprise, id) => (surprise.tracks ? entryNamed(surprise.tracks, id) : undefined);

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

/** How many tracks of a list, from its start, were settled at the last look: a settled track stays settled */
const settledUpTo = new WeakMap();

/** Tell the surprise is over: everyone recovered or never can, and nothing waits for the end of a turn */
function settle(surprise) {
  const tracks = surprise.tracks ?? [];
  let first = settledUpTo.get(tracks) ?? 0; // each turn goes on from there, not from the first track again
  while (first < tracks.length && tracks[first].lost !== null && !tracks[first].clearAtEnd) first += 1;
  settledUpTo.set(tracks, first);
  surprise.done = first === tracks.length && !surprise.unaware;
}

/** Roll who is surprised, post the card, mark the stunned side; the stun itself follows turn by turn */
async function resolve(table, surprise) {
  const opened = await Rules.openSurprise(surprise.scenario, table.roll);
  const { tracks, loser, ...outcome } = opened;
  surprise.outcome = { ...outcome, members: {} };
  surprise.tracks = tracks.map((track) => ({ ...track, clearAtEnd: false }));
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
    for (const track of surprise.tracks) {
      await mark(table, surprise, track.name, "surprised", true, track.freeze ? { left: track.freeze } : null);
    }
    if (opened.contest) {
      // A13: the undetected sneak's opening attack meets no defence.
      for (const track of surprise.tracks) await mark(table, surprise, track.name, "unaware", true);
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
  surprise.outcome.members[id] = { lost: track.lost, turns: track.turns };
  settle(surprise);
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
    for (const candidate of surprise.tracks) await mark(table, surprise, candidate.name, "unaware", false);
    surprise.unaware = false;
  }
  settle(surprise);
}

/** A new round: nothing happens to the stun, which counts the combatants' own turns */
async function roundStarted() {
  return false;
}

/** Return the number the VTT gives the round about to begin: its own */
function nextRoundNumber(surprise, proposed) {
  return proposed;
}

/** Return how long a table round lasts where the rules say: never, GURPS rounds are the VTT's own, a second each */
function roundSeconds() {
  return null;
}

/** A combatant left the fight: his statuses go, and his stun no longer keeps the surprise going */
async function left(table, surprise, id) {
  await unmarkAll(table, surprise, id);
  surprise.tracks = (surprise.tracks ?? []).filter((track) => track.name !== id);
  settle(surprise);
}

/** Return one line per stunned combatant: recovered after how many seconds, never, or stunned for how many turns */
function statusLines(table, surprise) {
  return (surprise.tracks ?? []).map((track) => {
    const name = surprise.labels[track.name] ?? "?";
    if (track.lost !== null) return table.t("Tracking.Recovered", { name, seconds: track.lost });
    return track.never ? table.t("Tracking.Never", { name }) : table.t("Tracking.Stunned", { name, turns: track.turns.length });
  });
}

/** Name the table round being played: never, GURPS rounds are one second each and carry only their number */
function roundName() {
  return null;
}

export {
  STRING_KEYS, left, nextRoundNumber, resolve, roundName, roundSeconds, roundStarted, statusLines, turnEnded, turnStarted,
};
