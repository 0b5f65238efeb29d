// What the community scripts GMs run beside this one put in the turn order (docs/dev/roll20.md §4): TurnMarker1 and
// CombatMaster each keep a round marker, a graphic with its own image and a token row of its own. Such a row is no
// combatant: it is never drafted and never plays a turn.

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
