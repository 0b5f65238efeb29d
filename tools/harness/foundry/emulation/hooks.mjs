// Hooks (https://foundryvtt.com/api/classes/foundry.helpers.Hooks.html): handlers run in registration order,
// a throwing or rejecting handler is recorded and does not stop the others, hooks are never awaited.

import { acting } from "./core.mjs";

/** Build the Hooks class of one environment; errors and calls are recorded on it */
export function createHooks(environment) {
  const events = new Map();
  let nextId = 1;

  const run = (hook, args, stoppable) => {
    environment._activity++;
    for (const entry of [...(events.get(hook) ?? [])]) {
      if (entry.once) Hooks.off(hook, entry.id);
      let result;
      try {
        // Handlers always run as the local client, even while emulating a remote request
        result = acting.exit(() => entry.fn(...args));
      } catch (error) {
        environment._recordHookError(hook, entry.fn, error);
        continue;
      }
      if (result && typeof result.then === "function") environment._track(result, hook, entry.fn);
      else if (stoppable && result === false) return false;
    }
    return true;
  };

  class Hooks {
    static on(hook, fn, { once = false } = {}) {
      if (typeof fn !== "function") throw new Error(`Hooks.on("${hook}") needs a function`);
      const id = nextId++;
      if (!events.has(hook)) events.set(hook, []);
      events.get(hook).push({ hook, id, fn, once });
      return id;
    }

    static once(hook, fn) {
      return Hooks.on(hook, fn, { once: true });
    }

    static off(hook, fn) {
      const list = events.get(hook);
      if (!list) return;
      events.set(hook, list.filter((entry) => (typeof fn === "number" ? entry.id !== fn : entry.fn !== fn)));
    }

    /** Stops at the first listener that returns false (an async handler's promise is not false) */
    static call(hook, ...args) {
      return run(hook, args, true);
    }

    static callAll(hook, ...args) {
      run(hook, args, false);
      return true;
    }
  }
  return Hooks;
}
