// The web host of the table session (common/session.js): the page is the table. Its turn order is the members in the
// draft's order (the rules may arrange it), its statuses a list per combatant, its cards a log, its dice rolled here or
// typed in by the GM; all of it lives in the page's state, kept in the browser after every step.
import { list } from "../common/format.js";
import { rollFaces } from "./dice.js";
import { language, t } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Web.DiceRoll"];

/**
 * Return the host of the page's state. `askDice({count, sides, purpose})` resolves to the faces the GM typed in;
 * `saved()` keeps the state.
 * @returns {import("../common/session.js").Host}
 */
function webHost(state, { askDice, saved }) {
  let rolled = [];
  return {
    t,
    language,
    async roll(count, sides, purpose) {
      const faces = state.dice === "typed" ? await askDice({ count, sides, purpose }) : rollFaces(count, sides);
      rolled.push(t("Web.DiceRoll", { count, sides, faces: list(faces.map(String), language(), { style: "narrow" }) }));
      return faces;
    },
    async mark(id, status, on) {
      const statuses = state.table.statuses;
      const shown = new Set(Object.prototype.hasOwnProperty.call(statuses, id) ? statuses[id] : []);
      if (!state.table.order.includes(id) || on === shown.has(status)) return false;
      if (on) shown.add(status);
      else shown.delete(status);
      statuses[id] = [...shown];
      return true;
    },
    async arrange(order) {
      const table = state.table;
      const current = table.order[table.turn];
      const listed = order.map((entry) => entry.id).filter((id) => table.order.includes(id));
      table.order = [...listed, ...table.order.filter((id) => !listed.includes(id))];
      // The current turn follows its combatant, as a tracker's does when the order is sorted again.
      table.turn = table.started ? Math.max(0, table.order.indexOf(current)) : 0;
      return table.started && table.turn !== 0;
    },
    async send(message) {
      const dice = message.dice ? rolled : [];
      if (message.dice) rolled = [];
      state.log.push({ title: message.title, lines: message.lines, gm: message.gm, dice, round: state.table.round,
        action: state.actions ?? 0, records: message.records });
    },
    // The surprise lives in the page's state, which no one else writes: the session's changes go to it as they are
    // made, and an action that fails puts the whole state back (main.js act), so no copy is needed either way.
    load: () => state.surprise ?? null,
    async save(surprise) {
      state.surprise = surprise ?? null;
      saved();
      return true;
    },
    turnOrder: () => ({ round: state.table.round }),
    settings: () => ({ automation: true, skip: state.settings.skip, cards: state.settings.cards }),
  };
}

export { STRING_KEYS, webHost };
