// The page: wiring only. It reads the kept state, renders the draft, the odds, the tracker and the log, and turns the
// GM's clicks and edits into draft edits and session calls (common/session.js on the web host), keeping the state after
// each. An action that fails or is cancelled leaves the state as it was before it.
import { PROCEDURES, SIDE_KEYS, TITLE } from "../common/config.js";
import { applyEdits, everyone } from "../common/form.js";
import { draftScenario, inputsAt } from "../common/inputs.js";
import { queued, scenarioText, tableSession } from "../common/session.js";
import { download, el } from "./dom.js";
import { readScenarioFile } from "./file.js";
import { readControl, renderForm, renderOdds, updateProblems } from "./form-view.js";
import { webHost } from "./host.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { showKeptNotice } from "./kept-notice.js";
import { freshState, newTable, openStore, settingOf, writeStored } from "./store.js";
import { askDice, renderLog, renderTracker } from "./table-view.js";
import { nextTurn, previousTurn } from "./tracker.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Dialog.Roll", "Settings.chatVisibility.*", "Settings.skipSurprisedTurns.Name", "Web.DiceMode.*",
  "Web.Error", "Web.Language", "Web.NewConfirm", "Web.NewEncounter", "Web.NewName", "Web.NotKept", "Web.Settings",
  "Web.Stopped",
];

/** Each language's name in itself, for the language switch */
const LANGUAGE_NAMES = { en: "English", de: "Deutsch", "zh-CN": "简体中文" };

let state;
let notice = "";
let busy = false;
const root = () => document.getElementById("app");
const byId = (id) => document.getElementById(id);

/** Return an empty draft of the system's first procedure */
const emptyDraft = () => draftScenario(PROCEDURES[0].id, []);

/** Keep the state in the browser; say so when the browser refuses */
function keep() {
  if (!writeStored(state)) notice = t("Web.NotKept");
}

/** Return the next id for a combatant of the page: c1, c2 ... */
function nextId() {
  const id = `c${state.nextId}`;
  state.nextId += 1;
  return id;
}

const session = () => tableSession(webHost(state, {
  askDice: (request) => askDice(byId("dice"), request, state.draft, null),
  saved: keep,
}));

/** Render the whole page from the state; the element that had the focus gets it back */
function render() {
  const focused = document.activeElement?.id;
  document.documentElement.lang = language();
  document.title = TITLE;
  const header = el("header", { class: "top" },
    el("h1", { text: TITLE }),
    el("div", { class: "field" }, el("label", { for: "language", text: t("Web.Language") }),
      el("select", { id: "language", "data-action": "language" }, LANGUAGES.map((code) => el("option", {
        value: code, selected: code === language(), lang: code, text: LANGUAGE_NAMES[code] ?? code })))),
    el("button", { type: "button", id: "new-encounter", "data-action": "new", text: t("Web.NewEncounter") }));
  const settings = el("fieldset", { class: "settings" }, el("legend", { text: t("Web.Settings") }),
    el("div", { class: "field", role: "radiogroup", "aria-label": t("Web.DiceMode.Label") },
      ["page", "typed"].map((mode) => el("label", { class: "choice" }, el("input", {
        type: "radio", name: "dice-mode", value: mode, checked: state.dice === mode, "data-action": "dice-mode" }),
      t(`Web.DiceMode.${mode}`)))),
    el("div", { class: "field" }, el("label", { class: "choice" }, el("input", { type: "checkbox", id: "skip",
      "data-action": "skip", checked: state.settings.skip }), t("Settings.skipSurprisedTurns.Name"))),
    el("div", { class: "field" }, el("label", { for: "cards", text: t("Settings.chatVisibility.Name") }),
      el("select", { id: "cards", "data-action": "cards" }, settingOf("chatVisibility").choices.map((choice) => el("option", {
        value: choice, selected: choice === state.settings.cards, text: t(`Settings.chatVisibility.Choices.${choice}`) })))));
  const prepare = el("form", { id: "prepare", class: "prepare", novalidate: true }, renderForm(state.draft), settings,
    el("div", { class: "buttons" }, el("button", { type: "submit", id: "roll", class: "primary", text: t("Dialog.Roll") })));
  const odds = el("aside", { id: "odds", class: "odds" });
  const table = el("section", { id: "table", class: "table", hidden: !state.surprise },
    state.surprise ? renderTracker(state, session()) : []);
  const dice = el("section", { id: "dice", class: "dice", hidden: true });
  root().replaceChildren(header,
    el("p", { id: "notice", class: "notice", role: "status", text: notice }),
    el("main", { class: "layout" }, el("div", { class: "column" }, dice, table, prepare), el("div", { class: "column side-column" }, odds,
      el("section", { class: "log-box" }, renderLog(state)))));
  renderOdds(odds, state.draft);
  if (focused) byId(focused)?.focus();
}

