// A bare table for driving the table session in Node without a VTT: seeded dice, the draft a GM would fill for a
// rules scenario, and a host that keeps nothing but what it is given. Used by tests/js/lookups.mjs and
// benchmarks/js_runtime.mjs.

/** A seeded generator of uniform numbers in [0, 1) (mulberry32) */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Roll count dice of sides faces with a generator of uniform numbers */
const diceOf = (random) => async (count, sides) => Array.from({ length: count }, () => 1 + Math.floor(random() * sides));

/** The draft a GM fills for a rules scenario (members named by their ids): sheet values read, the rest typed in */
function filledDraft(draftFromCombatants, scenario) {
  const combatants = ["a", "b"].flatMap((key) => scenario.sides[key].members.map((member) => ({
    id: member.name, label: member.name, side: key, read: (input) => member[input] })));
  const draft = draftFromCombatants(scenario.procedure, combatants);
  for (const key of Object.keys(draft).filter((k) => k !== "sides" && scenario[k] !== undefined)) draft[key] = scenario[key];
  if (scenario.openers) draft.openers = scenario.openers;
  for (const key of ["a", "b"]) {
    for (const field of Object.keys(draft.sides[key]).filter((k) => k !== "members")) {
      if (scenario.sides[key][field] !== undefined) draft.sides[key][field] = scenario.sides[key][field];
    }
  }
  return draft;
}

/** A session host (common/session.js) that rolls with random and keeps the surprise in memory; overrides replace its parts */
const bareHost = (random, overrides) => ({
  t: (key) => key,
  language: () => "en",
  roll: diceOf(random),
  mark: async () => true,
  arrange: async () => false,
  send: async () => {},
  load: () => null,
  save: async () => true,
  turnOrder: () => ({ round: 0 }),
  settings: () => ({ automation: true, skip: true, cards: "split" }),
  ...overrides,
});

export { bareHost, diceOf, filledDraft, seeded };
