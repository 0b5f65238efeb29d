// Token markers: the marker each status shows, found among the colours, the built-in markers and the game's custom
// markers (docs/dev/roll20.md §5), with a count badge.
import { COMMAND, MARKERS, SCRIPT_NAME } from "../common/config.js";
import { isRecord } from "./state.js";
import { notice, t } from "./text.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = ["Roll20.UnknownMarker"];

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

/**
 * Show or hide a status marker on a token, with a count badge when it is 1..9. `owned` tells that the script set the
 * marker it shows: one the token showed before (the GM's, another script's) is left as it is. True when the marker
 * now shows because the script set it; false when the token is gone or the marker was someone else's.
 */
export function setMarker(tokenId, status, active, count = null, owned = false) {
  const token = getObj("graphic", tokenId);
  if (!token) return false;
  const key = `status_${markerTag(status === "surprised" ? state[SCRIPT_NAME].config.marker : MARKERS[status])}`;
  if (active && !owned && token.get(key) !== false) return false;
  token.set(key, active ? (count !== null && count >= 1 && count <= 9 ? count : true) : false);
  return true;
}
