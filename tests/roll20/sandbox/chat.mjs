// Chat as a script sees it (Mod:Chat; API-Chat; docs/dev/roll20.md §1, §3, §6): a line becomes a message after
// macros (#name), attribute references (@{…}), queries (?{…}) and inline rolls ([[…]]) are processed.
// Only what the script and its buttons use is emulated; other syntax throws a HarnessError so a test fails.

import { HarnessError, decodeEntities, isPlainObject } from "./objects.mjs";

/**
 * Evaluate an inline roll expression: NdX, integers, + - *, parentheses and [labels]. Returns the documented
 * Results object {type:"V", resultType:"sum", rolls, total} (docs/dev/roll20.md §3; index.d.ts StandardRoll/Results)
 * with {type:"R", dice, sides, results:[{v}]} for dice and {type:"M", expr} for the arithmetic between them.
 */
export function evaluateRoll(expression, rollDie) {
  const source = String(expression);
  // Validate first with dummy dice, so a malformed roll consumes no scripted faces
  parseRoll(source, () => 1);
  const { total, rolls } = parseRoll(source, rollDie);
  return { results: { type: "V", resultType: "sum", rolls, total } };
}

/** The recursive-descent parser behind evaluateRoll */
function parseRoll(s, rollDie) {
  let i = 0;
  let text = "";
  const rolls = [];
  const fail = (message) => {
    throw new HarnessError(`cannot evaluate roll ${JSON.stringify(s)}: ${message} at position ${i}`);
  };
  const peek = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
    return s[i];
  };
  const flush = () => {
    if (text.trim() !== "") rolls.push({ type: "M", expr: text.replace(/\s+/g, "") });
    text = "";
  };
  const labels = () => {
    while (peek() === "[") {
      const end = s.indexOf("]", i);
      if (end < 0) fail("unclosed label");
      flush();
      rolls.push({ type: "L", text: s.slice(i + 1, end) });
      i = end + 1;
    }
  };
  const primary = () => {
    const c = peek();
    if (c === undefined) fail("expression ends early");
    if (c === "(") {
      i++;
      text += "(";
      const value = sum();
      if (peek() !== ")") fail("missing )");
      i++;
      text += ")";
      return value;
    }
    if ("?@%&".includes(c)) fail(`unresolved ${c}{…} (a query or reference the sender did not resolve)`);
    const m = /^(\d*)d(\d+)|^\d+/i.exec(s.slice(i));
    if (!m) fail(`unexpected ${JSON.stringify(s.slice(i, i + 10))}`);
    i += m[0].length;
    if (/^[a-z!<>=]/i.test(s[i] ?? "")) fail(`dice modifier ${JSON.stringify(s.slice(i, i + 4))} is not emulated`);
    if (m[2] === undefined) {
      text += m[0];
      return Number(m[0]);
    }
    const dice = m[1] === "" ? 1 : Number(m[1]);
    const sides = Number(m[2]);
    if (dice > 1000 || sides < 1) fail(`bad dice ${m[0]}`);
    const results = Array.from({ length: dice }, () => ({ v: rollDie(sides) }));
    flush();
    rolls.push({ type: "R", dice, sides, results });
    return results.reduce((total, r) => total + r.v, 0);
  };
  const product = () => {
    let value = primary();
    labels();
    while (peek() === "*") {
      i++;
      text += "*";
      value *= primary();
      labels();
    }
    return value;
  };
  const sum = () => {
    let sign = 1;
    if (peek() === "-" || peek() === "+") {
      text += s[i];
      sign = s[i++] === "-" ? -1 : 1;
    }
    let value = sign * product();
    for (let c = peek(); c === "+" || c === "-"; c = peek()) {
      i++;
      text += c;
      value = c === "+" ? value + product() : value - product();
    }
    return value;
  };
  const total = sum();
  labels();
  if (peek() !== undefined) fail(`unexpected ${JSON.stringify(s.slice(i))}`);
  flush();
  return { total, rolls };
}

/** Find `[[ … ]]` inline rolls (labels `[X]` allowed inside; nested inline rolls rejected) */
function findInlineRolls(content) {
  const found = [];
  for (let i = content.indexOf("[["); i >= 0; i = content.indexOf("[[", i)) {
    let depth = 0;
    let end = -1;
    for (let j = i + 2; j < content.length; j++) {
      if (content[j] === "[") {
        if (content[j + 1] === "[") throw new HarnessError(`nested inline rolls are not emulated: ${content}`);
        depth++;
      } else if (content[j] === "]") {
        if (depth > 0) depth--;
        else if (content[j + 1] === "]") {
          end = j;
          break;
        }
      }
    }
    if (end < 0) return found; // an unclosed [[ is plain text
    found.push({ start: i, end: end + 2, expression: content.slice(i + 2, end) });
    i = end + 2;
  }
  return found;
}