/** Change the draft and show what changed: the whole form when its shape changed, else the odds and the problems */
function setDraft(draft, whole) {
  state.draft = draft;
  keep();
  if (whole) render();
  else {
    renderOdds(byId("odds"), draft);
    updateProblems(byId("prepare"), draft);
  }
}

/** Apply one edit of a field; a value its field cannot take is said where the odds are, and the draft stays */
function edit(element, whole) {
  const { draft, problem } = applyEdits(state.draft, [[element.dataset.path, readControl(element)]], t);
  if (problem) {
    byId("odds").replaceChildren(el("p", { class: "problem", text: problem }));
    return;
  }
  setDraft(draft, whole || element.dataset.type === "place");
}

/** Rename a combatant, and every choice that named him */
function rename(id, raw) {
  const name = String(raw).trim();
  const draft = JSON.parse(JSON.stringify(state.draft));
  const found = everyone(draft).find(([, member]) => member.id === id);
  if (!found || !name) return;
  const old = found[1].name;
  found[1].name = name;
  renameReferences(draft, old, name);
  setDraft(draft, true);
}

/** Rewrite the choices that name a combatant (leaders, the attacker, the openers); null clears them, and his openers */
function renameReferences(draft, old, name) {
  const referencing = (level) => inputsAt(draft.procedure, level).filter((input) => input.type === "member").map((input) => input.key);
  for (const key of referencing("scenario")) if (draft[key] === old) draft[key] = name;
  for (const side of SIDE_KEYS) for (const key of referencing("side")) if (draft.sides[side][key] === old) draft.sides[side][key] = name;
  if (Array.isArray(draft.openers)) {
    draft.openers = name === null ? draft.openers.filter((row) => row.name !== old)
      : draft.openers.map((row) => (row.name === old ? { ...row, name } : row));
  }
}

/** Add a combatant to a side, with the rules' defaults and a name no other has */
function addCombatant(side) {
  const draft = JSON.parse(JSON.stringify(state.draft));
  const taken = new Set(everyone(draft).map(([, member]) => member.name));
  let number = everyone(draft).length + 1;
  while (taken.has(t("Web.NewName", { number }))) number += 1;
  const member = { id: nextId(), name: t("Web.NewName", { number }) };
  for (const input of inputsAt(draft.procedure, "member")) member[input.key] = input.default;
  draft.sides[side].members.push(member);
  setDraft(draft, true);
  byId(`name-${member.id}`)?.focus();
}

/** Remove a combatant, and every choice that named him */
function removeCombatant(id) {
  const draft = JSON.parse(JSON.stringify(state.draft));
  const found = everyone(draft).find(([, member]) => member.id === id);
  if (!found) return;
  for (const key of SIDE_KEYS) draft.sides[key].members = draft.sides[key].members.filter((member) => member.id !== id);
  draft.out = (draft.out ?? []).filter((member) => member.id !== id);
  renameReferences(draft, found[1].name, null);
  setDraft(draft, true);
}

/** Draft the combatants again for another procedure: each keeps his place and the values the new one reads too */
function changeProcedure(procedure) {
  const combatants = everyone(state.draft).map(([place, member]) => ({
    id: member.id, label: member.name, side: place === "out" ? null : place,
    read: (key) => (Object.prototype.hasOwnProperty.call(member, key) && member[key] !== null ? member[key] : undefined),
  }));
  const draft = draftScenario(procedure, combatants);
  for (const key of SIDE_KEYS) draft.sides[key].name = state.draft.sides[key].name ?? "";
  setDraft(draft, true);
}

/** Read a scenario file's text into the draft; a bad file is one line, and the draft stays as it was */
function openFile(text, name) {
  const before = state.nextId;
  const { draft, problem } = readScenarioFile(text, name, nextId, t);
  if (problem) {
    state.nextId = before;
    byId("file-problem").textContent = problem;
    return;
  }
  setDraft(draft, true);
}

