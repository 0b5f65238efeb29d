// A behavioural model of GroupInitiative, for ambush's emulated Roll20 sandbox (tests only; never shipped).
//
// Models: GroupInitiative 0.9.41 by The Aaron, in Roll20/roll20-api-scripts at commit 9d634d31, file
// `GroupInitiative/0.9.41/GroupInitiative.js` (the latest version; `GroupInitiative/GroupInitiative.js` is the same
// text). Written in our own words from reading that file: none of its code is copied. Line numbers below are that
// file's. Marks: [I] inferred, [U] not verified (as in docs/dev/roll20.md). Only what changes the turn order, the hook
// other scripts use, and the chat that goes with them are modelled.
//
// What a GM gets (checkInstall, lines 586-680; a fresh state at lines 653-673), kept in state.GroupInitiative as the
// script does, so a test changes a setting by writing state.GroupInitiative.config after ready, or with the GM's
// `!group-init-config --<option>|<value>` (lines 2046-2240). The settings that change the turn order:
//   sortOption "Descending"     how every write sorts the order: "Descending" (highest pr first), "Ascending", "None"
//   preserveFirst true          after sorting new rolls in, rotate so the row that was first stays first (a fresh
//                               install; a game upgraded from schema 1.2 or older gets false, line 646)
//   autoOpenInit true           open the tracker on the rolled tokens' page after rolling; --clear closes it
//   replaceRoll false           roll again for selected tokens already in the order (else they are left alone)
//   rollType "Individual-Roll"  "Least-All-Roll" and "Mean-All-Roll" give every rolled token one result,
//                               "Constant-By-Stat" rolls no die
//   dieSize 20, diceCount 1, maxDecimal 2, announcer "Partial" ("None", "Hidden", "Visible")
//   bonusStatGroups []          the initiative bonus (see below); checkForNoConfig true whispers the GM, a second after
//                               ready, that no bonus is configured
//
// Rows it writes (makeRollsForIDs, lines 1369-1497): {id, pr: the roll's total, _pageid, custom: ""}. It reads the
// order when the command arrives and writes that order plus the new rows when the last roll comes back: what changed
// in between is overwritten. Every change it makes (rolls, --sort, --clear, --adjust, --adjust-current) is followed at
// once, in the same call, by the observers given to GroupInitiative.ObserveTurnOrderChange(handler) (lines 203-213),
// each called as handler(new turnorder string, turnorder string before the command). Like every API write, none of
// them fires change:campaign:turnorder. TurnMarker1 is such an observer.
//
// Rolls (lines 1410-1417, 1460-1495): one sendChat per token with a callback, "<index>:[[(bonus) + (<count>d<size>)]]";
// the model sends "<index>:[[<count>d<size> + <bonus>]]" (the same total: the sandbox's dice read no parentheses).
// The bonus (findInitiativeBonus, lines 1267-1357): the first stat group whose attributes all have a value; the model
// knows the adjustments "bare" and "stat-dnd" (floor((v - 10) / 2)) on numeric values; other adjustments, attributes
// holding formulas, dice modifiers and decimal bonuses are not modelled.
//
// Not modelled: the help handout and help texts (a short whisper stands for them), the stack commands (--stack, lines
// 1640-1846), --promote, --del-group, --show-sheets, --toggle-turnorder, standard configurations, Beacon computed
// attributes, schema migrations (another schema version gets a fresh state).
//
// [U] getObj: the script drops ids whose getObj is `undefined` (line 1384); Roll20's type definitions say getObj gives
// null, and then the next step (lines 1385-1388) would throw for a deleted token. The model drops missing tokens.

