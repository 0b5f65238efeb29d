// The Foundry dialog as the tests read it: its fields, named by their path in the draft (templates/foundry/scripts/
// dialog.js), and the lines of its odds box. Shared by tests/foundry/dialog.test.mjs and tests/table_encounters.mjs.
import assert from "node:assert/strict";

const NOT_VALUES = ["system", "procedure", "sides", "out", "openers"];
const OPENER_ROWS = 3; // the rows of opening attacks the dialog offers to declare

/**
 * Return the dialog's fields for a draft, by name: the encounter's values, each side's, each combatant's place and
 * values, and (with openers) the rows of opening attacks.
 */
export function draftFields(draft) {
  const fields = {};
  for (const [key, value] of Object.entries(draft)) if (!NOT_VALUES.includes(key)) fields[key] = value;
  for (const key of ["a", "b"]) {
    for (const [input, value] of Object.entries(draft.sides[key])) if (input !== "members") fields[`sides.${key}.${input}`] = value;
  }
  for (const [place, members] of [["a", draft.sides.a.members], ["b", draft.sides.b.members], ["out", draft.out ?? []]]) {
    for (const member of members) {
      fields[`place.${member.id}`] = place;
      for (const [input, value] of Object.entries(member)) {
        if (!["id", "name"].includes(input)) fields[`members.${member.id}.${input}`] = value;
      }
    }
  }
  for (let row = 0; draft.openers && row < OPENER_ROWS; row += 1) {
    for (const key of ["name", "attack_bonus", "target_number"]) fields[`openers.${row}.${key}`] = draft.openers[row]?.[key] ?? null;
  }
  return fields;
}

/** Read a rendered dialog's odds box: its lines, each a <p> holding text only */
export function oddsBox(record) {
  const box = record.element.querySelector(".ambush-odds");
  assert.ok(box, "the dialog has its odds box");
  for (const line of box.children) {
    assert.equal(line.tagName, "P");
    assert.equal(line.children.length, 0, `a line of text only: ${line.innerHTML}`);
  }
  return [...box.children].map((line) => line.textContent);
}