/** Sandbox methods that turn a chat line into a message */
export const chatMethods = {
  /** Resolve @{Name|attr}, @{Name|attr|max} and @{selected|…}; `selected` are graphic records (user chat) */
  _resolveAttributes(text, { selected = [], origin }) {
    let out = text;
    for (let depth = 0; depth < 20; depth++) {
      const before = out;
      out = out.replace(/@\{([^{}]*)\}/g, (whole, inner) => this._attributeReference(whole, inner.split("|"), selected, origin));
      if (out === before) return out;
    }
    throw new HarnessError(`${origin}: attribute references nest too deeply: ${text}`);
  },

  _attributeReference(whole, [who, attr, which, ...rest], selected, origin) {
    if (attr === undefined || rest.length) throw new HarnessError(`${origin}: ${whole} without a character works only inside abilities and sheet rolls`);
    let character;
    if (who === "selected") {
      const token = selected[0];
      if (!token) throw new HarnessError(`${origin}: ${whole} needs a selected token`);
      const tokenProps = { token_id: token.attrs._id, token_name: token.attrs.name, character_id: token.attrs.represents };
      if (Object.hasOwn(tokenProps, attr)) return String(tokenProps[attr]);
      character = this._records.get(token.attrs.represents);
      if (!character || character.removed) throw new HarnessError(`${origin}: ${whole}: the selected token represents no character`);
    } else {
      if (who === "target") throw new HarnessError(`${origin}: ${whole}: @{target|…} is not emulated`);
      character = this._live().find((r) => r.type === "character" && r.attrs.name === who);
      if (!character) throw new HarnessError(`${origin}: ${whole}: no character named ${JSON.stringify(who)}`);
    }
    if (attr === "character_name") return String(character.attrs.name);
    if (attr === "character_id") return String(character.attrs._id);
    const valueType = which === "max" ? "max" : "current";
    const record = this._findAttribute(character.attrs._id, attr);
    const value = record ? record.attrs[valueType] : this._sheetDefault(attr, valueType);
    if (value === undefined) throw new HarnessError(`${origin}: No attribute was found for ${whole}`);
    return String(value);
  },

  /** #macro runs a macro's action (user chat only; the API "cannot use macros", Mod:Chat) */
  _resolveMacros(text, origin) {
    if (/%\{[^{}]*\}/.test(text)) throw new HarnessError(`${origin}: %{…} ability calls are not emulated`);
    let out = text;
    for (let depth = 0; depth < 20; depth++) {
      const before = out;
      out = out.replace(/(^|[^&\w])#([A-Za-z0-9_-]+)/g, (whole, lead, name) => {
        const macro = this._live().find((r) => r.type === "macro" && r.attrs.name === name);
        return macro ? `${lead}${macro.attrs.action}` : whole;
      });
      if (out === before) return out;
    }
    throw new HarnessError(`${origin}: macros nest too deeply: ${text}`);
  },

  /** ?{Prompt|default} / ?{Prompt|A|B} / ?{Prompt|Label, value|…}; identical prompts asked once (docs/dev/roll20.md §6) */
  _resolveQueries(text, answers, origin) {
    const asked = new Map();
    let out = text;
    for (let depth = 0; depth < 10; depth++) {
      const before = out;
      out = out.replace(/\?\{([^{}]*)\}/g, (whole, inner) => {
        const [prompt, ...options] = inner.split("|");
        if (asked.has(prompt)) return asked.get(prompt);
        let value;
        if (answers && Object.hasOwn(answers, prompt)) {
          value = String(answers[prompt]);
        } else if (options.length === 0) {
          throw new HarnessError(`${origin}: query ${whole} has no default; pass {queries: {${JSON.stringify(prompt)}: …}}`);
        } else {
          const comma = options[0].indexOf(",");
          value = options.length > 1 && comma >= 0 ? options[0].slice(comma + 1) : options[0];
        }
        value = decodeEntities(value);
        asked.set(prompt, value);
        return value;
      });
      if (out === before) return out;
    }
    return out;
  },

  /** Replace [[…]] by $[[n]] and evaluate each (docs/dev/roll20.md §3 inline rolls) */
  _inlineRolls(content, origin) {
    const found = findInlineRolls(content);
    if (found.length === 0) return { content, inlinerolls: undefined };
    const inlinerolls = [];
    let out = "";
    let last = 0;
    for (const [n, { start, end, expression }] of found.entries()) {
      const { results } = evaluateRoll(expression, (sides) => this._roll(sides, `${origin} [[${expression}]]`));
      this._rollCounter += 1;
      inlinerolls.push({ expression: expression.trim(), results, rollid: `-Roll${String(this._rollCounter).padStart(15, "0")}`, signature: "harness" });
      out += `${content.slice(last, start)}$[[${n}]]`;
      last = end;
    }
    return { content: out + content.slice(last), inlinerolls };
  },

  /** Parse a chat line into type, body and whisper target; the commands the script does not send throw */
  _classify(text, origin) {
    if (text.startsWith("!")) return { type: "api", body: text };
    if (/&\{(tracker|template)/.test(text)) throw new HarnessError(`${origin}: &{tracker} and &{template} are not emulated`);
    const m = /^\/(w|whisper|direct|em|me|desc|r|roll|gr|gmroll|ooc|talktomyself)\s+([\s\S]*)$/i.exec(text);
    if (!m) return { type: "general", body: text };
    const command = m[1].toLowerCase();
    const rest = m[2];
    if (command === "w" || command === "whisper") {
      const quoted = /^"([^"]*)"\s?([\s\S]*)$/.exec(rest);
      const [name, body] = quoted ? [quoted[1], quoted[2]] : [/^\S*/.exec(rest)[0], rest.replace(/^\S*\s?/, "")];
      return { type: "whisper", whisperTo: name, body };
    }
    if (command === "direct") return { type: "general", body: rest, direct: true };
    throw new HarnessError(`${origin}: /${command} is not emulated (only /w, /direct and ! commands)`);
  },

  /** Resolve a whisper name to the target field: a player id, or "gm" (Mod:Chat target) */
  _whisperTarget(name) {
    if (name.toLowerCase() === "gm") return { target: "gm", target_name: "gm" };
    for (const p of this._players.values()) if (p.displayname === name) return { target: p.id, target_name: name };
    const character = this._live().find((r) => r.type === "character" && r.attrs.name === name);
    if (character) {
      const controllers = String(character.attrs.controlledby).split(",").filter((id) => id && id !== "all");
      return { target: controllers.length ? controllers.join(",") : "gm", target_name: name };
    }
    return null;
  },

  /** The `who` of a sendChat speakingAs: a name, or "player|id" / "character|id" */
  _speaker(speakingAs) {
    const s = String(speakingAs ?? "");
    const m = /^(player|character)\|(.+)$/.exec(s);
    if (!m) return s;
    const record = this._records.get(m[2]);
    if (!record || record.removed || record.type !== m[1]) {
      this._warn("script", `sendChat(${JSON.stringify(s)}): no ${m[1]} with that id`);
      return s;
    }
    return m[1] === "player" ? record.attrs._displayname : record.attrs.name;
  },

  /** Build a message from a line; throws HarnessError on unsupported or unresolvable input */
  _buildMessage({ who, playerid, text, origin, selected = [], answers, forcedInlinerolls, byUser }) {
    let line = String(text);
    if (byUser) line = this._resolveMacros(line, origin);
    else if (/%\{[^{}]*\}/.test(line)) throw new HarnessError(`${origin}: %{…} ability calls are not emulated in sendChat`);
    line = this._resolveAttributes(line, { selected, origin });
    // Queries in API messages stay as text (docs/dev/roll20.md §3: buttons sent by scripts may hold ?{…}, asked on click);
    // inside an inline roll they make the roll fail
    if (byUser) line = this._resolveQueries(line, answers, origin);
    const kind = this._classify(line, origin);
    const rolled = this._inlineRolls(kind.body, origin);
    const msg = { who, playerid, type: kind.type, content: rolled.content };
    if (forcedInlinerolls) {
      if (!rolled.inlinerolls || forcedInlinerolls.length !== rolled.inlinerolls.length) {
        throw new HarnessError(`${origin}: {inlinerolls} has ${forcedInlinerolls.length} entries but the content has ${rolled.inlinerolls?.length ?? 0} inline rolls`);
      }
      msg.inlinerolls = JSON.parse(JSON.stringify(forcedInlinerolls));
    } else if (rolled.inlinerolls) {
      msg.inlinerolls = rolled.inlinerolls;
    }
    if (kind.type === "whisper") Object.assign(msg, this._whisperTarget(kind.whisperTo) ?? {});
    return { msg, kind };
  },

  /**
   * sendChat(speakingAs, input, null, options) (Mod:Chat; index.d.ts): the message is posted (recorded in
   * sandbox.chat) and reaches every chat:message handler asynchronously with playerid "API"; commands
   * ("!…") arrive as type "api" with no selection. The callback form is not emulated.
   */
  _sendChat(speakingAs, input, callback, opts) {
    if (typeof input !== "string") this._warn("script", `sendChat(…, ${JSON.stringify(input)}): the message must be a string`);
    const origin = `sendChat(${JSON.stringify(String(speakingAs))})`;
    if (typeof callback === "function") {
      this._error("chat", `${origin}: the callback form of sendChat is not emulated`);
      return;
    }
    if (callback !== undefined && callback !== null) this._warn("script", `${origin}: the third argument must be a function or null`);
    if (opts !== undefined && !isPlainObject(opts)) this._warn("script", `${origin}: the options must be an object`);
    const who = this._speaker(speakingAs);
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
      this._error("chat", `${origin}: whisper to ${JSON.stringify(kind.whisperTo)} matches no player or character; nobody receives it (quote names with spaces: /w "Name")`);
    }
    this.chat.push({
      who, type: msg.type, content: msg.content, whisperTo: kind.type === "whisper" ? kind.whisperTo : null,
      target: msg.target ?? null, options: opts === undefined ? undefined : JSON.parse(JSON.stringify(opts)),
      direct: kind.direct === true,
    });
    const delivered = this._frozen(msg);
    this._queue(`chat:message from ${origin}`, () => this._deliverChat(delivered));
  },

  _deliverChat(msg) {
    this._dispatch("chat:message", [msg]);
  },
};
