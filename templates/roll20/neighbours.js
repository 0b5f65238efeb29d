// The community scripts GMs run beside this one (docs/dev/roll20.md §4): which of them follow the turn order and how
// each learns of a turn change, so that a turn the script passes is one they hear; their round markers, which are never
// drafted and never play a turn; the rows and markers they keep, which are never the script's.
import { isRecord } from "./state.js";

/** The default marker images, where a script's state does not name its own (TurnMarker1 lines 56-80, CombatMaster 3256-3319) */
const DEFAULT_MARKER_IMAGES = [
  "https://s3.amazonaws.com/files.d20.io/images/4095816/086YSl3v0Kz3SlDAu245Vg/thumb.png?1400535580",
  "https://s3.amazonaws.com/files.d20.io/images/52550079/U-3U950B3wk_KRtspSPyuw/thumb.png?1524507826",
];

/** An image address without its size and its query: Roll20 serves one image as thumb, med, max or original */
const imageOf = (src) => String(src ?? "").split("?")[0].replace(/\/(thumb|med|max|original)\.(\w+)$/, "/image.$2");

/** The marker images the scripts of this game use: their own settings (read from their state), and the defaults */
function markerImages() {
  const own = [state.TurnMarker?.tokenURL, state.COMBATMASTER?.config?.turnorder?.externalMarkerURL];
  return new Set([...own, ...DEFAULT_MARKER_IMAGES].filter((src) => typeof src === "string" && src).map(imageOf));
}

/** Tell whether a graphic is another script's round marker: one that represents no character, with a marker image */
export function isRoundMarker(graphic) {
  return !graphic.get("represents") && markerImages().has(imageOf(graphic.get("imgsrc")));
}

/** A list kept in another script's state, or none */
const listIn = (value) => (Array.isArray(value) ? value.filter(isRecord) : []);

/** A marker's tag without its badge and without a custom marker's id (ConditionTracker's getMarkerBase) */
const markerBase = (tag) => String(tag ?? "").split("@")[0].split("::")[0];

/** The tags RoundMaster's statuses on a token show (state.roundMaster: effects by token, statuses by name) */
function roundMasterTags(tokenId) {
  const statuses = listIn(state.roundMaster?.statuses);
  return listIn(state.roundMaster?.effects?.[tokenId])
    .map((effect) => statuses.find((status) => status.name === String(effect.name).toLowerCase())?.tag)
    .filter(Boolean);
}

/**
 * The scripts that follow the turn order, by how each learns of a turn change (docs/dev/roll20.md §4, "Who hears a
 * turn"): a script that hears "clicks" learns only of a person's change of the order (change:campaign:turnorder); one
 * with an "observer" also when a script calls the function it exports for that. Each is detected by the global its file
 * defines, or by its state where it defines none; `follows` tells whether it follows the order now; `tags` lists the
 * markers it keeps on a token; `uses` the markers it may set on any token.
 */
const FOLLOWERS = [
  {
    name: "TurnMarker1", hears: "observer",
    present: () => typeof TurnMarker !== "undefined" && typeof TurnMarker.TurnOrderChange === "function",
    tell: () => TurnMarker.TurnOrderChange(),
  },
  {
    name: "CombatMaster", hears: "clicks", present: () => typeof CombatMaster !== "undefined",
    tags: (tokenId) => listIn(state.COMBATMASTER?.conditions).filter((c) => c.id === tokenId).map((c) => c.icon),
    uses: () => Object.values(isRecord(state.COMBATMASTER?.config?.conditions) ? state.COMBATMASTER.config.conditions : {})
      .filter(isRecord).map((condition) => condition.icon),
  },
  {
    name: "RoundMaster", hears: "clicks", present: () => typeof RoundMaster !== "undefined",
    tags: roundMasterTags, uses: () => listIn(state.roundMaster?.statuses).map((status) => status.tag),
  },
  {
    name: "Gaslight", hears: "clicks", present: () => typeof Gaslight !== "undefined",
    follows: () => isRecord(state.Gaslight?.activeGroups) && Object.keys(state.Gaslight.activeGroups).length > 0,
  },
  {
    // ConditionTracker defines no global (its file is one IIFE); its state is there once it has run
    name: "ConditionTracker", hears: "clicks", present: () => isRecord(state.ConditionTracker),
    tags: (tokenId) => listIn(state.ConditionTracker?.active).filter((c) => c.targetTokenId === tokenId).map((c) => c.marker),
    uses: () => Object.values(isRecord(state.ConditionTracker?.config?.markers) ? state.ConditionTracker.config.markers : {}),
  },
];

