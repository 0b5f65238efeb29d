// The scenario file at the page: a file opened or pasted (the TOML `ambush odds` reads) becomes the draft, its members
// given ids of the page; the draft goes back out as the same file (common/scenario-file.js through the session). A
// file is taken whole or not at all: any problem is one line, and the draft before it stays.
import { DEFAULT_OPTIONS, FILE_LIMITS, SIDE_KEYS, SYSTEM } from "../common/config.js";
import { inputsAt, procedureDef, scenarioFromDraft } from "../common/draft.js";
import { decodeUtf8, hasOwnKey, isTable, parseToml } from "./toml.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Web.File.*"];

/** The keys a Fallout file may give for its one opening attack instead of an openers list (docs/scenarios.md) */
const LONE_OPENER = ["attacker", "attack_bonus", "target_number"];

/** A problem with one field of the file, its path a list of keys and array indices, as a one-line error */
class FileProblem extends Error {
  constructor(path, text) {
    super(text);
    this.path = path;
  }
}

/** Name a field as `ambush odds` does (exporter/validation.py field_path): sides.a.members[0].iq */
function fieldName(path) {
  return path.map((step, index) => (typeof step === "number" ? `[${step}]` : `${index ? "." : ""}${step}`)).join("");
}

/** Refuse the keys of a table that are neither allowed nor an input, naming the first */
function onlyKnown(tableValue, where, allowed) {
  for (const key of Object.keys(tableValue)) {
    if (!allowed.includes(key)) throw new FileProblem([...where, key], "Web.File.Unknown");
  }
}

/** Return a member of the draft from a file's member table: the page's id, the name, the inputs given or defaulted */
function draftMember(entry, where, fields, id) {
  if (!isTable(entry)) throw new FileProblem(where, "Web.File.NotTable");
  onlyKnown(entry, where, ["name", ...fields.map((field) => field.key)]);
  if (typeof entry.name !== "string" || !entry.name.trim()) {
    throw new FileProblem([...where, "name"], "Web.File.NoName");
  }
  const member = { id, name: entry.name.trim() };
  for (const field of fields) member[field.key] = hasOwnKey(entry, field.key) ? entry[field.key] : field.default;
  return member;
}

/** Turn a file's data into a draft with member ids from `nextId()`; throws a FileProblem */
function draftOfData(data, nextId) {
  if (data.system !== SYSTEM) throw new FileProblem(["system"], "Web.File.System");
  const procedure = procedureDef(data.procedure);
  if (!procedure) throw new FileProblem(["procedure"], "Web.File.Procedure");
  const scenarioInputs = inputsAt(procedure.id, "scenario");
  const hasOpeners = scenarioInputs.some((input) => input.type === "openers");
  onlyKnown(data, [], ["system", "procedure", "options", "sides", ...scenarioInputs.map((input) => input.key),
    ...(hasOpeners ? LONE_OPENER : [])]);
  const options = data.options ?? {};
  if (!isTable(options)) throw new FileProblem(["options"], "Web.File.NotTable");
  for (const [key, value] of Object.entries(options)) {
    if (!hasOwnKey(DEFAULT_OPTIONS, key)) throw new FileProblem(["options", key], "Web.File.Unknown");
    // The page plays the campaign's house rules: a file that asks for others would be played wrong without a word.
    if (JSON.stringify(value) !== JSON.stringify(DEFAULT_OPTIONS[key])) throw new FileProblem(["options", key], "Web.File.Option");
  }
  const draft = { system: SYSTEM, procedure: procedure.id, sides: {}, out: [] };
  for (const input of scenarioInputs) {
    if (input.type === "openers") draft.openers = openersOf(data);
    else draft[input.key] = hasOwnKey(data, input.key) ? data[input.key] : input.default;
  }
  if (!isTable(data.sides)) throw new FileProblem(["sides"], "Web.File.NotTable");
  onlyKnown(data.sides, ["sides"], SIDE_KEYS);
  const sideInputs = inputsAt(procedure.id, "side");
  const memberInputs = inputsAt(procedure.id, "member");
  for (const key of SIDE_KEYS) {
    const side = data.sides[key];
    const where = ["sides", key];
    if (!isTable(side)) throw new FileProblem(where, "Web.File.NotTable");
    onlyKnown(side, where, ["name", "members", ...sideInputs.map((input) => input.key)]);
    if (!Array.isArray(side.members)) throw new FileProblem([...where, "members"], "Web.File.NotTable");
    if (hasOwnKey(side, "name") && typeof side.name !== "string") throw new FileProblem([...where, "name"], "Web.File.NotTable");
    const drafted = { name: hasOwnKey(side, "name") ? side.name : "" };
    for (const input of sideInputs) drafted[input.key] = hasOwnKey(side, input.key) ? side[input.key] : (input.type === "member" ? null : input.default);
    drafted.members = side.members.map((entry, index) => draftMember(entry, [...where, "members", index], memberInputs, nextId()));
    draft.sides[key] = drafted;
  }
  return draft;
}

