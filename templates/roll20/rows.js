// What each row of the turn order stands for (docs/dev/roll20.md §4, "Rows that stand for several tokens"): a token
// row its token; a copy of a member's token (Gaslight) that member; a custom row every member without a row of his own
// it names, by his token's or his character's name, and InitMaster's "Foes" row everyone the party fights who has no row
// of his own. A row may stand for several members: its turn is theirs, and it is passed only when none of them may act.
import { initMasterParty, masterOf } from "./neighbours.js";

/** The label InitMaster's standard initiative gives the one row of everyone the party fights (InitMaster lines 3455-3458) */
const FOES_ROW = "Foes";

/** A row's key in a look: a token row's id; a custom row's "-1" and its label, for every custom row has the id "-1" */
export const rowKey = (row) => (String(row.id) === "-1" ? `-1:${String(row.custom ?? "")}` : String(row.id));

/** The names a member's token goes by, in lower case: its own and its character's */
function namesOf(id) {
  const token = getObj("graphic", id);
  const character = token ? getObj("character", token.get("represents")) : null;
  return [token?.get("name"), character?.get("name")].filter(Boolean).map((name) => String(name).trim().toLowerCase());
}

/**
 * Return what the rows of an order stand for: `stands`, the members by row key where a row stands for others than the
 * member of its own id; `rowless`, the members without a row of their own; `via`, by member, the label of the row each
 * of those plays with, where one stands for him. `members` is a Set of the surprise's member ids.
 */
export function rowsOf(order, members) {
  const stands = Object.create(null); // row keys come from labels a GM typed: no key reaches a prototype
  const own = new Set();
  for (const row of order) {
    const id = String(row.id);
    if (id === "-1") continue;
    if (members.has(id)) own.add(id);
    const master = members.has(id) ? null : masterOf(id);
    if (master && members.has(master)) {
      stands[rowKey(row)] = [master];
      own.add(master);
    }
  }
  const rowless = [...members].filter((id) => !own.has(id) && getObj("graphic", id));
  const via = new Map();
  const party = initMasterParty();
  const custom = order.filter((row) => String(row.id) === "-1" && typeof row.custom === "string" && row.custom.trim());
  const claim = (row, ids) => {
    for (const id of ids.filter((member) => !via.has(member))) {
      via.set(id, row.custom.trim());
      stands[rowKey(row)] = [...(stands[rowKey(row)] ?? []), id];
    }
  };
  for (const row of custom) {
    const label = row.custom.trim().toLowerCase();
    claim(row, rowless.filter((id) => namesOf(id).includes(label)));
  }
  if (party) for (const row of custom.filter((r) => r.custom.trim() === FOES_ROW)) claim(row, rowless.filter((id) => !party.has(id)));
  return { stands, rowless, via };
}
