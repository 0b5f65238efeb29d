// Dice: `new Roll("NdM").evaluate()`, `roll.dice[0].results` and the JSON a ChatMessage stores
// (https://foundryvtt.com/api/classes/foundry.dice.Roll.html, https://foundryvtt.com/api/classes/foundry.dice.terms.Die.html).
// (harness choice) Faces are never random: each is drawn from the faces a test scripts with env.scriptDice. Other
// formulas are not emulated and throw.

import { deepClone, env } from "./core.mjs";

const FORMULA = /^\s*(\d*)d(\d+)\s*$/i;

export class Die {
  constructor({ number = 1, faces = 6, results = [] } = {}) {
    this.number = number;
    this.faces = faces;
    this.results = results.map((r) => ({ ...r }));
  }

  get total() {
    return this.results.reduce((sum, r) => (r.active ? sum + r.result : sum), 0);
  }

  _evaluate() {
    for (let i = 0; i < this.number; i++) this.results.push({ result: env().dice.draw(this.faces), active: true });
    return this;
  }

  toJSON() {
    return { class: "Die", number: this.number, faces: this.faces, modifiers: [], results: this.results.map((r) => ({ ...r })) };
  }
}

export class Roll {
  constructor(formula, data = {}, options = {}) {
    const match = FORMULA.exec(String(formula));
    if (!match) throw new Error(`harness Roll: only "NdM" formulas are emulated, got "${formula}"`);
    const faces = Number(match[2]);
    if (faces < 1) throw new Error(`harness Roll: a die needs at least one face in "${formula}"`);
    this.options = options;
    this._formula = `${match[1] || 1}d${faces}`;
    this.terms = [new Die({ number: Number(match[1] || 1), faces })];
    this._evaluated = false;
    this._total = undefined;
  }

  get total() {
    return this._total;
  }

  get dice() {
    return this.terms.filter((term) => term instanceof Die);
  }

  /** V12+: evaluate is async only; the "async" option is deprecated (docs/dev/foundry.md §10) */
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

  /**
   * A roll from its stored JSON, made again as its own class where a game system registered it (Roll.fromData finds
   * the class among CONFIG.Dice.rolls by `data.class`: https://foundryvtt.com/api/classes/foundry.dice.Roll.html)
   */
  static fromJSON(json) {
    const data = JSON.parse(json);
    const RollClass = ROLL_CLASSES.get(data.class) ?? this;
    const roll = new RollClass(data.formula, {}, data.options);
    roll.terms = data.terms.map((term) => new Die(term));
    roll._total = data.total;
    roll._evaluated = data.evaluated;
    return roll;
  }
}

/** The roll classes game systems add to CONFIG.Dice.rolls, by class name ((harness choice) kept here, not in CONFIG) */
const ROLL_CLASSES = new Map();

/** Register a game system's roll class, as it pushes it into CONFIG.Dice.rolls; returns the remover */
export function registerRollClass(RollClass) {
  ROLL_CLASSES.set(RollClass.name, RollClass);
  return () => ROLL_CLASSES.delete(RollClass.name);
}

/** The faces scripted for the next dice, drawn in order */
export class DiceScript {
  #faces = [];
  #scripted = false;

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

  /** The next scripted face for a die of `faces` faces */
  draw(faces) {
    if (!this.#faces.length) {
      throw new Error(this.#scripted
        ? `dice script exhausted: a d${faces} was rolled after every scripted face was used`
        : `a d${faces} was rolled but no dice are scripted; call env.scriptDice()`);
    }
    if (this.#faces[0] > faces) throw new Error(`scripted die face ${this.#faces[0]} exceeds the ${faces} faces of a d${faces}`);
    return this.#faces.shift();
  }
}