/** Return the opening attacks a Fallout file declares: its openers, or its lone attacker of side a with his numbers */
function openersOf(data) {
  const lone = LONE_OPENER.filter((key) => hasOwnKey(data, key));
  if (lone.length && hasOwnKey(data, "openers")) throw new FileProblem([lone[0]], "Web.File.Unknown");
  // The lone attacker is side a's, as `ambush odds` reads him (fallout_ttrpg.py); one of side b's is given in openers.
  const sideA = data.sides?.a?.members;
  if (typeof data.attacker === "string" && Array.isArray(sideA)
    && !sideA.some((member) => isTable(member) && member.name === data.attacker)) {
    throw new FileProblem(["attacker"], "Web.File.AttackerSide");
  }
  if (lone.length) return [{ name: data.attacker ?? null, attack_bonus: data.attack_bonus ?? null, target_number: data.target_number ?? null }];
  if (!hasOwnKey(data, "openers")) return [];
  if (!Array.isArray(data.openers) || !data.openers.every(isTable)) throw new FileProblem(["openers"], "Web.File.NotTable");
  return data.openers.map((row, index) => {
    onlyKnown(row, ["openers", index], ["name", "attack_bonus", "target_number"]);
    return { name: row.name ?? null, attack_bonus: row.attack_bonus ?? null, target_number: row.target_number ?? null };
  });
}

/**
 * Read a scenario file, its text pasted or its bytes opened, into a draft whose members get ids from `nextId()`:
 * {draft}, or {problem}, one translated line naming the file's line or field. A draft the rules would refuse is
 * refused here, as `ambush odds` refuses the file.
 */
function readScenarioFile(source, name, nextId, t) {
  const file = name || t("Web.File.Pasted");
  let data;
  try {
    data = parseToml(typeof source === "string" ? source : decodeUtf8(source, FILE_LIMITS), FILE_LIMITS);
  } catch (error) {
    if (error.line === undefined) throw error;
    return { problem: t("Web.File.Syntax", { file, line: error.line, what: error.what }) };
  }
  try {
    const draft = draftOfData(data, nextId);
    const { problem } = scenarioFromDraft(draft, t);
    return problem ? { problem: t("Web.File.Refused", { file, problem }) } : { draft };
  } catch (error) {
    if (!(error instanceof FileProblem)) throw error;
    const value = error.path.reduce((held, step) => (typeof held === "object" && held !== null ? held[step] : undefined),
      data);
    return {
      problem: t("Web.File.Field", {
        file, field: fieldName(error.path), problem: t(error.message, { value: JSON.stringify(value) ?? "",
          system: SYSTEM, expected: JSON.stringify(DEFAULT_OPTIONS[error.path[1]] ?? null) }),
      }),
    };
  }
}

export { STRING_KEYS, readScenarioFile };
