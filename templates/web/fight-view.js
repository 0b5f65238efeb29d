// The fight as the page shows it once rolled: the turn tracker (the round, whose turn it is, each combatant's statuses, what the
// surprise tracks, taking a combatant out and adding one who arrives late), the cards, newest first, read out by screen
// readers as they come (the GM's hidden unless he shows them, and never in the players' view), and the GM's dice when
// they are typed in.
import { SIDE_KEYS, STATUSES } from "../common/config.js";
import { label, list, sequence } from "../common/format.js";
import { h } from "./vdom.js";
import { language, t } from "./i18n.js";
import { nameOf, roundNumber } from "./tracker.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Chat.ForGM", "Dialog.Side.*", "Web.Clear", "Web.Dice.*", "Web.GM", "Web.GMCards.*", "Web.Late.*", "Web.Log",
  "Web.Next", "Web.NoStatus", "Web.NotStarted", "Web.Over", "Web.Passed", "Web.Previous", "Web.Round", "Web.Start",
  "Web.TakeOut", "Web.Tracked", "Web.Tracker", "Web.Turn", "Web.TurnOf", "{status}",
];

/** The kinds of roll the rules ask for, each with a name the GM reads (the purpose's kind, rules/<system>.js) */
const ROLL_KINDS = ["initiative", "contest", "freeze", "recovery", "spot", "sneak-attack", "surprise"];
// The rolls the rules give a target before the dice are rolled; an initiative or a freeze roll has none.
const ROLL_TARGETS = ["contest", "recovery", "spot", "sneak-attack", "surprise"];

/** Name a status as the page's language does */
const statusLabel = (id) => t(STATUSES.find((status) => status.id === id)?.label ?? id);

/** Return the tracker's heading: the round as the table numbers it, or the part of the surprise it plays */
function roundHeading(table, roundName) {
  if (!table.started) return t("Web.NotStarted");
  return roundName ?? t("Web.Round", { round: roundNumber(table) });
}

/** Render one row of the turn order: who, whose turn it is, his statuses, a turn passed on, and taking him out */
function orderRow(state, id, index, { passed, sides, players }) {
  const { table } = state;
  const current = table.started && index === table.turn;
  const statuses = (table.statuses[id] ?? []).map(statusLabel);
  const name = nameOf(state, id);
  const side = sides.get(id) ?? null;
  return h("li", { key: id, class: [current ? "current" : "", side ? `place-${side}` : ""].join(" ").trim() || null,
    "aria-current": current ? "step" : null },
  h("div", { class: "row" },
    h("span", { class: "info" },
      h("span", { class: "who", text: name }),
      current ? h("span", { class: "badge", text: t("Web.Turn") }) : null,
      h("span", { class: "statuses", text: statuses.length ? list(statuses, language()) : t("Web.NoStatus") }),
      passed.has(id) ? h("span", { class: "passed", text: t("Web.Passed") }) : null),
    players ? null : h("button", { type: "button", class: "small", "data-take-out": id,
      "aria-label": label(t, t("Web.TakeOut"), name), text: t("Web.TakeOut") })));
}

/** Render the form for a combatant who arrives late: his name and side; he acts in turn, unsurprised */
function lateForm(problem) {
  return h("form", { id: "late", class: "late", "aria-labelledby": "late-title", novalidate: true },
    h("h2", { id: "late-title", text: t("Web.Late.Title") }),
    h("div", { class: "field" }, h("label", { for: "late-name", text: t("Web.Late.Name") }),
      h("input", { id: "late-name", type: "text", autocomplete: "off", "aria-describedby": "late-problem",
        "aria-invalid": problem ? "true" : null })),
    h("div", { class: "field" }, h("label", { for: "late-side", text: t("Web.Late.Side") }),
      h("select", { id: "late-side" }, SIDE_KEYS.map((key) => h("option", { value: key, text: t(`Dialog.Side.${key}`) })))),
    h("div", { class: "buttons" }, h("button", { type: "submit", text: t("Web.Late.Add") })),
    h("span", { id: "late-problem", class: "problem", "aria-live": "polite", text: problem ?? "" }));
}

/** Render what else the GM does to a running fight: add a late arrival, or end the surprise */
const renderGMTools = (lateProblem) => [lateForm(lateProblem),
  h("div", { class: "buttons" }, h("button", { type: "button", id: "clear", "data-action": "clear", text: t("Web.Clear") }))];

/**
 * Render the tracker of a surprise: round, whose turn, the turn buttons, the order with statuses, the lines of what
 * the surprise tracks; in the GM's view also taking combatants out
 */
