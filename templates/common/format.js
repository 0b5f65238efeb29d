// Numbers, percentages and yes-or-no as the language of a text writes them: 72,2 % in German, 72.2% in Chinese, Ja and
// 是 for yes. Every number a card, a dialog or a chat line shows goes through here, written by Intl.NumberFormat; the
// hosts' translators write the numbers of a text's data, and a number that needs a style of its own says so (percent,
// decimal, signed). exporter/lang/numbers.py is the command line's twin.

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Dialog.No", "Dialog.Yes"];

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

/** Return a text's data with its numbers written as the language writes them, the other values as they are */
const written = (data, language) => Object.fromEntries(Object.entries(data)
  .map(([name, value]) => [name, isNumber(value) ? formatNumber(value, language) : value]));

/** Fill a text's {placeholders} from its data, numbers written as the language writes them; unknown ones stay */
const fill = (text, data, language) => text.replace(/\{(\w+)\}/g, (match, name) => {
  if (!Object.prototype.hasOwnProperty.call(data, name)) return match;
  return isNumber(data[name]) ? formatNumber(data[name], language) : String(data[name]);
});

/** Say a yes-or-no value in words, in the language `t` translates to */
const yesNo = (value, t) => t(value ? "Dialog.Yes" : "Dialog.No");

export { STRING_KEYS, decimal, fill, formatNumber, percent, signed, written, yesNo };
