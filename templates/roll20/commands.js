// The chat commands (the campaign's command, !surprise by default): help, and for GMs resolve, set, draft, odds, export,
// roll, clear, status, config, turn.
import { PROCEDURES, TITLE, VERSION } from "../common/config.js";
import { label, list, yesNo } from "../common/format.js";
import { procedureDef } from "../common/draft.js";
import { draftCard, editDraft, exportCard, memberCard, oddsCard, PAGE_SIZE, present, startDraft } from "./draft-card.js";
import { gameSession, resolveDraft, serialized } from "./host.js";
import { warnSharedMarker, warnUnknownMarkers } from "./markers.js";
import { passingWay } from "./neighbours.js";
import { CARDS, store } from "./state.js";
import { after, button, card, COMMAND, HE, language, LANGUAGES, markup, notice, promptText, t, textLines, toGM, toPlayer } from "./text.js";
import { readTurnorder, turnorderTokens } from "./turnorder.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
export const STRING_KEYS = [
  "Dialog.Roll", "Dialog.Title", "Export.Button", "Export.Help", "Format.Label", "Notify.GMOnly", "Notify.Invalid",
  "Notify.NoSurprise", "Odds.Help",
  "Odds.Title", "Procedure.{procedure}", "Roll20.Cleared", "Roll20.Config.*", "Roll20.Help.*", "Roll20.NoDraft",
  "Roll20.NoTokens", "Roll20.Passing.*", "Roll20.ShowDraft", "Settings.chatVisibility.Choices.*"
];

/** Names a key from chat may not take: they are an object's own machinery, never data */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Parse "--key value" pairs of a command into an object without a prototype, so that no key from chat reaches
 * Object.prototype of the game's shared sandbox; returns {args}, or {problem} for a key that names object machinery
 */
function parseArgs(content) {
  const args = Object.create(null);
  const parts = content.replace(/<br\/>\n/g, " ").split(/\s+--/).slice(1);
  for (const part of parts) {
    const [key, ...rest] = part.trim().split(/\s+/);
    if (!key) continue;
    const name = key.toLowerCase();
    if (FORBIDDEN_KEYS.has(name)) return { problem: t("Notify.Invalid", { name: t("Dialog.Title"), field: name }) };
    args[name] = rest.join(" ");
  }
  return { args };
}

/** Read a setting switched in chat: true or false, nothing else */
const switchValue = (text) => ({ true: true, false: false })[String(text).trim().toLowerCase()];

/** Replace $[[n]] inline roll markers with their totals (docs/dev/roll20.md §3) */
const withInlineRolls = (msg) =>
  (msg.inlinerolls ?? []).reduce((text, roll, index) => text.replaceAll(`$[[${index}]]`, String(roll.results?.total ?? 0)), msg.content);

/** Say how the script passes the turns of those who may not act in this game, and which scripts that concerns */
function passingLine() {
  const way = passingWay();
  return t(`Roll20.Passing.${way.by}`, { scripts: list(way.scripts, language()) });
}

/** The help card, headed by the campaign's title (docs/campaign.md), with a button per command */
const helpCard = () => card(`${TITLE} ${VERSION}`, [
  ...textLines([t("Roll20.Help.Intro"), passingLine()]),
  ...PROCEDURES.map((p) => button(t(`Procedure.${p.id}`), `${COMMAND} resolve --procedure ${p.id}`)),
  ...after(button(t("Roll20.Help.Draft"), `${COMMAND} draft`), t("Roll20.Help.DraftText")),
  ...after(button(t("Dialog.Roll"), `${COMMAND} roll`), t("Roll20.Help.RollText")),
  ...after(button(t("Odds.Title"), `${COMMAND} odds`), t("Odds.Help")),
  ...after(button(t("Export.Button"), `${COMMAND} export`), t("Export.Help")),
  ...after(button(t("Roll20.Help.Status"), `${COMMAND} status`), t("Roll20.Help.StatusText")),
  ...after(button(t("Roll20.Help.Clear"), `${COMMAND} clear`), t("Roll20.Help.ClearText")),
  ...after(button(t("Roll20.Help.Config"), `${COMMAND} config`), t("Roll20.Help.ConfigText")),
]);

/** The configuration card */
function configCard() {
  const config = store().config;
  const toggle = (key) => button(label(t, t(`Roll20.Config.${key}`), yesNo(config[key], t)), `${COMMAND} config --${key} ${config[key] ? "false" : "true"}`);
  const cards = CARDS.map((mode) => button(`${config.cards === mode ? "✓ " : ""}${t(`Settings.chatVisibility.Choices.${mode}`)}`,
    `${COMMAND} config --cards ${mode}`)).join("");
  const marker = textLines([label(t, t("Roll20.Config.marker"), config.marker)]);
  marker.push(`${marker.pop()} ${button("✎", `${COMMAND} config --marker ?{${promptText(t("Roll20.Config.marker"))}|${promptText(config.marker)}}`)}`);
  return card(t("Roll20.Help.Config"), [
    toggle("automation"), toggle("skip"), markup("Format.Label", { label: HE(t("Roll20.Config.cards")), value: cards }), ...marker,
    markup("Format.Label", { label: HE(t("Roll20.Config.language")),
      value: LANGUAGES.map((code) => button(code, `${COMMAND} config --language ${code}`)).join("") }),
  ]);
}

