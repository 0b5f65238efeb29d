// The web page's Next without the page: the session, the tracker and the store (templates/web), as main.js calls them
// for a click, less the render. The benchmark bundles it as a page's entry (benchmarks/web_state.py); `start()` gives
// the page `window.playFight({toml, rounds, every})`, which resolves to what benchmarks/web_fight.js returns.
import { tableSession } from "../common/session.js";
import { readScenarioFile } from "./file.js";
import { webHost } from "./host.js";
import { t } from "./i18n.js";
import { freshState, newTracker, writeStored } from "./store.js";
import { nextTurn } from "./tracker.js";

/**
 * Resolve a scenario file's draft, its initiative dice typed in (`initiative`, a face each side), then press Next with
 * the page's dice until `rounds` rounds are over
 */
async function playFight({ key, toml, initiative, rounds, every }) {
  let id = 1;
  const { draft, problem } = readScenarioFile(toml, "", () => `c${id++}`, t);
  if (problem) throw new Error(problem);
  const state = { ...freshState(draft), nextId: id };
  state.table = newTracker(["a", "b"].flatMap((side) => draft.sides[side].members.map((member) => member.id)));
  const typed = [...initiative];
  const askDice = async ({ count }) => typed.splice(0, count);
  const session = tableSession(webHost(state, { askDice, saved: () => writeStored(JSON.stringify(state)) }));
  state.dice = "typed";
  await session.resolve(draft);
  state.dice = "page";
  const sizes = [];
  const times = [];
  while (state.table.round <= rounds) {
    await new Promise((resolve) => setTimeout(resolve, 0)); // each Next a task of its own, as a click is
    const before = state.table.round;
    const start = performance.now();
    await nextTurn(session, state);
    const kept = writeStored(JSON.stringify(state));
    times.push(performance.now() - start);
    if (!kept) return { sizes, times, refused: { round: state.table.round, presses: times.length } };
    if (state.table.round !== before && before > 0 && before % every === 0) {
      sizes.push({ round: before, chars: localStorage.getItem(key).length, presses: times.length });
    }
  }
  return { sizes, times, refused: null };
}

function start() {
  window.playFight = playFight;
}

export { start };
