// Numbers, percentages and yes-or-no as the language of a text writes them: 72,2 % in German, 72.2% in Chinese, Ja and
// 是 for yes; and the words a count takes in that language. Every number a card, a dialog or a chat line shows goes
// through here, written by Intl.NumberFormat; the hosts' translators fill a text with `fill`, and a number that needs a
// style of its own says so (percent, decimal, signed). A text chooses its words by a count in the syntax of ICU
// MessageFormat's plural argument: `{count, plural, one {...} other {...}}` picks the branch of an exact `=N` first,
// else the count's CLDR plural category (Intl.PluralRules, the number as it is written), else `other`, which every
// choice has; in a branch `#` is the count as the language writes it. Outside a choice, a brace that opens no
// placeholder and `#` are plain text. exporter/lang/numbers.py, plurals.py and messages.py are the command line's
// twins, and the build refuses a text whose choices are broken (exporter/campaign.py).
//
// Lists, ranges and labels go through here too, so that each language writes them once: a list with
// Intl.ListFormat (CLDR's list patterns: "Ava, Bram and Orc" is "Ava, Bram und Orc", "Ava、Bram和Orc"), a range, a
// label and its value, a count after a name, a modifier and the parts of a sequence with the catalogue's `Format.*`
// patterns, where each language keeps its punctuation (Chinese its full-width colon, semicolon and parentheses).
// exporter/lang/lists.py is the command line's twin of `list`; tests/test_lists.py holds both to Node's Intl.

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Dialog.No", "Dialog.Yes", "Format.*"];

/** A number to be shown in a style of its own: the options of Intl.NumberFormat */
class Styled {
  constructor(value, options) {
    this.value = value;
    this.options = options;
  }
}