/** Export the draft as a scenario file: downloaded, and shown in the paste box to copy */
function exportFile() {
  try {
    const text = scenarioText(state.draft, t);
    byId("file-text").value = text;
    byId("file-problem").textContent = "";
    download("scenario.toml", text, "application/toml");
  } catch (error) {
    byId("file-problem").textContent = error.message;
  }
}

/**
 * Run one session action on the state: the table's work one task at a time, the buttons off meanwhile. A failure or a
 * cancelled roll puts the state back as it was before the action.
 */
function act(action) {
  if (busy) return Promise.resolve();
  busy = true;
  const before = JSON.stringify(state);
  document.body.classList.add("busy");
  return queued(async () => {
    notice = "";
    try {
      await action();
    } catch (error) {
      state = JSON.parse(before);
      notice = t("Web.Error", { message: error?.message ?? String(error) });
    }
    keep();
  }, () => {}).finally(() => {
    busy = false;
    document.body.classList.remove("busy");
    render();
  });
}

/** Roll the draft: the members in the draft's order become the turn order, then the session resolves */
function roll() {
  return act(async () => {
    const order = SIDE_KEYS.flatMap((key) => state.draft.sides[key].members.map((member) => member.id));
    const previous = { table: state.table, turns: state.turns };
    state.table = newTable(order);
    state.turns = [];
    const { problem } = await session().resolve(state.draft);
    if (problem) {
      Object.assign(state, previous);
      notice = problem;
      byId("odds").replaceChildren(el("p", { class: "problem", text: problem }));
    }
  });
}

/** Start a new encounter: the draft, the surprise, the order and the log go; the settings and the language stay */
function newEncounter() {
  if (!window.confirm(t("Web.NewConfirm"))) return;
  state = freshState(emptyDraft(), state);
  notice = "";
  keep();
  render();
}

function onClick(event) {
  const target = event.target.closest("button, input[type=radio]");
  if (!target || busy) return;
  const action = target.dataset.action;
  if (target.dataset.add) addCombatant(target.dataset.add);
  else if (target.dataset.remove) removeCombatant(target.dataset.remove);
  else if (action === "new") newEncounter();
  else if (action === "read-file") openFile(byId("file-text").value, "");
  else if (action === "export-file") exportFile();
  else if (action === "next") {
    act(async () => {
      if (!(await nextTurn(session(), state))) notice = t("Web.Stopped");
    });
  } else if (action === "previous") act(() => previousTurn(session(), state));
  else if (action === "clear") act(() => session().clear());
}

function onChange(event) {
  const target = event.target;
  const action = target.dataset.action;
  if (busy && action !== undefined) return;
  if (action === "language") {
    state.language = setLanguage(target.value);
    keep();
    render();
  } else if (action === "procedure") changeProcedure(target.value);
  else if (action === "dice-mode") {
    state.dice = target.value === "typed" ? "typed" : "page";
    keep();
  } else if (action === "skip") {
    state.settings.skip = target.checked;
    keep();
  } else if (action === "cards") {
    state.settings.cards = target.value;
    keep();
  } else if (action === "open-file" && target.files?.[0]) {
    const file = target.files[0];
    file.arrayBuffer().then((bytes) => openFile(bytes, file.name)); // bytes: bad UTF-8 refused, not replaced
  } else if (target.dataset.rename) rename(target.dataset.rename, target.value);
  else if (target.dataset.sideName) {
    const draft = JSON.parse(JSON.stringify(state.draft));
    draft.sides[target.dataset.sideName].name = target.value;
    setDraft(draft, true);
  } else if (target.dataset.path) edit(target, target.tagName === "SELECT" || target.type === "checkbox");
}

function onInput(event) {
  const target = event.target;
  if (target.dataset.path && target.tagName === "INPUT" && target.type === "text") edit(target, false);
}

/** Start the page: every part of the kept state that can be read (store.js), then the page; what could not, named above it */
async function start() {
  const opened = await openStore(emptyDraft);
  state = opened.state;
  setLanguage(state.language);
  if (opened.report.unavailable) notice = t("Web.NotKept");
  const app = root();
  app.addEventListener("click", onClick);
  app.addEventListener("change", onChange);
  app.addEventListener("input", onInput);
  app.addEventListener("submit", (event) => {
    event.preventDefault();
    if (event.target.id === "prepare" && !busy) roll();
  });
  try {
    render();
  } catch {
    // A kept part the checks passed and the page still cannot show: it starts without the draft and the fight, named.
    state = opened.afresh();
    render();
  }
  showKeptNotice(opened.report, app);
}

export { start };
