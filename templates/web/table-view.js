// The table as the page shows it: the turn tracker (round, whose turn, each combatant's statuses, what the surprise
// tracks), the cards as a log read out by screen readers as they come, and the GM's dice when they are typed in.
import { STATUSES } from "../common/config.js";
import { typedFaces } from "./dice.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [
  "Chat.ForGM", "Web.Clear", "Web.Dice.*", "Web.GM", "Web.Log", "Web.Next", "Web.NoStatus", "Web.NotStarted",
  "Web.Over", "Web.Passed", "Web.Previous", "Web.Round", "Web.Start", "Web.Tracker", "Web.Turn", "{status}",
];

/** The kinds of roll the rules ask for, each with a name the GM reads (the purpose's kind, rules/<system>.js) */
const ROLL_KINDS = ["initiative", "contest", "freeze", "recovery", "spot", "sneak-attack", "surprise"];
// The rolls the rules give a target before the dice are rolled; an initiative or a freeze roll has none.
const ROLL_TARGETS = ["contest", "recovery", "spot", "sneak-attack", "surprise"];

/** Name a status as the page's language does */
const statusLabel = (id) => t(STATUSES.find((status) => status.id === id)?.label ?? id);

/** Render the tracker of a surprise: round, order, statuses, the lines of what it tracks, and the turn buttons */
function renderTracker(state, session) {
  const { table, surprise } = state;
  const roundName = session.roundName();
  const heading = !table.started ? t("Web.NotStarted")
    : [t("Web.Round", { round: table.round }), roundName].filter(Boolean).join(": ");
  const last = state.turns.at(-1);
  const rows = table.order.map((id, index) => {
    const current = table.started && index === table.turn;
    const statuses = (table.statuses[id] ?? []).map(statusLabel);
    const passed = last && last.round === table.round && state.turns.some((turn) => turn.round === table.round && turn.id === id && turn.passed);
    return el("li", { class: current ? "current" : null, "aria-current": current ? "step" : null },
      el("span", { class: "who", text: surprise.labels[id] ?? id }),
      current ? el("span", { class: "badge", text: t("Web.Turn") }) : null,
      el("span", { class: "statuses", text: statuses.length ? statuses.join(", ") : t("Web.NoStatus") }),
      passed ? el("span", { class: "passed", text: t("Web.Passed") }) : null);
  });
  const lines = session.statusLines() ?? [];
  return [
    el("h2", { text: t("Web.Tracker") }),
    el("p", { id: "round", class: "round", "aria-live": "polite", text: heading }),
    surprise.done ? el("p", { class: "over", text: t("Web.Over") }) : null,
    el("ol", { id: "order", class: "order" }, rows),
    lines.length ? el("ul", { class: "tracked" }, lines.map((line) => el("li", { text: line }))) : null,
    el("div", { class: "buttons turn-buttons" },
      el("button", { type: "button", id: "previous", "data-action": "previous", disabled: !table.started || (table.round <= 1 && table.turn === 0), text: t("Web.Previous") }),
      el("button", { type: "button", id: "next", "data-action": "next", class: "primary", text: table.started ? t("Web.Next") : t("Web.Start") }),
      el("button", { type: "button", "data-action": "clear", text: t("Web.Clear") })),
  ];
}

/** Render one message of the log: its title, its lines, the dice behind it; a GM message says so */
function logEntry(message) {
  return el("li", { class: message.gm ? "card gm" : "card" },
    el("p", { class: "card-title" }, message.gm ? el("span", { class: "badge", text: t("Web.GM") }) : null, message.title),
    message.lines.map((line) => el("p", { text: line })),
    message.dice.length ? el("p", { class: "rolled", text: message.dice.join("; ") }) : null);
}

/** Render the log of cards, newest last, read out as each one comes (aria-live) */
const renderLog = (state) => [el("h2", { text: t("Web.Log") }),
  el("ol", { id: "log", class: "log", "aria-live": "polite", "aria-relevant": "additions" }, state.log.map(logEntry))];

/** Name who rolls: a member by his label in the draft, a side by its name */
function rollerName(draft, who) {
  const side = Object.prototype.hasOwnProperty.call(draft.sides, who) ? draft.sides[who] : null;
  if (side) return side.name || t(`Dialog.Side.${who}`);
  const members = [...Object.values(draft.sides).flatMap((entry) => entry.members), ...(draft.out ?? [])];
  return members.find((member) => member.id === who)?.name ?? who;
}

/**
 * Ask the GM for the faces of one roll: who rolls, for what, how many dice of how many sides, and, where the surprise
 * tracks it, what that combatant's roll is against. Resolves to the faces; rejects when the GM cancels.
 */
function askDice(box, { count, sides, purpose }, draft, context) {
  return new Promise((resolve, reject) => {
    const kind = ROLL_KINDS.includes(purpose?.kind) ? t(`Web.Dice.${purpose.kind}`) : String(purpose?.kind ?? "");
    const inputs = Array.from({ length: count }, (unused, index) => el("input", {
      id: `die-${index}`, type: "text", inputmode: "numeric", autocomplete: "off", required: true, "aria-describedby": "dice-problem",
    }));
    const problem = el("p", { id: "dice-problem", class: "problem", role: "alert" });
    const form = el("form", { class: "dice-form", "aria-labelledby": "dice-title" },
      el("h2", { id: "dice-title", text: t("Web.Dice.Title") }),
      el("p", { id: "dice-what", text: t("Web.Dice.What", { who: rollerName(draft, purpose?.who), kind, count, sides }) }),
      Number.isInteger(purpose?.target) && ROLL_TARGETS.includes(purpose.kind)
        ? el("p", { id: "dice-target", text: t(`Web.Dice.Target.${purpose.kind}`, { target: purpose.target }) }) : null,
      context ? el("p", { class: "dice-context", text: context }) : null,
      el("div", { class: "dice-inputs" }, inputs.map((input, index) => el("div", { class: "field" },
        el("label", { for: input.id, text: t("Web.Dice.Die", { number: index + 1, sides }) }), input))),
      problem,
      el("div", { class: "buttons" }, el("button", { type: "submit", class: "primary", text: t("Web.Dice.Use") }),
        el("button", { type: "button", "data-cancel": "", text: t("Web.Dice.Cancel") })));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const read = typedFaces(inputs.map((input) => input.value), count, sides);
      if (!read) {
        problem.textContent = t("Web.Dice.Bad", { sides });
        return;
      }
      box.replaceChildren();
      box.hidden = true;
      resolve(read);
    });
    form.querySelector("[data-cancel]").addEventListener("click", () => {
      box.replaceChildren();
      box.hidden = true;
      reject(new Error(t("Web.Dice.Cancelled")));
    });
    box.hidden = false;
    box.replaceChildren(form);
    inputs[0].focus();
  });
}

export { STRING_KEYS, askDice, renderLog, renderTracker };