/** Whisper the GM the draft's card, or say there is no draft */
const withDraft = (show) => (store().draft ? toGM(show(store().draft)) : notice(t("Roll20.NoDraft")));

/**
 * The card to show after a change of the draft: the combatant's own card after a change of his values, else the page
 * of the draft that shows what changed (a moved combatant where he now stands, an opening attack), or the page the
 * change was made on
 */
function afterEdit(draft, args) {
  if ("token" in args && "join" in args) return draftCard(draft, 1, args.token);
  if ("token" in args) return memberCard(draft, args.token);
  if ("opener" in args) return draftCard(draft, Math.floor(Number(args.opener) / PAGE_SIZE) + 1);
  return draftCard(draft, args.page);
}

/** Handle one !surprise command */
async function handleCommand(msg) {
  const content = withInlineRolls(msg);
  const [, sub = "help"] = content.trim().split(/\s+/);
  const { args, problem: badArgs } = parseArgs(content);
  const isGM = playerIsGM(msg.playerid) || msg.playerid === "API";
  if (sub === "help") return toPlayer(msg.playerid, helpCard());
  if (!isGM) return toPlayer(msg.playerid, card(t("Dialog.Title"), textLines([t("Notify.GMOnly")])));
  if (badArgs) return notice(badArgs);
  const saved = store();
  switch (sub) {
    case "resolve": {
      const procedure = procedureDef(args.procedure) ? args.procedure : PROCEDURES[0].id;
      const order = readTurnorder();
      const selected = (msg.selected ?? []).map((s) => getObj("graphic", s._id)).filter(Boolean);
      const ids = args.ids ? args.ids.split(/[\s,]+/).map((id) => getObj("graphic", id)).filter(Boolean) : [];
      const tokens = ids.length ? ids : selected.length ? selected : turnorderTokens(order);
      if (!tokens.length) return notice(t("Roll20.NoTokens"));
      saved.draft = startDraft(procedure, tokens, order);
      return toGM(draftCard(saved.draft));
    }
    case "set": {
      if (!saved.draft) return notice(t("Roll20.NoDraft"));
      const { draft, problem } = editDraft(saved.draft, args, msg.selected ?? []);
      if (problem) return notice(problem);
      saved.draft = draft;
      return toGM(afterEdit(draft, args));
    }
    case "draft":
      return withDraft((draft) => ("token" in args ? memberCard(draft, args.token) : draftCard(draft, args.page)));
    case "odds":
      return withDraft(oddsCard);
    case "export":
      return withDraft(exportCard);
    case "roll": {
      if (!saved.draft) return notice(t("Roll20.NoDraft"));
      const { problem } = await resolveDraft(present(saved.draft));
      if (problem) toGM(card(t("Dialog.Title"), [...textLines([problem]), button(t("Roll20.ShowDraft"), `${COMMAND} draft`)]));
      return null;
    }
    case "clear":
      if ("draft" in args) saved.draft = null;
      else await gameSession().clear();
      return notice(t("Roll20.Cleared"));
    case "status": {
      const lines = gameSession().statusLines();
      return toGM(card(t("Roll20.Help.Status"), textLines(lines ?? [t("Notify.NoSurprise")])));
    }
    case "config": {
      for (const key of ["automation", "skip"]) {
        if (!(key in args)) continue;
        if (switchValue(args[key]) === undefined) return notice(t("Notify.Invalid", { name: t(`Roll20.Config.${key}`), field: args[key] }));
        saved.config[key] = switchValue(args[key]);
      }
      if (CARDS.includes(args.cards)) saved.config.cards = args.cards;
      if (args.marker) saved.config.marker = args.marker.trim();
      if (LANGUAGES.includes(args.language)) saved.config.language = args.language;
      toGM(configCard());
      warnSharedMarker();
      return warnUnknownMarkers();
    }
    case "turn":
      // Play the selected tokens' turns now, for tables that advance the tracker by hand.
      if (!(await gameSession().playTurns((msg.selected ?? []).map((selected) => selected._id)))) return notice(t("Notify.NoSurprise"));
      return null;
    default:
      return toPlayer(msg.playerid, helpCard());
  }
}

/** Route chat: only api messages whose first word is the script's command */
export function onChat(msg) {
  if (msg.type !== "api" || String(msg.content).trim().split(/\s+/)[0] !== COMMAND) return;
  serialized(() => handleCommand(msg));
}
