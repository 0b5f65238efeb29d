// AD&D 1e surprise at the table (RULES.md 3): one d6 per side, then surprise segments before the first
// normal round. The tracker plays segment n as round firstRound + n - 1.
import { postCard } from "./chat.js";
import { format, localize } from "./i18n.js";
import { mark } from "./marks.js";
import * as rules from "./rules.js";

const SIDE_KEYS = ["a", "b"];

/** List labels as one text. */
const names = (state, ids) => ids.map((id) => state.labels[id]).join(", ");

/** Return the segment a tracker round plays, counting from 1; 0 or less before the segments. */
const segmentOf = (state, round) => round - state.firstRound + 1;

/** Describe one segment of the timeline. */
function segmentLine(state, segment) {
  if (segment.kind === "cancelled") return format("Adnd.SegmentCancelled", { segment: segment.segment });
  return format("Adnd.SegmentLine", { segment: segment.segment, acting: names(state, segment.acting) });
}

/** Roll both sides' d6, post the card with the segment timeline, mark who is frozen. */
export async function resolve(combat, state, roller, rolls) {
  const outcome = await rules.resolve(state.scenario, roller);
  state.outcome = outcome;
  state.firstRound = combat.started ? combat.round + 1 : 1;
  state.frozen = Object.fromEntries(
    outcome.timeline.length ? frozenByMember(state) : [],
  );
  const lines = SIDE_KEYS.map((key) => {
    const side = outcome.sides[key];
    const data = { side: state.scenario.sides[key].name, threshold: side.threshold, roll: side.roll, segments: side.segments };
    return side.roll === null ? format("Adnd.SideNoRoll", data) : format("Adnd.SideRoll", data);
  });
  if (!outcome.timeline.length) {
    lines.push(localize(outcome.surprise === "none" ? "Chat.NobodySurprised" : "Adnd.NoSegments"));
    state.done = true;
  } else {
    lines.push(format("Adnd.FirstRound", { round: state.firstRound, count: outcome.timeline.length }));
    outcome.timeline.forEach((segment) => lines.push(segmentLine(state, segment)));
    for (const [id, frozen] of Object.entries(state.frozen)) {
      if (frozen > 0) await mark(combat, state, id, "surprised", true, { startRound: state.firstRound, rounds: frozen });
    }
  }
  await postCard({ title: localize("Procedure.roll"), lines, rolls, record: { type: "resolve", outcome } });
}

/** Return each member's frozen segments as the timeline counts them (RULES.md 3.1, C4). */
function frozenByMember(state) {
  const { outcome, scenario } = state;
  return SIDE_KEYS.flatMap((key) => scenario.sides[key].members.map((member) => {
    const own = outcome.members[member.name].segments;
    return [member.name, rules.frozenSegments(outcome.sides[key].segments, own, scenario.options)];
  }));
}

/** At each round: announce the segment it plays, unfreeze who may act, end the surprise after the last; never restarts the round. */
export async function onRoundStart(combat, state, round) {
  const segment = segmentOf(state, round);
  if (segment < 1) return false;
  const timeline = state.outcome.timeline;
  for (const [id, frozen] of Object.entries(state.frozen)) {
    if (frozen < segment) await mark(combat, state, id, "surprised", false);
  }
  if (segment <= timeline.length) {
    await postCard({ title: localize("Adnd.SegmentTitle"), lines: [segmentLine(state, timeline[segment - 1])],
      record: { type: "segment", segment: timeline[segment - 1] } });
    return false;
  }
  if (!state.done) {
    state.done = true;
    await postCard({ title: localize("Adnd.SegmentTitle"), lines: [localize("Adnd.SegmentsOver")], record: { type: "end" } });
  }
  return false;
}

/** In a surprise segment only the combatants the timeline names act; true = this one passes. */
export async function onTurnStart(combat, state, combatant) {
  const segment = segmentOf(state, combat.round);
  const timeline = state.outcome.timeline;
  if (segment < 1 || segment > timeline.length) return false;
  return !timeline[segment - 1].acting.includes(combatant.id);
}

/** Nothing happens at the end of a turn in AD&D surprise. */
export async function onTurnEnd() {}