const GroupInitiative = (() => { // eslint-disable-line no-unused-vars
  "use strict";

  const scriptName = "GroupInitiative";
  const version = "0.9.41";
  const schemaVersion = 1.3;
  const observers = { turnOrderChange: [] };

  const config = () => state[scriptName].config;
  const whoIs = (playerid) => (getObj("player", playerid) || { get: () => "API" }).get("_displayname");
  const whisper = (who, html) => sendChat(scriptName, `/w "${who}" <div>${html}</div>`);

  /** checkInstall (lines 586-680): a fresh state (lines 653-673) unless one of this schema is there */
  const checkInstall = () => {
    log(`-=> ${scriptName} v${version} <=-  [behavioural model]`);
    if (!state[scriptName] || state[scriptName].version !== schemaVersion) {
      state[scriptName] = {
        version: schemaVersion,
        lastHelpVersion: version,
        bonusStatGroups: [],
        savedTurnOrders: [],
        config: {
          rollType: "Individual-Roll", replaceRoll: false, dieSize: 20, diceCount: 1, maxDecimal: 2,
          diceCountAttribute: "", diceMod: "", checkForNoConfig: true, autoOpenInit: true, sortOption: "Descending",
          preserveFirst: true, announcer: "Partial",
        },
      };
    }
    // checkForNoConfig (lines 578-584): a second after ready, the GM learns that no bonus is configured
    if (config().checkForNoConfig && state[scriptName].bonusStatGroups.length === 0) {
      setTimeout(() => {
        sendChat(scriptName, "/w gm <div>GroupInitiative has no Bonus Stat Groups configured. "
          + '<a href="!group-init --help">Online Help</a> <a href="!group-init-config --toggle-check-for-no-config">Hide it</a></div>');
      }, 1000);
    }
  };

  // -------------------------------------------------------------------------------------------
  // Observers and sorting

  /** ObserveTurnOrderChange (lines 203-207): keep a function to call after each change of the order */
  const observeTurnOrderChange = (handler) => {
    if (typeof handler === "function") observers.turnOrderChange.push(handler);
  };

  /** notifyObservers (lines 209-213) */
  const notify = (now, before) => observers.turnOrderChange.forEach((handler) => handler(now, before));

  /**
   * The sorters (lines 29-59): "Descending" puts the highest pr first, "Ascending" the lowest ("None" leaves the order).
   * pr is compared as a number (text that is no number ties). With keepFirst, the sorted order is rotated so that the
   * row that was first before sorting is first again.
   */
  const sortRows = (rows, keepFirst) => {
    const option = config().sortOption;
    if (option !== "Descending" && option !== "Ascending") return rows;
    const first = rows[0];
    rows.sort(option === "Descending" ? (a, b) => b.pr - a.pr : (a, b) => a.pr - b.pr);
    if (!keepFirst) return rows;
    const at = rows.indexOf(first);
    return [...rows.slice(at), ...rows.slice(0, at)];
  };

  const readOrder = () => {
    const raw = Campaign().get("turnorder");
    return raw === "" ? [] : JSON.parse(raw);
  };

  // -------------------------------------------------------------------------------------------
  // Rolling

  /** The bonus of a token's character: the first stat group whose attributes all have numeric values (simplified) */
  const bonusOf = (character) => {
    if (!character) return 0;
    for (const group of state[scriptName].bonusStatGroups) {
      const values = group.map((entry) => {
        const raw = getAttrByName(character.id, entry.attribute, entry.type || "current");
        if (raw === undefined || raw === null || Number.isNaN(Number(raw))) return NaN;
        const value = parseFloat(raw);
        const dnd = (entry.adjustments || []).some((a) => a.split(":")[0].toLowerCase() === "stat-dnd");
        return dnd ? Math.floor((value - 10) / 2) : value;
      });
      if (values.every((value) => !Number.isNaN(value))) return values.reduce((sum, value) => sum + value, 0);
    }
    return 0;
  };

  const signed = (n) => (n < 0 ? ` - ${-n}` : ` + ${n}`);

  /** buildAnnounceGroups and the announcers (lines 263-356): who sees the rolls */
  const announce = (rolled) => {
    const groups = { character: [], npc: [], gmlayer: [] };
    rolled.forEach(({ token, character, total }) => {
      let kind = "npc";
      if (token.get("layer") === "gmlayer") kind = "gmlayer";
      else if (character && character.get("controlledby").split(",").some((id) => id === "all" || (id !== "" && !playerIsGM(id)))) kind = "character";
      const name = token.get("name") || (character && character.get("name")) || "(Creature)";
      groups[kind].push(`<div>${name} ${total}</div>`);
    });
    const post = (to, entries) => { if (entries.length) sendChat(scriptName, `${to} <div>${entries.join("")}</div>`); };
    switch (config().announcer) {
      case "Hidden": post("/w gm", [...groups.character, ...groups.npc, ...groups.gmlayer]); break;
      case "Partial": post("/direct", groups.character); post("/w gm", [...groups.npc, ...groups.gmlayer]); break;
      case "Visible": post("/direct", [...groups.character, ...groups.npc]); post("/w gm", groups.gmlayer); break;
      default: break;
    }
  };

  /**
   * makeRollsForIDs (lines 1369-1497). Reads the order now; drops the rows of the tokens to roll again (replaceRoll, or
   * a reroll); rolls for each token not in it (tokens already in the order are skipped); when every roll has come back
   * (in sendChat callbacks), writes the order read at the start plus the new rows, sorted (keeping the first row when
   * preserveFirst), tells the observers, and opens the tracker on the first rolled token's page when autoOpenInit:
   * the script tests `Campaign().get('initativepage')` (sic, line 1453), which is always undefined, so it always
   * writes initiativepage then. Nothing happens when no token is left to roll for.
   */
  const rollFor = async (ids, { isReroll = false, manualBonus = 0, prev } = {}) => {
    let order = readOrder();
    if (config().replaceRoll || isReroll) order = order.filter((row) => !ids.includes(row.id));
    const present = order.map((row) => row.id);
    const setups = ids.filter((id) => !present.includes(id))
      .map((id) => getObj("graphic", id))
      .filter((token) => token) // [U] see the header
      .map((token) => ({ token, character: getObj("character", token.get("represents")) }));
    // The script awaits its bonus look-ups before it rolls: the other handlers of the same message run first
    await null;
    if (setups.length === 0) return;
    const results = [];
    const finish = () => {
      results.sort((a, b) => a.order - b.order);
      let entries = results;
      if (config().rollType === "Least-All-Roll") {
        const least = results.reduce((min, r) => (!min || r.total < min.total ? r : min), null);
        entries = results.map(() => least);
      } else if (config().rollType === "Mean-All-Roll") {
        const middle = results[Math.round(results.length / 2 - 0.5)];
        entries = results.map(() => middle);
      }
      const rolled = setups.map((setup, i) => ({ ...setup, total: entries[i].total }));
      announce(rolled);
      const rows = rolled.map(({ token, total }) => ({ id: token.id, pr: total, _pageid: token.get("pageid"), custom: "" }));
      Campaign().set({ turnorder: JSON.stringify(sortRows(order.concat(rows), config().preserveFirst)) });
      notify(Campaign().get("turnorder"), prev);
      if (config().autoOpenInit) Campaign().set({ initiativepage: setups[0].token.get("pageid") });
    };
    setups.forEach((setup, index) => {
      const dice = config().rollType === "Constant-By-Stat" ? "0" : `${config().diceCount}d${config().dieSize}`;
      let expression = dice + signed(bonusOf(setup.character));
      if (manualBonus) expression += signed(manualBonus);
      sendChat("", `${index}:[[${expression}]]`, (ops) => {
        const [orderText, rollText] = ops[0].content.split(":");
        const total = ops[0].inlinerolls[Number(/\d+/.exec(rollText)[0])].results.total;
        results.push({ order: parseInt(orderText, 10), total: total % 1 === 0 ? total : parseFloat(total.toFixed(config().maxDecimal)) });
        if (results.length === setups.length) finish();
      });
    });
  };

  /** RollForTokenIDs (lines 1359-1367): other scripts' entry point; the roll starts in a timer, after the caller */
  const rollForTokenIDs = (ids, options) => {
    if (!Array.isArray(ids)) return;
    setTimeout(() => rollFor(ids, {
      isReroll: false, prev: Campaign().get("turnorder"), manualBonus: parseFloat(options && options.manualBonus) || 0,
    }), 0);
  };

  // -------------------------------------------------------------------------------------------
  // Commands (handleInput, lines 1500-2244)

  const number = /^[-+]?\d+(\.\d+)?$/;

  /** --adjust and --adjust-current (lines 1939-1996): pr plus the adjustment, at least the minimum, as text */
  const adjust = (cmds, onlyFirst, who, prev) => {
    if (!(cmds[1] && number.test(cmds[1]))) {
      whisper(who, `Not a valid adjustment: <b>${cmds[1]}</b>`);
      return;
    }
    const by = parseFloat(cmds[1]);
    const least = Number.isNaN(parseFloat(cmds[2])) ? -10000 : parseFloat(cmds[2]);
    const rows = (JSON.parse(Campaign().get("turnorder")) || []).map((row, i) => {
      if (row.id !== "-1" && (!onlyFirst || i === 0)) {
        const pr = Number.isNaN(parseFloat(row.pr)) ? 0 : parseFloat(row.pr);
        row.pr = Math.max(pr + by, least).toFixed(config().maxDecimal);
      }
      return row;
    });
    Campaign().set({ turnorder: JSON.stringify(rows) });
    notify(Campaign().get("turnorder"), prev);
  };

  /** --add-group (lines 1572-1639), simplified: "--Bare <attribute>[|max]" or "--Stat-DnD <attribute>[|max]" entries */
  const addGroup = (args, who) => {
    const group = [];
    for (const arg of args) {
      const [adjustment, target] = arg.split(/\s+(.+)/);
      const name = adjustment.split(":")[0].toLowerCase();
      if (name !== "bare" && name !== "stat-dnd") {
        log(`[${scriptName} model] the adjustment ${adjustment} is not modelled; no group added`);
        return;
      }
      if (!target) return;
      const [attribute, type] = target.split("|");
      group.push({ attribute, ...(name === "stat-dnd" ? { adjustments: [adjustment] } : {}), ...(type === "max" ? { type: "max" } : {}) });
    }
    state[scriptName].bonusStatGroups.push(group);
    whisper(who, `Bonus Stat Group ${state[scriptName].bonusStatGroups.length} added`);
  };

  const groupInit = async (msg, args, who, prev) => {
    let ids = (msg.selected || []).map((o) => o._id);
    let isReroll = false;
    let manualBonus = 0;
    let roll = args.length === 0;
    if (args.length > 0) {
      const cmds = args.shift().split(/\s+/);
      const gm = playerIsGM(msg.playerid);
      switch (cmds[0]) {
        case "ids":
          if (gm || msg.playerid === "api") { // sic: a script's messages come from "API" (line 1557)
            ids = [...new Set([...ids, ...cmds.slice(1)])];
            roll = true;
          }
          break;
        case "add-group":
          if (gm) addGroup(args, who);
          break;
        case "reroll":
          isReroll = true;
          if (cmds[1] && number.test(cmds[1])) manualBonus = parseFloat(cmds[1]) || 0;
          ids = (JSON.parse(Campaign().get("turnorder") || "[]")).filter((row) => row.id !== "-1").map((row) => row.id);
          roll = true;
          break;
        case "sort":
          if (!gm) return;
          Campaign().set("turnorder", JSON.stringify(sortRows(JSON.parse(Campaign().get("turnorder")) || [], false)));
          notify(Campaign().get("turnorder"), prev);
          break;
        case "adjust":
        case "adjust-current":
          if (gm) adjust(cmds, cmds[0] === "adjust-current", who, prev);
          break;
        case "clear":
          if (!gm) return;
          Campaign().set({ turnorder: "[]", initiativepage: config().autoOpenInit ? false : Campaign().get("initiativepage") });
          notify(Campaign().get("turnorder"), prev);
          break;
        case "bonus":
          if (cmds[1] && number.test(cmds[1])) {
            manualBonus = parseFloat(cmds[1]);
            roll = true;
          } else {
            whisper(who, `Not a valid bonus: <b>${cmds[1]}</b>`);
          }
          break;
        case "help":
          if (gm) whisper(who, `GroupInitiative v${version} help`);
          break;
        case "stack": case "promote": case "del-group": case "show-sheets": case "toggle-turnorder":
          log(`[${scriptName} model] --${cmds[0]} is not modelled`);
          break;
        default:
          if (gm) whisper(who, `Not a valid command: <b>${cmds[0]}</b>`);
          break;
      }
    }
    if (!roll) return;
    if (ids.length) await rollFor(ids, { isReroll, manualBonus, prev });
    else whisper(who, `GroupInitiative v${version} help`);
  };

  const CONFIG_TOGGLES = {
    "toggle-auto-open-init": "autoOpenInit", "toggle-replace-roll": "replaceRoll",
    "toggle-preserve-first": "preserveFirst", "toggle-check-for-no-config": "checkForNoConfig",
  };
  const CONFIG_CHOICES = {
    "sort-option": ["sortOption", ["None", "Ascending", "Descending"]],
    "set-announcer": ["announcer", ["None", "Hidden", "Partial", "Visible"]],
    "set-roller": ["rollType", ["Individual-Roll", "Least-All-Roll", "Mean-All-Roll", "Constant-By-Stat"]],
  };
  const CONFIG_NUMBERS = { "set-die-size": "dieSize", "set-max-decimal": "maxDecimal", "set-dice-count": "diceCount" };

  /** !group-init-config (lines 2046-2240), a GM's: each "--option|value" changes one setting and whispers it */
  const configure = (msg, args, who) => {
    if (!playerIsGM(msg.playerid)) return;
    args.forEach((arg) => {
      const [option, value] = arg.split("|");
      if (CONFIG_TOGGLES[option]) {
        config()[CONFIG_TOGGLES[option]] = !config()[CONFIG_TOGGLES[option]];
        whisper(who, `${CONFIG_TOGGLES[option]} is now ${config()[CONFIG_TOGGLES[option]] ? "On" : "Off"}`);
      } else if (CONFIG_CHOICES[option]) {
        const [key, allowed] = CONFIG_CHOICES[option];
        if (allowed.includes(value)) config()[key] = value;
        whisper(who, `${allowed.includes(value) ? "" : `Error: not valid: ${value}. `}${key} is ${config()[key]}`);
      } else if (CONFIG_NUMBERS[option]) {
        if (/^\d+$/.test(value || "")) config()[CONFIG_NUMBERS[option]] = parseInt(value, 10);
        whisper(who, `${CONFIG_NUMBERS[option]} is ${config()[CONFIG_NUMBERS[option]]}`);
      } else if (["apply-standard-config", "set-dice-count-attribute", "set-dice-mod"].includes(option)) {
        log(`[${scriptName} model] --${option} is not modelled`);
      } else {
        whisper(who, `<b>Unsupported Option:</b> ${arg}`);
      }
    });
  };

  /**
   * handleInput (lines 1500-2244): the order before the command is kept (it is the observers' "before"); API messages
   * only; inline rolls replaced by their totals; the first word picks the command.
   */
  const handleInput = async (msg) => {
    const prev = Campaign().get("turnorder");
    const who = whoIs(msg.playerid);
    if (msg.type !== "api") return;
    let content = msg.content;
    (msg.inlinerolls || []).forEach((roll, k) => { content = content.replace(`$[[${k}]]`, roll.results.total || 0); });
    const args = content.split(/\s+--/);
    const command = args.shift();
    if (command === "!group-init") await groupInit(msg, args, who, prev);
    else if (command === "!group-init-config") configure(msg, args, who);
  };

  on("ready", () => {
    checkInstall();
    on("chat:message", handleInput);
  });

  return {
    ObserveTurnOrderChange: observeTurnOrderChange,
    RollForTokenIDs: rollForTokenIDs,
  };
})();
