// The page: wiring only. It reads the kept state, describes the page from it (the draft and its odds before the roll;
// the tracker and the cards once the fight runs, the draft folded away; the players' view with nothing of the GM's),
// patches what changed into place (vdom.js), and turns the GM's clicks and edits into draft edits and session calls
// (common/session.js on the web host), keeping the state after each. An action that fails or is cancelled leaves the
// state as it was before it.
import { PROCEDURES, SIDE_KEYS, TITLE } from "../common/config.js";
import { addCombatant, changeProcedure, everyone, removeCombatant, renameCombatant } from "../common/draft-combatants.js";
import { applyEdits } from "../common/form.js";
import { draftFromCombatants, scenarioFromDraft } from "../common/draft.js";
import { queued, scenarioText, tableSession } from "../common/session.js";
import { typedFaces } from "./dice.js";
import { download, idOf } from "./dom.js";
import { readScenarioFile } from "./file.js";
import { fileControls, firstNameProblem, formRenderer, oddsRenderer, readControl } from "./form-view.js";
import { webHost } from "./host.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { showKeptNotice } from "./kept-notice.js";
import { freshState, newTracker, openStore, settingOf, writeStored } from "./store.js";
import { renderDice, renderGMTools, renderLog, renderTracker } from "./fight-view.js";
import { addLate, nameOf, nextTurn, previousTurn, takeOut } from "./tracker.js";
import { h, patch, typing } from "./vdom.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Dialog.Roll", "Settings.chatVisibility.*", "Settings.skipSurprisedTurns.Name", "Web.CannotRoll", "Web.DiceMode.*",
  "Web.Dice.Bad", "Web.Dice.Cancelled", "Web.Error", "Web.Language", "Web.Late.*", "Web.NewConfirm",
  "Web.NewEncounter", "Web.NewName", "Web.NotKept", "Web.Players.*", "Web.Reopen", "Web.RollConfirm", "Web.Settings",
  "Web.Stopped", "Web.TakeOutConfirm",
];

/** Each language's name in itself, for the language switch */
const LANGUAGE_NAMES = { en: "English", de: "Deutsch", "zh-CN": "简体中文" };

let state;
/** The state as last kept: what an action that fails goes back to */
let kept = null;
let notice = "";
let busy = false;
/** An action of the table under way: the session's saves go into the state, kept when it ends */
let acting = false;
/** The roll the GM is asked to type the dice of: {number, count, sides, purpose, problem, resolve, reject}, or null */
let asking = null;
let asked = 0;
let lateProblem = null;
/** What was wrong with the last scenario file opened, pasted or exported */
let fileProblem = "";
const renderForm = formRenderer();
const renderOdds = oddsRenderer();
const root = () => document.getElementById("app");
const byId = (id) => document.getElementById(id);

/** Return an empty draft of the system's first procedure */
const emptyDraft = () => draftFromCombatants(PROCEDURES[0].id, []);

/** Keep the state in the browser; say so when the browser refuses */
function keep() {
  if (acting) return; // the action keeps its outcome once, at its end
  kept = JSON.stringify(state);
  if (!writeStored(kept)) notice = t("Web.NotKept");
}

/** Return the next id for a combatant of the page: c1, c2 ... */
function nextId() {
  const id = `c${state.nextId}`;
  state.nextId += 1;
  return id;
}

/** Ask the GM for the faces of one roll: the dice form, in view, its first die focused; resolves to the faces */
function askDice(request) {
  return new Promise((resolve, reject) => {
    asked += 1;
    asking = { ...request, number: asked, problem: null, resolve, reject };
    update();
    byId("dice")?.scrollIntoView({ block: "nearest" });
    byId("die-0")?.focus();
  });
}

const session = () => tableSession(webHost(state, { askDice, saved: keep }));

/** Describe the page's header: the title, the language, the players' view switch, a new encounter */
function header(players) {
  return h("header", { key: "header", class: "top" },
    h("h1", { text: TITLE }),
    h("div", { class: "field field-inline" }, h("label", { for: "language", class: "narrow-hidden", text: t("Web.Language") }),
      h("select", { id: "language", "data-action": "language", value: language() }, LANGUAGES.map((code) => h("option", {
        value: code, lang: code, text: LANGUAGE_NAMES[code] ?? code })))),
    h("button", { type: "button", id: "players-view", "data-action": "players", "aria-pressed": players ? "true" : "false",
      text: players ? t("Web.Players.Back") : t("Web.Players.Show") }),
    players ? null : h("button", { type: "button", id: "new-encounter", "data-action": "new", text: t("Web.NewEncounter") }));
}

