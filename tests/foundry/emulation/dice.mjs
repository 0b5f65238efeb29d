// Dice: `new Roll("NdM").evaluate()`, `roll.dice[0].results` and the JSON a ChatMessage stores, with faces
// drawn through CONFIG.Dice.randomUniform (https://foundryvtt.com/api/classes/foundry.dice.Roll.html,
// https://foundryvtt.com/api/classes/foundry.dice.terms.Die.html). Other formulas are not emulated and throw.

import { deepClone, env } from "./core.mjs";

const FORMULA = /^\s*(\d*)d(\d+)\s*$/i;

/** Faces of the Die currently drawing from CONFIG.Dice.randomUniform */
let rollingFaces = null;

export class Die {
  constructor({ number = 1, faces = 6, results = [], options = {} } = {}) {
    this.number = number;
    this.faces = faces;
    this.results = results.map((r) => ({ ...r }));
    this.options = options;
    this._evaluated = false;
  }

  get denomination() {
    return `d${this.faces}`;
  }

  get formula() {
    return `${this.number}d${this.faces}`;
  }

  get total() {
    if (!this._evaluated) return undefined;
    return this.results.reduce((sum, r) => (r.active ? sum + r.result : sum), 0);
  }

  get values() {
    return this.results.filter((r) => r.active).map((r) => r.result);
  }

  /** Draw one face: Math.ceil(CONFIG.Dice.randomUniform() * faces) with the uniform in (0, 1] */
  roll() {
    rollingFaces = this.faces;
    let uniform;
    try {
      uniform = env().CONFIG.Dice.randomUniform();
    } finally {
      rollingFaces = null;
    }
    if (typeof uniform !== "number" || !(uniform > 0 && uniform <= 1)) {
      throw new Error(`CONFIG.Dice.randomUniform returned ${uniform}; expected a number in (0, 1]`);
    }
    const entry = { result: Math.ceil(uniform * this.faces), active: true };
    this.results.push(entry);
    return entry;
  }

  _evaluate() {
    for (let i = 0; i < this.number; i++) this.roll();
    this._evaluated = true;
    return this;
  }

  toJSON() {
    return {
      class: "Die", options: deepClone(this.options), evaluated: this._evaluated, number: this.number,
      faces: this.faces, modifiers: [], results: this.results.map((r) => ({ ...r })),
    };
  }

  static fromData(data) {
    if (data.class !== "Die") throw new Error(`harness Roll: term class "${data.class}" is not emulated`);
    const term = new this(data);
    term._evaluated = Boolean(data.evaluated);
    return term;
  }
}

export class Roll {
  constructor(formula, data = {}, options = {}) {
    const match = FORMULA.exec(String(formula));
    if (!match) throw new Error(`harness Roll: only "NdM" formulas are emulated, got "${formula}"`);
    const faces = Number(match[2]);
    if (faces < 1) throw new Error(`harness Roll: a die needs at least one face in "${formula}"`);
    this.data = data;
    this.options = options;
    this._formula = `${match[1] || 1}d${faces}`;
    this.terms = [new Die({ number: Number(match[1] || 1), faces })];
    this._evaluated = false;
    this._total = undefined;
  }

  get formula() {
    return this._formula;
  }

  get total() {
    return this._evaluated ? this._total : undefined;
  }

  get dice() {
    return this.terms.filter((term) => term instanceof Die);
  }

  /** V12+: evaluate is async only; the "async" option is deprecated */
  async evaluate({ ...options } = {}) {
    if ("async" in options && env().options.generation >= 14) {
      // docs/dev/foundry.md §10: "{async} warns or breaks" on V14; the stricter reading
      throw new Error('Roll#evaluate: the "async" option was removed (V14)');
    }
    if ("async" in options) {
      env()._deprecate("Roll", 'The "async" option of Roll#evaluate is deprecated (V12: evaluate is always async)');
    }
    if (this._evaluated) throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
    for (const term of this.terms) term._evaluate();
    this._total = this.terms.reduce((sum, term) => sum + term.total, 0);
    this._evaluated = true;
    return this;
  }

  toJSON() {
    return {
      class: this.constructor.name, options: deepClone(this.options), dice: [], formula: this._formula,
      terms: this.terms.map((term) => term.toJSON()), total: this._total, evaluated: this._evaluated,
    };
  }

  static fromData(data) {
    const roll = new this(data.formula, {}, data.options ?? {});
    roll.terms = data.terms.map((term) => Die.fromData(term));
    roll._total = data.total;
    roll._evaluated = Boolean(data.evaluated);
    return roll;
  }

  static fromJSON(json) {
    return this.fromData(JSON.parse(json));
  }
}

/** The faces scripted for the next Die terms, served as CONFIG.Dice.randomUniform values */
export class DiceScript {
  #faces = [];
  #scripted = false;

  constructor(fallback) {
    this.fallback = fallback;
  }

  /** Queue faces, in order */
  push(faces) {
    for (const face of faces.flat()) {
      if (!Number.isInteger(face) || face < 1) throw new Error(`scriptDice: ${face} is not a die face`);
      this.#faces.push(face);
    }
    this.#scripted = true;
  }

  get pending() {
    return [...this.#faces];
  }

  /** The default CONFIG.Dice.randomUniform: a scripted face becomes a uniform in (0, 1] */
  uniform() {
    if (this.#faces.length) {
      const face = this.#faces[0];
      if (rollingFaces === null) throw new Error("scripted dice are drawn by Die terms only");
      if (face > rollingFaces) {
        throw new Error(`scripted die face ${face} exceeds the ${rollingFaces} faces of a d${rollingFaces}`);
      }
      this.#faces.shift();
      return (face - 0.5) / rollingFaces;
    }
    if (this.fallback) return this.fallback();
    throw new Error(this.#scripted
      ? `dice script exhausted: a d${rollingFaces} was rolled after every scripted face was used`
      : `a d${rollingFaces} was rolled but no dice are scripted; call env.scriptDice() or pass randomUniform`);
  }
}
