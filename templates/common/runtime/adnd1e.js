// AD&D 1e surprise at the table (docs/rules/adnd1e.md): one d6 per side, then the surprise segments before the first normal
// round (C7). The table plays the n-th round it begins after the roll as segment n, turn by turn, with who acts in
// each. The segments are not rounds of the fight: the VTT numbers the first normal round firstRound, the number it
// would have had without a surprise (nextRoundNumber), so no round-based duration is shifted by the segments; and each
// segment lasts a segment of the VTT's world time, not a round (roundSeconds). Where another script counts the rounds
// and cannot be renumbered (Roll20's RoundMaster), each segment is one round of its count, and the first normal round
// is numbered as it will show it.
import { RULES, SIDE_KEYS } from "../config.js";
import { range } from "../format.js";
import * as Rules from "../rules/adnd1e.js";
import { listed, scenarioOptions } from "../scenario.js";
import { mark, names, unmarkAll } from "../surprise-record.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Adnd.*", "Chat.NobodySurprised", "Procedure.{procedure}", "Tracking.Segment"];

/** The parts of a surprise this runtime keeps by member id, changed a member at a time (common/surprise-record.js) */
const MEMBER_PARTS = ["frozen"];

/** Return the segment being played: the table rounds begun since the roll, counting from 1; 0 before the first */
const segmentOf = (surprise) => surprise.rounds;

/** Return the table round that plays a segment, as the VTT numbers it during the surprise */
const roundOf = (surprise, segment) => (surprise.segmentsFrom ?? surprise.firstRound) + segment - 1;

/** Describe one segment of the timeline */
function segmentLine(table, surprise, segment) {
  if (segment.kind === "cancelled") return table.t("Adnd.SegmentCancelled", { segment: segment.segment });
  return table.t("Adnd.SegmentLine", { segment: segment.segment, acting: names(table, surprise, segment.acting) });
}

/** Return each member's frozen segments as the timeline counts them (docs/rules/adnd1e.md#timeline, C4) */
function frozenByMember(surprise) {
  const { outcome, scenario } = surprise;
  const frozen = {};
  for (const key of SIDE_KEYS) {
    for (const member of scenario.sides[key].members) {
      const own = outcome.members[member.name].segments;
      frozen[member.name] = Rules.frozenSegments(outcome.sides[key].segments, own, scenarioOptions(surprise.scenario));
    }
  }
  return frozen;
}

/** Show Surprised, with the segments left, on everyone still frozen in a segment; lift it from the others */
async function refreshMarks(table, surprise, segment) {
  for (const [id, frozen] of Object.entries(surprise.frozen)) {
    if (frozen >= segment) {
      await mark(table, surprise, id, "surprised", true, { left: frozen - segment + 1, from: roundOf(surprise, segment) });
    }
    else await mark(table, surprise, id, "surprised", false);
  }
}

/**
 * Roll both sides' d6, post the card with the segment timeline, mark who is frozen. `counted`: the table counts each
 * segment as a round from `firstRound` on, and cannot number the first normal round anew.
 */
async function resolve(table, surprise, firstRound, counted = false) {
  const outcome = await Rules.resolve(surprise.scenario, table.roll);
  surprise.outcome = outcome;
  surprise.firstRound = counted ? firstRound + outcome.timeline.length : firstRound;
  if (counted) surprise.segmentsFrom = firstRound;
  surprise.rounds = 0;
  surprise.frozen = outcome.timeline.length ? frozenByMember(surprise) : {};
  // The sides' rolls and chances are the GM's business; who acts in which segment is the table's.
  const details = SIDE_KEYS.map((key) => {
    const side = outcome.sides[key];
    const data = { side: surprise.scenario.sides[key].name, range: range(1, side.threshold, table.t), roll: side.roll,
      segments: side.segments };
    return table.t(side.roll === null ? "Adnd.SideNoRoll" : "Adnd.SideRoll", data);
  });
  const lines = [];
  if (!outcome.timeline.length) {
    lines.push(table.t(outcome.surprise === "none" ? "Chat.NobodySurprised" : "Adnd.NoSegments"));
    surprise.done = true;
  } else {
    lines.push(table.t("Adnd.FirstRound", { round: surprise.firstRound, count: outcome.timeline.length }));
    outcome.timeline.forEach((segment) => lines.push(segmentLine(table, surprise, segment)));
    await refreshMarks(table, surprise, 1);
  }
  await table.post({ title: table.t("Procedure.roll"), lines, details, record: { type: "resolve", outcome } });
}