/** Describe the table's settings: the dice, passing on turns, who sees the cards */
function settings() {
  return h("fieldset", { class: "settings" }, h("legend", { text: t("Web.Settings") }),
    h("fieldset", { class: "choices" }, h("legend", { text: t("Web.DiceMode.Label") }),
      ["page", "typed"].map((mode) => h("label", { class: "choice" }, h("input", {
        type: "radio", name: "dice-mode", value: mode, checked: state.dice === mode, "data-action": "dice-mode" }),
      t(`Web.DiceMode.${mode}`)))),
    h("div", { class: "field" }, h("label", { class: "choice" }, h("input", { type: "checkbox", id: "skip",
      "data-action": "skip", checked: state.settings.skip }), t("Settings.skipSurprisedTurns.Name"))),
    // Radio buttons, not a select: a long choice wraps on a phone rather than being cut off.
    h("fieldset", { class: "choices" }, h("legend", { text: t("Settings.chatVisibility.Name") }),
      settingOf("chatVisibility").choices.map((choice) => h("label", { class: "choice" }, h("input", {
        type: "radio", name: "cards", value: choice, checked: state.settings.cards === choice, "data-action": "cards" }),
      t(`Settings.chatVisibility.Choices.${choice}`)))));
}

/** Describe the draft being prepared: the form, its odds beside it, then the table's settings and Roll */
function prepare() {
  const odds = renderOdds(state.draft);
  const { top, rest } = renderForm(state.draft);
  return [
    h("form", { key: "prepare", id: "prepare", class: "prepare", novalidate: true, "aria-labelledby": "prepare-title" },
      top, fileControls(fileProblem), rest),
    h("aside", { key: "odds", id: "odds", class: "odds", "data-ms": odds.ms.toFixed(3), tabindex: "0",
      "aria-labelledby": "odds-title" }, odds.nodes),
    h("div", { key: "roll-area", class: "roll-area" }, settings(),
      h("div", { class: "buttons" }, h("button", { type: "submit", form: "prepare", id: "roll", class: "primary",
        text: t("Dialog.Roll") }))),
  ];
}

/** Describe the whole page from the state */
function view() {
  const players = state.view.players;
  const fighting = Boolean(state.surprise);
  const main = [];
  if (fighting) {
    main.push(h("section", { key: "table", id: "table", class: "table", "aria-labelledby": "tracker-title" },
      renderTracker(state, session(), { players })));
    main.push(h("section", { key: "cards", id: "log-box", class: "log-box", "aria-labelledby": "log-title" },
      renderLog(state, { players })));
    if (!players) main.push(h("section", { key: "gm-tools", class: "late-box", "aria-labelledby": "late-title" }, renderGMTools(lateProblem)));
  }
  if (!players && fighting) {
    main.push(h("details", { key: "prepare-box", id: "prepare-box", class: "prepare-box", open: state.view.form },
      h("summary", { text: t("Web.Reopen") }), h("div", { class: "prepare-area" }, prepare())));
  } else if (!players) main.push(h("div", { key: "prepare-area", class: "prepare-area" }, prepare()));
  return [
    header(players),
    h("p", { key: "notice", id: "notice", class: "notice", role: "status", text: notice }),
    h("section", { key: "dice", id: "dice", class: "dice", hidden: !asking, "aria-live": "polite" },
      renderDice(asking, state.draft, { players })),
    h("main", { key: "main", class: `layout ${fighting ? "fighting" : "preparing"}${players ? " players" : ""}` }, main),
  ];
}

/** Show the state: only what changed reaches the page */
function update() {
  document.documentElement.lang = language();
  document.title = TITLE;
  patch(root(), view());
}

/** Change the draft and show it */
function setDraft(draft) {
  state.draft = draft;
  keep();
  update();
}

/**
 * Apply one edit of a field. A value its field cannot take (a number typed as "1O") is kept as typed: the field
 * shows it and says what is wrong beside it, and the odds and Roll wait for a value they can take.
 */
function edit(element) {
  const { draft, problem } = applyEdits(state.draft, [[element.dataset.path, readControl(element)]], t, { keepTyped: true });
  if (problem) {
    notice = problem;
    update();
    return;
  }
  setDraft(draft);
}

/** Rename a combatant, and every choice that named him (common/draft-combatants.js) */
function rename(id, raw) {
  const draft = renameCombatant(state.draft, id, raw);
  if (draft) setDraft(draft);
}

/** Add a combatant to a side, with the rules' defaults and a name no other has; his name field gets the focus */
function addTo(side) {
  const { draft, member } = addCombatant(state.draft, side, nextId(), (number) => t("Web.NewName", { number }));
  setDraft(draft);
  byId(idOf("name", member.id))?.focus();
  byId(idOf("name", member.id))?.select(); // typing replaces the name given
}

