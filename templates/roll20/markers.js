// Token markers: the marker each status shows, found among the colours, the built-in markers and the game's custom
// markers (docs/dev/roll20.md §5), with a count badge.
import { COMMAND, MARKERS, SCRIPT_NAME } from "../common/config.js";
import { claimedByOthers, scriptsUsing } from "./neighbours.js";
import { isRecord } from "./state.js";
import { list } from "../common/format.js";
import { language, notice, t } from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Roll20.MarkerInUse", "Roll20.UnknownMarker"];

/** The colour markers and dead, which every game has (docs/dev/roll20.md §5) */
const BUILT_IN_MARKERS = ["red", "blue", "green", "brown", "purple", "pink", "yellow", "dead"];

/** The game's custom token markers, [{tag, name}]; both spellings of the campaign property are read */
function customMarkers() {
  const raw = Campaign().get("token_markers") || Campaign().get("_token_markers") || "[]";
  try {
    const parsed = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
  } catch (error) {
    return [];
  }
}

/** Find a custom marker by exact tag, else by case-insensitive name; null when none matches */
function customMarker(name) {
  const custom = customMarkers();
  const exact = custom.find((marker) => marker.tag === name);
  return exact ?? custom.find((marker) => String(marker.name).toLowerCase() === String(name).toLowerCase()) ?? null;
}

/** Resolve a marker name to its tag: a colour or built-in name, else a custom marker by tag or name */
const markerTag = (name) => customMarker(name)?.tag ?? name;

/** Whisper the GM each configured marker that names no colour and no custom marker: it would set nothing */
export function warnUnknownMarkers() {
  const others = Object.entries(MARKERS).filter(([status]) => status !== "surprised").map(([, name]) => name);
  const names = new Set([state[SCRIPT_NAME].config.marker, ...others]);
  for (const name of names) {
    if (BUILT_IN_MARKERS.includes(String(name).toLowerCase()) || customMarker(name)) continue;
    notice(t("Roll20.UnknownMarker", { marker: name, command: COMMAND }));
  }
}

/** The badge a marker shows for what is left, 1 to 9, or none */
const badge = (count) => (count !== null && count >= 1 && count <= 9 ? count : true);

/** Whisper the GM when the marker for surprised tokens is one the scripts that follow the turn order also set */
export function warnSharedMarker() {
  const marker = state[SCRIPT_NAME].config.marker;
  const scripts = scriptsUsing(markerTag(marker));
  if (scripts.length) notice(t("Roll20.MarkerInUse", { marker, scripts: list(scripts, language()), command: COMMAND }));
}

/**
 * Show or hide a status marker on a token, with a count badge when it is 1..9. `marks` (the surprise's, by token and
 * status) keeps what the script wrote, {tag, shown}, and a marker is the script's only while the token shows what the
 * script last wrote there and no other script keeps that marker on it (docs/dev/roll20.md §5, "Whose marker"): one the
 * token showed before, or that another script set again or renumbered since, is left as it is, never removed or
 * renumbered, and the script never claims it again. `owned`: the session counts the status as applied, for a surprise
 * kept before the script recorded what it wrote (what the token shows is then taken for the script's). True when the
 * marker now shows because the script set it (or, hiding it, when the script no longer claims it).
 */
export function setMarker(tokenId, status, active, count, marks, owned = false) {
  const token = getObj("graphic", tokenId);
  const byToken = isRecord(marks[tokenId]) ? marks[tokenId] : (marks[tokenId] = {});
  const tag = byToken[status]?.tag ?? markerTag(status === "surprised" ? state[SCRIPT_NAME].config.marker : MARKERS[status]);
  const key = `status_${tag}`;
  const written = byToken[status] ?? (owned && token ? { tag, shown: token.get(key) } : null);
  const mine = Boolean(token) && written !== null && !written.lost && token.get(key) === written.shown
    && !claimedByOthers(tokenId, tag);
  // The script's other statuses shown by the same marker (a GM may give two statuses one marker)
  const sharing = Object.keys(byToken).filter((other) => other !== status && byToken[other].tag === tag && !byToken[other].lost);
  if (!active) {
    if (mine && !sharing.length) token.set(key, false);
    delete byToken[status];
    return true;
  }
  if (!token) return false;
  if (written === null ? token.get(key) !== false && !sharing.length : !mine) {
    // Someone else's marker: the GM's, or one another script set or changed
    byToken[status] = { tag, shown: null, lost: true };
    return false;
  }
  token.set(key, badge(count));
  for (const other of [status, ...sharing]) byToken[other] = { tag, shown: token.get(key) };
  return true;
}
