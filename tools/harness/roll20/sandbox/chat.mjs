// Chat as a script sees it (Mod:Chat; API-Chat; docs/dev/roll20.md §1, §3, §6): a line becomes a message after its
// queries (?{…}) are asked and its inline rolls ([[…]]) rolled. Only what the script and its buttons use is emulated:
// other syntax (macros, attribute and ability calls, templates, other slash commands) is refused, so a test fails.

import { HarnessError, isPlainObject } from "./objects.mjs";

/**
 * The most a chat message a script sends may hold, in UTF-8 bytes of sendChat's input. Roll20 documents no limit; the
 * emulation refuses a message larger than the budget the generated script keeps to, so that a card that outgrows it
 * fails a test (docs/dev/roll20.md §6.1) (harness choice)
 */
export const CHAT_LIMIT = 16384;

/**
 * Evaluate an inline roll expression: a sum of NdX dice and integers, each term optionally [labelled]. Returns the
 * documented Results object {type:"V", resultType:"sum", rolls, total} (docs/dev/roll20.md §1; index.d.ts
 * StandardRoll/Results) with {type:"R", dice, sides, results:[{v}]} for dice, {type:"M", expr} for the numbers and
 * signs between them and {type:"L", text} for labels. Anything else (modifiers, groups, * and parentheses) throws.
 */
export function evaluateRoll(expression, rollDie) {
  const source = String(expression);
  const fail = (at, message) => {
    throw new HarnessError(`cannot evaluate roll ${JSON.stringify(source)}: ${message} at position ${at}`);
  };
  // Parse every term first, so that a malformed roll consumes no scripted faces
  if (/^\s*$|[+-]\s*$/.test(source)) fail(source.length, "expression ends early");
  const terms = [];
  const term = /\s*([+-])?\s*(?:(\d*)d(\d+)|(\d+))((?:\s*\[[^\]]*\])*)\s*/giy;
  while (term.lastIndex < source.length) {
    const at = term.lastIndex;
    const m = term.exec(source);
    const rest = source.slice(at);
    if (!m && /^\s*[+-]?\s*[?@%&]\{/.test(rest)) fail(at, "unresolved ?{…} or @{…} (a query or reference the sender did not resolve)");
    if (!m) fail(at, `unexpected ${JSON.stringify(rest)}`);
    if (!m[1] && terms.length) fail(at, `unexpected ${JSON.stringify(rest)}`);
    if (m[3] && /^[a-z!<>=]/i.test(source.slice(term.lastIndex)) && /\d$/.test(m[0])) {
      fail(term.lastIndex, `dice modifier ${JSON.stringify(source.slice(term.lastIndex, term.lastIndex + 4))} is not emulated`);
    }
    const labels = [...m[5].matchAll(/\[([^\]]*)\]/g)].map((l) => l[1]);
    const dice = m[3] === undefined ? 0 : m[2] === "" ? 1 : Number(m[2]);
    if (m[3] !== undefined && (dice < 1 || dice > 1000 || Number(m[3]) < 1)) fail(at, `bad dice ${m[0].trim()}`);
    terms.push({ sign: m[1] === "-" ? -1 : 1, op: m[1] ?? "", dice, sides: Number(m[3]), number: Number(m[4]), labels });
  }
  const rolls = [];
  let text = "";
  let total = 0;
  for (const { sign, op, dice, sides, number, labels } of terms) {
    if (dice) {
      if (op) rolls.push({ type: "M", expr: text + op });
      text = "";
      const results = Array.from({ length: dice }, () => ({ v: rollDie(sides) }));
      rolls.push({ type: "R", dice, sides, results });
      total += sign * results.reduce((sum, r) => sum + r.v, 0);
    } else {
      text += `${op}${number}`;
      total += sign * number;
    }
    for (const label of labels) {
      if (text) rolls.push({ type: "M", expr: text });
      text = "";
      rolls.push({ type: "L", text: label });
    }
  }
  if (text) rolls.push({ type: "M", expr: text });
  return { results: { type: "V", resultType: "sum", rolls, total } };
}

