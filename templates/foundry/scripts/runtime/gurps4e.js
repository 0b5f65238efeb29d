// GURPS 4e surprise at the table (RULES.md 1): who is surprised, then the stun turn by turn (RULES.md 1.7).
import { OPTIONS } from "./constants.js";
import { postCard } from "./chat.js";
import { format, localize } from "./i18n.js";
import { mark } from "./marks.js";
import * as rules from "./rules.js";

const SIDE_KEYS = ["a", "b"];

/** Return the rules member behind a combatant id. */
const memberOf = (state, id) =>
  SIDE_KEYS.flatMap((key) => state.scenario.sides[key].members).find((member) => member.name === id);

/** Write a modifier with its sign. */
const signed = (value) => (value < 0 ? `${value}` : `+${value}`);

/** Describe one side's initiative roll. */
function initiativeLine(state, key, roll) {
  const modifiers = Object.entries(roll.modifiers)
    .map(([name, value]) => `${localize(`Gurps.Modifier.${name}`)} ${signed(value)}`)
    .join(", ") || localize("Gurps.NoModifiers");
  return format("Gurps.InitiativeLine", { side: state.scenario.sides[key].name, roll: roll.roll, modifiers, total: roll.total });
}

/** Describe one roll of the sneaking contest: the sneak's (no winner) or a watcher's against it. */
function contestLine(state, attempt, winner) {
  const roll = attempt.roll === null ? localize("Gurps.CannotRoll") : attempt.roll;
  const data = { name: state.labels[attempt.name], skill: attempt.skill, roll };
  return format(winner ? `Gurps.Contest.Watcher.${winner}` : "Gurps.Contest.Sneak", data);
}

/** Roll who is surprised, post the card, mark the stunned side; the stun itself follows turn by turn. */
export async function resolve(combat, state, roller, rolls) {
  const opened = await rules.openSurprise(state.scenario, roller);
  const { tracks, loser, ...outcome } = opened;
  state.outcome = { ...outcome, members: {} };
  state.tracks = tracks.map((track) => ({ ...track, clearAtEnd: false }));
  state.kind = opened.surprise_kind;
  state.unaware = false;
  const lines = [];
  if (opened.initiative) SIDE_KEYS.forEach((key) => lines.push(initiativeLine(state, key, opened.initiative[key])));
  if (opened.contest) {
    lines.push(contestLine(state, opened.contest.sneak));
    opened.contest.watchers.forEach((watcher) => lines.push(contestLine(state, watcher, watcher.winner)));
  }
  if (state.scenario.procedure === "total") lines.push(localize("Gurps.TotalByGM"));
  if (opened.surprise === "none") {
    lines.push(localize("Chat.NobodySurprised"));
    state.done = true;
  } else {
    const sides = state.scenario.sides;
    lines.push(format(`Gurps.Stunned.${opened.surprise_kind}`, { winner: sides[opened.surprise].name, loser: sides[loser].name }));
    for (const [id, seconds] of Object.entries(opened.freeze)) {
      lines.push(format("Gurps.Freeze", { name: state.labels[id], seconds }));
    }
    // No duration: a stun lasts until the IQ roll succeeds, which no expiry module can know.
    for (const track of state.tracks) await mark(combat, state, track.name, "surprised", true);
    if (opened.contest) {
      // RULES.md A13: the undetected sneak's opening attack meets no defence.
      for (const track of state.tracks) await mark(combat, state, track.name, "unaware", true);
      state.unaware = true;
      lines.push(localize("Gurps.Unaware"));
    }
  }
  await postCard({ title: localize(`Procedure.${state.scenario.procedure}`), lines, rolls, record: { type: "resolve", outcome } });
}

/** Play a stunned combatant's own turn: freeze countdown or the IQ roll (RULES.md 1.7); true = Do Nothing. */
export async function onTurnStart(combat, state, combatant, roller, rolls) {
  const track = state.tracks?.find((candidate) => candidate.name === combatant.id);
  if (!track || track.lost !== null) return false;
  if (track.never) return true;
  const turn = track.turns.length + 1;
  const record = await rules.takeStunTurn(track, memberOf(state, combatant.id), state.kind, turn, roller, OPTIONS);
  const name = state.labels[combatant.id];
  let line;
  if (record.state === "frozen") {
    line = format("Gurps.FrozenTurn", { name, left: track.freeze - turn });
  } else if (record.roll === null) {
    line = format(track.never ? "Gurps.Never" : "Gurps.CannotRecover", { name, target: record.target });
  } else {
    line = format(record.success ? "Gurps.Recovered" : "Gurps.StillStunned", { name, target: record.target, roll: record.roll });
  }
  if (record.success) {
    // RULES.md A1: rolled at the start, the -4 lifts at once; rolled at the end, it lasts through this turn.
    if (OPTIONS.stun_roll_timing === "start") await mark(combat, state, combatant.id, "surprised", false);
    else track.clearAtEnd = true;
  }
  state.outcome.members[combatant.id] = { lost: track.lost, turns: track.turns };
  state.done = state.tracks.every((t) => t.lost !== null && !t.clearAtEnd) && !state.unaware;
  await postCard({ title: localize("Gurps.TurnTitle"), lines: [line], rolls, record: { type: "turn", member: combatant.id, turn: record } });
  return true;
}

/** End a turn: lift a stun that lasted to the end of its turn, and the unawareness after the opening turn. */
export async function onTurnEnd(combat, state, combatant) {
  const track = state.tracks?.find((candidate) => candidate.name === combatant.id);
  if (track?.clearAtEnd) {
    await mark(combat, state, combatant.id, "surprised", false);
    track.clearAtEnd = false;
  }
  if (state.unaware) {
    for (const candidate of state.tracks) await mark(combat, state, candidate.name, "unaware", false);
    state.unaware = false;
  }
  state.done = state.tracks.every((t) => t.lost !== null && !t.clearAtEnd) && !state.unaware;
}

/** Rounds mean nothing extra to the GURPS stun: every turn counts on its own. */
export async function onRoundStart() {
  return false;
}

/** Roll the recovery of the selected tokens now, for tables that do not use the automation. */
export async function manualTurn(combat, state, combatant, roller, rolls) {
  return onTurnStart(combat, state, combatant, roller, rolls);
}