/** The scripts of this game that follow the turn order */
const followers = () => FOLLOWERS.filter((script) => script.present());

/**
 * How a turn the script passes reaches the scripts that follow the order. "script": nobody follows it, the script moves
 * the order; "observer": it moves the order and tells each follower through its observer; "clicks": a follower hears
 * only a person's change, so the script moves nothing and the GM passes the turn with a click. `scripts` names those
 * told, or those that hear only clicks.
 */
export function passingWay() {
  const active = followers().filter((script) => script.follows?.() ?? true);
  const deaf = active.filter((script) => script.hears === "clicks");
  if (deaf.length) return { by: "clicks", scripts: deaf.map((script) => script.name), tell: () => {} };
  const told = active.filter((script) => script.hears === "observer");
  return {
    by: told.length ? "observer" : "script", scripts: told.map((script) => script.name),
    tell: () => told.forEach((script) => script.tell()),
  };
}

/** The scripts beside this one that it knows: those that follow the order, and GroupInitiative and InitMaster */
export function knownScripts() {
  const others = [["GroupInitiative", typeof GroupInitiative !== "undefined"], ["InitMaster", typeof initMaster !== "undefined"]];
  return [...followers().map((script) => script.name), ...others.filter(([, present]) => present).map(([name]) => name)];
}

/** Tell whether another script keeps this marker (a tag, with or without a badge) on a token */
export function claimedByOthers(tokenId, tag) {
  return followers().some((script) => (script.tags?.(tokenId) ?? []).some((other) => markerBase(other) === markerBase(tag)));
}

/** The followers that may set this marker on a token: a status, condition or setting of theirs shows it */
export function scriptsUsing(tag) {
  return followers().filter((script) => (script.uses?.() ?? []).some((other) => markerBase(other) === markerBase(tag)))
    .map((script) => script.name);
}

/**
 * The round RoundMaster shows for the round being played (state.roundMaster.round, kept as its round row's label), or
 * null without RoundMaster. It counts a round each time a click brings its row to the top, and no other script can
 * renumber it: its statuses count down by it (RoundMaster 5.052 updateStatusDisplay, lines 1659-1705).
 */
export function shownRound() {
  const round = typeof RoundMaster !== "undefined" ? Number.parseInt(state.roundMaster?.round, 10) : Number.NaN;
  return Number.isInteger(round) && round >= 0 ? round : null;
}

/** InitMaster's party, the tokens it gives a row each under standard initiative (state.initMaster.playerChars) */
export const initMasterParty = () => (typeof initMaster !== "undefined"
  ? new Set(listIn(state.initMaster?.playerChars).map((entry) => entry.id)) : null);

/**
 * The member a token is a copy of: Gaslight links each token of its master page with copies on the players' pages
 * (state.Gaslight.activeGroups[group].linkedTokens); a copy stands for its master. Null for a token that is no copy.
 */
export function masterOf(tokenId) {
  const groups = isRecord(state.Gaslight?.activeGroups) ? Object.values(state.Gaslight.activeGroups).filter(isRecord) : [];
  for (const group of groups) {
    const linked = isRecord(group.linkedTokens) ? group.linkedTokens : {};
    if (!Array.isArray(linked[tokenId])) continue;
    const token = getObj("graphic", tokenId);
    if (token && token.get("_pageid") === group.masterPageId) return null;
    const master = linked[tokenId].find((id) => getObj("graphic", id)?.get("_pageid") === group.masterPageId);
    if (master) return master;
  }
  return null;
}