/** Remove a combatant, and every choice that named him; the focus goes to the next combatant, or to adding one */
function remove(id) {
  const listed = everyone(state.draft);
  const index = listed.findIndex(([, member]) => member.id === id);
  const draft = removeCombatant(state.draft, id);
  if (!draft) return;
  setDraft(draft);
  const next = listed[index + 1]?.[1] ?? listed[index - 1]?.[1];
  (next ? byId(idOf("name", next.id)) : document.querySelector(`[data-add="${listed[index][0] === "b" ? "b" : "a"}"]`))?.focus();
}

/** Read a scenario file's text into the draft; a bad file is one line, and the draft stays as it was */
function openFile(text, name) {
  const before = state.nextId;
  const { draft, problem } = readScenarioFile(text, name, nextId, t);
  fileProblem = problem ?? "";
  if (problem) {
    state.nextId = before;
    update();
    return;
  }
  setDraft(draft);
}

/** Export the draft as a scenario file: downloaded, and shown in the paste box to copy */
function exportFile() {
  try {
    const text = scenarioText(state.draft, t);
    byId("file-text").value = text;
    fileProblem = "";
    download("scenario.toml", text, "application/toml");
  } catch (error) {
    fileProblem = error.message;
  }
  update();
}

/** Bring the row whose turn it is into the order's view, and the order into the window's, moving as little as can be */
function showCurrentTurn() {
  document.querySelector("#order li.current")?.scrollIntoView({ block: "nearest" });
}

/**
 * Run one session action on the state: the table's work one task at a time, the buttons off meanwhile. A failure or a
 * cancelled roll puts the state back as it was before the action. Resolves true when the action went through.
 */
function act(action) {
  if (busy) return Promise.resolve(false);
  busy = true;
  const before = kept ?? JSON.stringify(state);
  document.body.classList.add("busy");
  let done = false;
  return queued(async () => {
    notice = "";
    lateProblem = null;
    acting = true;
    state.actions = (state.actions ?? 0) + 1;
    try {
      await action();
      done = true;
    } catch (error) {
      state = JSON.parse(before);
      notice = t("Web.Error", { message: error?.message ?? String(error) });
    } finally {
      acting = false;
    }
    keep();
  }, () => {}).finally(() => {
    busy = false;
    asking = null;
    document.body.classList.remove("busy");
    update();
  }).then(() => done);
}

/**
 * Roll the draft: asked first while a fight runs; refused, with the field named and focused, while a value cannot
 * be taken. The members in the draft's order become the turn order, then the session resolves; the fight comes
 * into view, the draft folds away.
 */
async function roll() {
  const problem = firstNameProblem(state.draft) ?? scenarioFromDraft(state.draft, t).problem ?? null;
  if (problem) {
    notice = t("Web.CannotRoll", { problem });
    update();
    document.querySelector("#prepare [aria-invalid=true]")?.focus();
    return;
  }
  if (state.surprise && !window.confirm(t("Web.RollConfirm"))) return;
  const rolled = await act(async () => {
    const order = SIDE_KEYS.flatMap((key) => state.draft.sides[key].members.map((member) => member.id));
    state.table = newTracker(order);
    state.turns = [];
    state.log = [];
    const { problem: refused } = await session().resolve(state.draft);
    if (refused) throw new Error(refused);
    state.view.form = false;
  });
  if (rolled) {
    window.scrollTo(0, 0);
    byId("next")?.focus({ preventScroll: true });
  }
}

/** Start a new encounter: the draft, the surprise, the order and the log go; the settings and the language stay */
function newEncounter() {
  if (!window.confirm(t("Web.NewConfirm"))) return;
  state = freshState(emptyDraft(), state);
  notice = "";
  keep();
  update();
}

/** Take a combatant out of the fight, once the GM says yes; the focus goes to the next row's button, or to Next */
function takeOutOf(id) {
  if (!window.confirm(t("Web.TakeOutConfirm", { name: nameOf(state, id) }))) return;
  const index = state.table.order.indexOf(id);
  act(async () => {
    if (!(await takeOut(session(), state, id))) notice = t("Web.Stopped");
  }).then(() => {
    const next = state.table.order[Math.min(index, state.table.order.length - 1)];
    (next === undefined ? byId("next") : document.querySelector(`[data-take-out="${CSS.escape(next)}"]`))?.focus();
  });
}

/** Add the combatant the late form names to the fight: at the end of the order, acting in turn, unsurprised */
function joinLate() {
  const name = byId("late-name").value.replace(/\s+/g, " ").trim();
  const side = SIDE_KEYS.includes(byId("late-side").value) ? byId("late-side").value : SIDE_KEYS[0];
  const taken = state.table.order.some((id) => nameOf(state, id) === name);
  lateProblem = !name ? t("Web.Late.Missing") : taken ? t("Web.Late.Taken", { name }) : null;
  if (lateProblem) {
    update();
    byId("late-name").focus();
    return;
  }
  act(async () => addLate(state, nextId(), name, side)).then(() => {
    byId("late-name").value = "";
    byId("late-name").focus();
  });
}