function renderTracker(state, session, { players = false } = {}) {
  const { table, surprise } = state;
  const last = state.turns.at(-1);
  const passed = new Set(last && last.round === table.round
    ? state.turns.filter((turn) => turn.round === table.round && turn.passed).map((turn) => turn.id) : []);
  const lines = session.statusLines() ?? [];
  const currentId = table.started ? table.order[table.turn] : undefined;
  const sides = new Map(SIDE_KEYS.flatMap((key) => surprise.scenario.sides[key].members.map((member) => [member.name, key])));
  for (const [id, late] of Object.entries(table.late ?? {})) sides.set(id, late.side);
  return [
    h("h2", { id: "tracker-title", text: t("Web.Tracker") }),
    h("p", { id: "round", class: "round", "aria-live": "polite", text: roundHeading(table, session.roundName(table.round)) }),
    currentId !== undefined ? h("p", { id: "turn-of", class: "turn-of", text: t("Web.TurnOf", { name: nameOf(state, currentId) }) }) : null,
    surprise.done ? h("p", { class: "over", text: t("Web.Over") }) : null,
    h("div", { class: "buttons turn-buttons" },
      h("button", { type: "button", id: "next", "data-action": "next", class: "primary",
        text: table.started ? t("Web.Next") : t("Web.Start") }),
      h("button", { type: "button", id: "previous", "data-action": "previous",
        disabled: !table.started || (table.round <= 1 && table.turn === 0), text: t("Web.Previous") })),
    h("ol", { id: "order", class: "order", tabindex: "0", "aria-labelledby": "tracker-title" },
      table.order.map((id, index) => orderRow(state, id, index, { passed, sides, players }))),
    lines.length ? h("ul", { id: "tracked", class: "tracked", tabindex: "0", "aria-label": t("Web.Tracked") },
      lines.map((line) => h("li", { text: line }))) : null,
  ];
}

/** Render one message of the log: its title, its lines, the dice behind it; a GM message says so */
const logEntry = (message, index) => h("li", { key: `card ${index}`, class: message.gm ? "card gm" : "card" },
  h("p", { class: "card-title" }, message.gm ? h("span", { class: "badge", text: t("Web.GM") }) : null, message.title),
  message.lines.map((line) => h("p", { text: line })),
  message.dice.length ? h("p", { class: "rolled", text: sequence(t, message.dice) }) : null);

/**
 * Render the cards, newest first (the messages of one action in the order they came), read out as each comes
 * (aria-live). The GM's cards show only when he shows them, and never in the players' view.
 */
function renderLog(state, { players = false } = {}) {
  const showGM = !players && state.view.gmCards;
  const groups = [];
  state.log.forEach((message, index) => {
    if (message.gm && !showGM) return;
    const action = message.action ?? index;
    if (groups.at(-1)?.action === action) groups.at(-1).entries.push(logEntry(message, index));
    else groups.push({ action, entries: [logEntry(message, index)] });
  });
  const hidden = showGM ? 0 : state.log.filter((message) => message.gm).length;
  return [
    h("h2", { id: "log-title", text: t("Web.Log") }),
    players ? null : h("div", { class: "field" }, h("label", { class: "choice" },
      h("input", { type: "checkbox", id: "show-gm", "data-action": "show-gm", checked: showGM }), t("Web.GMCards.Show"),
      hidden ? h("span", { class: "hidden-cards", text: t("Web.GMCards.Hidden", { count: hidden }) }) : null)),
    h("ol", { id: "log", class: "log", tabindex: "0", "aria-labelledby": "log-title", "aria-live": "polite",
      "aria-relevant": "additions" }, groups.reverse().map((group) => group.entries)),
  ];
}

/** Name who rolls: a member by his label in the draft, a side by its name */
function rollerName(draft, who) {
  const side = Object.prototype.hasOwnProperty.call(draft.sides, who) ? draft.sides[who] : null;
  if (side) return side.name || t(`Dialog.Side.${who}`);
  const members = [...Object.values(draft.sides).flatMap((entry) => entry.members), ...(draft.out ?? [])];
  return members.find((member) => member.id === who)?.name ?? who;
}

/**
 * Render the GM's dice form for one roll the rules ask for: who rolls, for what, how many dice of how many sides,
 * and, in the GM's view, what the roll is against. `asking` is {number, count, sides, purpose, problem}: each request
 * its own form (its number its key), so faces typed for one roll never stand in the next.
 */
function renderDice(asking, draft, { players = false } = {}) {
  if (!asking) return [];
  const { count, sides, purpose } = asking;
  const kind = ROLL_KINDS.includes(purpose?.kind) ? t(`Web.Dice.${purpose.kind}`) : String(purpose?.kind ?? "");
  const target = !players && Number.isInteger(purpose?.target) && ROLL_TARGETS.includes(purpose.kind);
  return [h("form", { key: `dice ${asking.number}`, class: "dice-form", "aria-labelledby": "dice-title", novalidate: true },
    h("h2", { id: "dice-title", text: t("Web.Dice.Title") }),
    h("p", { id: "dice-what", text: t("Web.Dice.What", { who: rollerName(draft, purpose?.who), kind, count, sides }) }),
    target ? h("p", { id: "dice-target", text: t(`Web.Dice.Target.${purpose.kind}`, { target: purpose.target }) }) : null,
    h("div", { class: "dice-inputs" }, Array.from({ length: count }, (unused, index) => h("div", { class: "field" },
      h("label", { for: `die-${index}`, text: t("Web.Dice.Die", { number: index + 1, sides }) }),
      h("input", { id: `die-${index}`, type: "text", inputmode: "numeric", autocomplete: "off", required: true,
        "aria-describedby": "dice-problem", "aria-invalid": asking.problem ? "true" : null })))),
    h("p", { id: "dice-problem", class: "problem", role: "alert", text: asking.problem ?? "" }),
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", text: t("Web.Dice.Use") }),
      h("button", { type: "button", "data-action": "cancel-dice", text: t("Web.Dice.Cancel") })))];
}

export { STRING_KEYS, renderDice, renderGMTools, renderLog, renderTracker };