/** At each new table round: announce the segment it plays and who may act; after the last one the surprise is over */
async function roundStarted(table, surprise) {
  if (surprise.done) return false;
  surprise.rounds += 1;
  const segment = segmentOf(surprise);
  const timeline = surprise.outcome.timeline;
  if (segment <= timeline.length) {
    await refreshMarks(table, surprise, segment);
    await table.post({ title: table.t("Adnd.SegmentTitle"), lines: [segmentLine(table, surprise, timeline[segment - 1])],
      record: { type: "segment", segment: timeline[segment - 1] } });
    return false;
  }
  // Normal rounds: everyone acts, also a member whose own segments ran past the last surprise segment (C7).
  for (const id of Object.keys(surprise.frozen)) await mark(table, surprise, id, "surprised", false);
  surprise.done = true;
  await table.post({ title: table.t("Adnd.SegmentTitle"), lines: [table.t("Adnd.SegmentsOver", { round: surprise.firstRound })],
    record: { type: "end" } });
  return false;
}

/** Return the number the VTT gives the round about to begin: after the last segment, firstRound again (C7) */
function nextRoundNumber(surprise, proposed) {
  const segments = surprise.outcome?.timeline?.length ?? 0;
  return !surprise.done && segments > 0 && surprise.rounds === segments ? surprise.firstRound : proposed;
}

/** Return how long the index-th table round after the roll lasts where the rules say: a surprise segment, one segment */
function roundSeconds(surprise, index) {
  const segments = surprise.outcome?.timeline?.length ?? 0;
  return index >= 1 && index <= segments ? RULES.segment_seconds : null;
}

/** In a surprise segment only the combatants the timeline names act; true = this one passes */
async function turnStarted(table, surprise, id) {
  const segment = segmentOf(surprise);
  const timeline = surprise.outcome.timeline;
  if (segment < 1 || segment > timeline.length) return false;
  return !listed(timeline[segment - 1].acting, id);
}

/** Nothing happens at the end of a turn in AD&D surprise */
async function turnEnded() {}

/** A combatant left the fight: his statuses go, and he is no longer listed as frozen */
async function left(table, surprise, id) {
  await unmarkAll(table, surprise, id);
  delete surprise.frozen?.[id];
}

/**
 * Name a table round after the surprise segment it plays: the round being played, or the segment-th round after the
 * roll; null outside the segments
 */
function roundName(table, surprise, segment = segmentOf(surprise)) {
  const count = surprise.outcome.timeline.length;
  return segment >= 1 && segment <= count ? table.t("Tracking.Segment", { segment, count }) : null;
}

/**
 * Return the segment being played and who is still frozen in it, with the segments each is surprised in from now:
 * before the first segment the first ones, then the one being played and those after it, all in the numbering of
 * the tracker's line and the cards
 */
function statusLines(table, surprise) {
  const segment = segmentOf(surprise);
  const name = roundName(table, surprise);
  const lines = name ? [name] : [];
  for (const [id, frozen] of Object.entries(surprise.frozen ?? {})) {
    if (frozen < Math.max(segment, 1)) continue;
    const who = surprise.labels[id] ?? "?";
    lines.push(segment < 1 ? table.t("Adnd.Surprised.First", { name: who, segments: frozen })
      : table.t("Adnd.Surprised.Now", { name: who, more: frozen - segment }));
  }
  return lines;
}

export {
  MEMBER_PARTS, STRING_KEYS, left, nextRoundNumber, resolve, roundName, roundSeconds, roundStarted, statusLines, turnEnded, turnStarted,
};