/** A probability shown as a percentage with so many decimals (one by default) */
const percent = (p, digits = 1) => new Styled(p, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A number shown with exactly so many decimals */
const decimal = (value, digits) => new Styled(value, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A modifier shown with its sign, +0 included */
const signed = (value) => new Styled(value, { signDisplay: "always" });

const formats = new Map();

/** Write a number, or a styled one, as a language writes it */
function formatNumber(value, language) {
  const { value: number, options } = value instanceof Styled ? value : { value, options: {} };
  const key = `${language} ${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, new Intl.NumberFormat(language, options));
  return formats.get(key).format(number);
}

/** Tell whether a value of a text's data is a number, plain or styled */
const isNumber = (value) => typeof value === "number" || value instanceof Styled;

/** The options of Intl.NumberFormat that Intl.PluralRules reads too: how many digits a number is written with */
const DIGIT_OPTIONS = ["minimumIntegerDigits", "minimumFractionDigits", "maximumFractionDigits",
  "minimumSignificantDigits", "maximumSignificantDigits"];

const pluralRules = new Map();

/** Return the CLDR plural category of a number, or a styled one, as a language writes it ("one", "other", ...) */
function pluralCategory(value, language) {
  const { value: number, options } = value instanceof Styled ? value : { value, options: {} };
  const digits = Object.fromEntries(DIGIT_OPTIONS.filter((name) => name in options).map((name) => [name, options[name]]));
  const key = `${language} ${JSON.stringify(digits)}`;
  if (!pluralRules.has(key)) pluralRules.set(key, new Intl.PluralRules(language, digits));
  // Intl.PluralRules has no percent style: a percentage's words follow the number shown, a hundred times the value.
  return pluralRules.get(key).select(options.style === "percent" ? number * 100 : number);
}

// A text's syntax (exporter/lang/messages.py reads it alike): {name}, or the start of {name, plural, ...}; the plural
// keyword; a branch's selector and its opening brace; the brace that closes a choice. Whitespace is " \t\r\n".
const ARGUMENT = /\{([A-Za-z0-9_]+)(\}|[ \t\r\n]*,)/y;
const PLURAL = /[ \t\r\n]*plural[ \t\r\n]*,/y;
const SELECTOR = /[ \t\r\n]*(=(?:0|[1-9][0-9]{0,14})|zero|one|two|few|many|other)[ \t\r\n]*\{/y;
const END = /[ \t\r\n]*\}/y;
const COUNT = Symbol("count");

/** Match a sticky pattern at a place of a text */
function matchAt(pattern, text, at) {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/** Read parts of a text up to its end, or in a branch up to the brace that closes it; a broken text throws */
function parseParts(text, start, inBranch) {
  const parts = [];
  let plain = "";
  let at = start;
  const flush = () => {
    if (plain) parts.push(plain);
    plain = "";
  };
  while (at < text.length) {
    const ch = text[at];
    const argument = ch === "{" ? matchAt(ARGUMENT, text, at) : null;
    if (argument) {
      flush();
      if (argument[2] === "}") {
        parts.push({ name: argument[1] });
        at += argument[0].length;
      } else {
        const [choice, end] = parseChoice(text, at, argument);
        parts.push(choice);
        at = end;
      }
    } else if (inBranch && ch === "}") {
      break;
    } else if (inBranch && ch === "{") {
      throw new Error(`a plural branch holds a brace that opens no placeholder: ${text}`);
    } else if (inBranch && ch === "#") {
      flush();
      parts.push(COUNT);
      at += 1;
    } else {
      plain += ch;
      at += 1;
    }
  }
  flush();
  return [parts, at];
}

/** Read a plural choice from its opening brace; return it and where it ends */
function parseChoice(text, start, argument) {
  const name = argument[1];
  const plural = matchAt(PLURAL, text, start + argument[0].length);
  if (!plural) throw new Error(`{${name}, ...} is no plural choice: ${text}`);
  let at = plural.index + plural[0].length;
  const branches = new Map();
  let end;
  while (!(end = matchAt(END, text, at))) {
    const selector = matchAt(SELECTOR, text, at);
    if (!selector || branches.has(selector[1])) throw new Error(`{${name}, plural, ...} is broken: ${text}`);
    const [parts, close] = parseParts(text, at + selector[0].length, true);
    if (close >= text.length) throw new Error(`{${name}, plural, ...} is never closed: ${text}`);
    branches.set(selector[1], parts);
    at = close + 1;
  }
  if (!branches.has("other")) throw new Error(`{${name}, plural, ...} has no other branch: ${text}`);
  const stop = at + end[0].length;
  return [{ name, branches, source: text.slice(start, stop) }, stop];
}

const parsed = new Map();

/** Read a text into its parts once */
function parse(text) {
  if (!parsed.has(text)) parsed.set(text, parseParts(text, 0, false)[0]);
  return parsed.get(text);
}

/** Write a value of a text's data: a number as the language writes it, anything else as text */
const shown = (value, language) => (isNumber(value) ? formatNumber(value, language) : String(value));

/** Pick a choice's branch for a value: an exact =N, else the value's plural category, else other */
function branchFor(choice, value, language) {
  if (!isNumber(value)) return choice.branches.get("other");
  const number = value instanceof Styled ? value.value : value;
  return choice.branches.get(`=${number}`) ?? choice.branches.get(pluralCategory(value, language))
    ?? choice.branches.get("other");
}

/** Write parts with their data; a placeholder or a choice without data stays as written */
function render(parts, data, language, count) {
  return parts.map((part) => {
    if (typeof part === "string") return part;
    if (part === COUNT) return shown(count, language);
    if (!Object.prototype.hasOwnProperty.call(data, part.name)) return part.branches ? part.source : `{${part.name}}`;
    const value = data[part.name];
    return part.branches ? render(branchFor(part, value, language), data, language, value) : shown(value, language);
  }).join("");
}

/** Fill a text's {placeholders} and plural choices from its data, numbers written as the language writes them */
const fill = (text, data, language) => render(parse(text), data, language, null);

/** Say a yes-or-no value in words, in the language `t` translates to */
const yesNo = (value, t) => t(value ? "Dialog.Yes" : "Dialog.No");

const lists = new Map();

/**
 * Join items as a language joins a list (Intl.ListFormat): `type` "conjunction" (and) or "disjunction" (or); `style`
 * "long", or "narrow" for a plain enumeration such as the faces of dice (3, 5, 1; in Chinese 3、5、1)
 */
function list(items, language, { type = "conjunction", style = "long" } = {}) {
  const key = `${language} ${type} ${style}`;
  if (!lists.has(key)) lists.set(key, new Intl.ListFormat(language, { type, style }));
  return lists.get(key).format(items.map(String));
}

/** Write a range of numbers as the language writes one (1–3; in Chinese 1-3); a range of one number is that number */
const range = (low, high, t) => (low === high ? t("Format.Number", { value: low }) : t("Format.Range", { low, high }));

/** Write a label and its value: "IQ: 12", in Chinese "IQ：12" */
const label = (t, name, value) => t("Format.Label", { label: name, value });

/** Write a name and the number that belongs to it: "higher IQ +1", "Opener 2"; in Chinese without a space, "IQ较高+1" */
const named = (t, name, value) => t("Format.Named", { label: name, value });

/** Write a name with a count after it, in parentheses: "Side A (3)", in Chinese "A方（3）" */
const counted = (t, name, count) => t("Format.Count", { label: name, count });

/** Write parts one after another, each whole in itself: "1d6: 5; 1d6: 2", in Chinese "1d6：5；1d6：2" */
const sequence = (t, parts) => parts.join(t("Format.Separator"));

export {
  STRING_KEYS, counted, decimal, fill, formatNumber, label, list, named, percent, range, sequence, signed, yesNo,
};
