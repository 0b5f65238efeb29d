// A draft filled with a vector's values, as a GM fills it before the roll: shared by the conformance runners.

/**
 * Fill a draft from a vector's scenario, as a GM would, and check what the sheets gave: the members' inputs in
 * sheetKeys must already hold the vector's values. Returns the problems found, none when the draft holds the vector.
 */
export function completeDraft(draft, scenario, sheetKeys) {
  const problems = [];
  for (const key of Object.keys(draft).filter((k) => !["system", "procedure", "sides", "out"].includes(k))) {
    if (key === "openers") {
      draft.openers = scenario.openers ?? (scenario.attacker === undefined ? [] : [
        { name: scenario.attacker, attack_bonus: scenario.attack_bonus, target_number: scenario.target_number }]);
    } else if (scenario[key] !== undefined) {
      draft[key] = scenario[key];
    }
  }
  for (const sideKey of ["a", "b"]) {
    const side = scenario.sides[sideKey];
    const drafted = draft.sides[sideKey];
    for (const key of Object.keys(drafted).filter((k) => k !== "members")) {
      if (key === "leader") drafted.leader = side.leader ?? null;
      else if (side[key] !== undefined) drafted[key] = side[key];
    }
    for (const member of side.members) {
      const entry = drafted.members.find((candidate) => candidate.name === member.name);
      if (!entry) {
        problems.push(`${member.name} is not on side ${sideKey} of the draft`);
        continue;
      }
      for (const key of Object.keys(entry).filter((k) => k !== "id" && k !== "name")) {
        if (member[key] === undefined) continue;
        if (sheetKeys.includes(key) && entry[key] !== member[key]) {
          problems.push(`${member.name}.${key}: the sheet gave ${entry[key]}, not ${member[key]}`);
        }
        entry[key] = member[key];
      }
    }
  }
  return problems;
}