/** Read the faces the GM typed for the roll asked: on to the rules, or what is wrong beside the dice */
function useDice() {
  const inputs = [...byId("dice").querySelectorAll("input")];
  const faces = typedFaces(inputs.map((input) => input.value), asking.count, asking.sides);
  if (!faces) {
    asking.problem = t("Web.Dice.Bad", { sides: asking.sides });
    update();
    inputs.find((input) => typedFaces([input.value], 1, asking.sides) === null)?.focus();
    return;
  }
  const { resolve } = asking;
  asking = null;
  update();
  resolve(faces);
}

/** The GM cancels the roll asked: the action is undone */
function cancelDice() {
  const { reject } = asking;
  asking = null;
  update();
  reject(new Error(t("Web.Dice.Cancelled")));
}

/** Change how the page is shown, and keep it */
function setView(change) {
  state.view = { ...state.view, ...change };
  keep();
  update();
}

function onClick(event) {
  // The folded form opens and closes by the state, at once: a reload a moment later finds it as the GM left it.
  if (event.target.closest("#prepare-box > summary")) {
    event.preventDefault();
    setView({ form: !state.view.form });
    return;
  }
  const target = event.target.closest("button, input[type=radio]");
  if (!target) return;
  const action = target.dataset.action;
  if (action === "cancel-dice" && asking) cancelDice();
  else if (action === "players") setView({ players: !state.view.players });
  if (busy) return;
  if (target.dataset.add) addTo(target.dataset.add);
  else if (target.dataset.remove) remove(target.dataset.remove);
  else if (target.dataset.takeOut) takeOutOf(target.dataset.takeOut);
  else if (action === "new") newEncounter();
  else if (action === "read-file") openFile(byId("file-text").value, "");
  else if (action === "export-file") exportFile();
  else if (action === "next") {
    act(async () => {
      if (!(await nextTurn(session(), state))) notice = t("Web.Stopped");
    }).then(showCurrentTurn);
  } else if (action === "previous") act(() => previousTurn(session(), state)).then(showCurrentTurn);
  else if (action === "clear") act(() => session().clear());
}

function onChange(event) {
  const target = event.target;
  const action = target.dataset.action;
  if (action === "show-gm") setView({ gmCards: target.checked });
  if (busy && action !== undefined) return;
  if (action === "language") {
    state.language = setLanguage(target.value);
    keep();
    update();
  } else if (action === "procedure" && target.checked) setDraft(changeProcedure(state.draft, target.value));
  else if (action === "dice-mode") {
    state.dice = target.value === "typed" ? "typed" : "page";
    keep();
    update();
  } else if (action === "skip") {
    state.settings.skip = target.checked;
    keep();
  } else if (action === "cards" && target.checked) {
    state.settings.cards = target.value;
    keep();
    update();
  } else if (action === "open-file" && target.files?.[0]) {
    const file = target.files[0];
    file.arrayBuffer().then((bytes) => openFile(bytes, file.name)); // bytes: bad UTF-8 refused, not replaced
  } else if (target.dataset.rename) rename(target.dataset.rename, target.value);
  else if (target.dataset.sideName) {
    const draft = JSON.parse(JSON.stringify(state.draft));
    draft.sides[target.dataset.sideName].name = target.value;
    setDraft(draft);
  } else if (target.dataset.path) edit(target);
}

function onInput(event) {
  const target = event.target;
  if (target.dataset.path && target.tagName === "INPUT" && target.type === "text") typing(target, () => edit(target));
}

function onSubmit(event) {
  event.preventDefault();
  const form = event.target;
  if (form.classList.contains("dice-form")) {
    if (asking) useDice();
  } else if (busy) return;
  else if (form.id === "prepare") roll();
  else if (form.id === "late") joinLate();
}

/** Start the page: every part of the kept state that can be read (store.js), then the page; what could not, named above it */
async function start() {
  const opened = await openStore(emptyDraft);
  state = opened.state;
  kept = JSON.stringify(state);
  setLanguage(state.language);
  if (opened.report.unavailable) notice = t("Web.NotKept");
  const app = root();
  app.addEventListener("click", onClick);
  app.addEventListener("change", onChange);
  app.addEventListener("input", onInput);
  app.addEventListener("submit", onSubmit);
  try {
    update();
  } catch {
    // A kept part the checks passed and the page still cannot show: it starts without the draft and the fight, named.
    state = opened.afresh();
    kept = JSON.stringify(state);
    update();
  }
  showKeptNotice(opened.report, app);
}

export { start };