/** Sandbox methods that turn a chat line into a message */
export const chatMethods = {
  /** ?{Prompt|default} / ?{Prompt|A|B} / ?{Prompt|Label, value|…}, answered or defaulted; identical prompts asked once (docs/dev/roll20.md §6) */
  _resolveQueries(text, answers, origin) {
    const asked = new Map();
    const out = text.replace(/\?\{([^{}]*)\}/g, (whole, inner) => {
      const [prompt, ...options] = inner.split("|");
      if (!asked.has(prompt)) {
        if (answers && Object.hasOwn(answers, prompt)) asked.set(prompt, String(answers[prompt]));
        else if (options.length === 0) {
          throw new HarnessError(`${origin}: query ${whole} has no default; pass {queries: {${JSON.stringify(prompt)}: …}}`);
        }
        else asked.set(prompt, options.length > 1 && options[0].includes(",") ? options[0].slice(options[0].indexOf(",") + 1) : options[0]);
      }
      return asked.get(prompt);
    });
    if (/\?\{/.test(out)) throw new HarnessError(`${origin}: nested queries are not emulated: ${text}`);
    return out;
  },

  /** Replace [[…]] by $[[n]] and evaluate each (docs/dev/roll20.md §3 inline rolls); nested ones are refused */
  _inlineRolls(content, origin) {
    let open = false;
    for (const [mark] of content.matchAll(/\[\[|\]\]/g)) {
      if (mark === "[[" && open) throw new HarnessError(`${origin}: nested inline rolls are not emulated: ${content}`);
      open = mark === "[[";
    }
    if (open) throw new HarnessError(`${origin}: an unclosed inline roll is not emulated: ${content}`);
    const inlinerolls = [];
    const out = content.replace(/\[\[((?:[^[\]]|\[[^[\]]*\])*)\]\]/g, (whole, expression) => {
      const { results } = evaluateRoll(expression, (sides) => this._roll(sides, `${origin} [[${expression}]]`));
      this._rollCounter += 1;
      const rollid = `-Roll${String(this._rollCounter).padStart(15, "0")}`;
      inlinerolls.push({ expression: expression.trim(), results, rollid, signature: "harness" });
      return `$[[${inlinerolls.length - 1}]]`;
    });
    return { content: out, inlinerolls: inlinerolls.length ? inlinerolls : undefined };
  },

  /**
   * Build a message from a line: queries asked (user lines only: in a script's message they stay text, asked when a
   * button holding them is clicked, docs/dev/roll20.md §3), the command classified, inline rolls rolled. A whisper
   * names a player or the GM. Throws a HarnessError on syntax that is not emulated.
   */
  _buildMessage({ who, playerid, text, origin, answers, byUser }) {
    let line = String(text);
    // (A script's #name is text: "the API cannot use macros", Mod:Chat)
    const refused = [[byUser && /(^|[^&\w])#[A-Za-z]/, "#macro calls"], [/@\{/, "@{…} attribute references (escape @ as &#64;)"],
      [/%\{/, "%{…} ability calls"], [/&\{/, "&{template} and &{tracker}"]].find(([re]) => re && re.test(line));
    if (refused) throw new HarnessError(`${origin}: ${refused[1]} are not emulated`);
    if (byUser) line = this._resolveQueries(line, answers, origin);
    let kind = { type: line.startsWith("!") ? "api" : "general", body: line };
    const slash = /^\/(\S*)\s*([\s\S]*)$/.exec(line);
    if (slash && slash[1] === "w") {
      const quoted = /^"([^"]*)"\s?([\s\S]*)$/.exec(slash[2]);
      const [name, body] = quoted ? [quoted[1], quoted[2]] : [/^\S*/.exec(slash[2])[0], slash[2].replace(/^\S*\s?/, "")];
      kind = { type: "whisper", whisperTo: name, body };
    } else if (slash && slash[1] === "direct") {
      kind = { type: "general", body: slash[2], direct: true };
    } else if (slash && slash[1] === "desc" && !byUser) {
      // "/desc": a description for everyone, without a speaker (Text Chat: a GM's command; a script may send it, as
      // RoundMaster's announcements do); its message has type "desc" (docs/dev/roll20.md §1)
      kind = { type: "desc", body: slash[2], direct: true };
    } else if (slash) {
      throw new HarnessError(`${origin}: /${slash[1]} is not emulated (only /w, /direct, a script's /desc and ! commands)`);
    }
    // Inside an inline roll, a query a script left unasked makes the roll fail
    const rolled = this._inlineRolls(kind.body, origin);
    const msg = { who, playerid, type: kind.type, content: rolled.content };
    if (rolled.inlinerolls) msg.inlinerolls = rolled.inlinerolls;
    if (kind.type === "whisper") {
      // The target field: a player id, or "gm" (Mod:Chat)
      const player = [...this._players.values()].find((p) => p.displayname === kind.whisperTo);
      if (kind.whisperTo.toLowerCase() === "gm") Object.assign(msg, { target: "gm", target_name: "gm" });
      else if (player) Object.assign(msg, { target: player.id, target_name: player.displayname });
    }
    return { msg, kind };
  },

  /**
   * sendChat(speakingAs, input, null, options) (Mod:Chat; index.d.ts): the message is posted (recorded in
   * sandbox.chat) and reaches every chat:message handler asynchronously with playerid "API"; commands
   * ("!…") arrive as type "api" with no selection.
   * sendChat(speakingAs, input, callback): "the callback will be passed the results of the sendChat() call instead of
   * sending the commands to the game": an ARRAY of messages like those of chat:message (Mod:Chat). Nothing is posted
   * and no handler hears it; the callback runs later, as a task of settle() [I: scripts wait for it, GroupInitiative
   * with a countdown]. Its inline rolls take their dice when sendChat is called (harness choice).
   */
  _sendChat(speakingAs, input, callback, opts) {
    if (typeof input !== "string") this._warn("script", `sendChat(…, ${JSON.stringify(input)}): the message must be a string`);
    const origin = `sendChat(${JSON.stringify(String(speakingAs))})`;
    if (typeof callback === "function") {
      let built;
      try {
        built = this._buildMessage({ who: String(speakingAs ?? ""), playerid: "API", text: String(input ?? ""), origin, byUser: false });
      } catch (error) {
        if (!(error instanceof HarnessError)) throw error;
        this._error("chat", `${error.message} (message: ${JSON.stringify(String(input))})`);
        return;
      }
      const results = this._frozen([built.msg]);
      this._queue(`sendChat callback of ${origin}`, () => callback(results));
      return;
    }
    const bytes = Buffer.byteLength(String(input ?? ""), "utf8");
    if (bytes > CHAT_LIMIT) {
      this._error("chat", `${origin}: a message of ${bytes} bytes is larger than ${CHAT_LIMIT} (docs/dev/roll20.md §6.1)`);
    }
    if (callback !== undefined && callback !== null) this._warn("script", `${origin}: the third argument must be a function or null`);
    if (opts !== undefined && !isPlainObject(opts)) this._warn("script", `${origin}: the options must be an object`);
    const who = String(speakingAs ?? "");
    let built;
    try {
      built = this._buildMessage({ who, playerid: "API", text: String(input ?? ""), origin, byUser: false });
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      // Roll20 answers an unusable message with an error instead of delivering it; the test must fail (harness choice)
      this._error("chat", `${error.message} (message: ${JSON.stringify(String(input))})`);
      return;
    }
    const { msg, kind } = built;
    if (kind.type === "whisper" && !msg.target) {
      this._error("chat", `${origin}: whisper to ${JSON.stringify(kind.whisperTo)} matches no player; nobody receives it (quote names with spaces: /w "Name")`);
    }
    this.chat.push({
      who, type: msg.type, content: msg.content, whisperTo: kind.type === "whisper" ? kind.whisperTo : null,
      target: msg.target ?? null, options: opts === undefined ? undefined : JSON.parse(JSON.stringify(opts)),
      direct: kind.direct === true,
    });
    const delivered = this._frozen(msg);
    this._queue(`chat:message from ${origin}`, () => this._dispatch("chat:message", [delivered]));
  },
};
