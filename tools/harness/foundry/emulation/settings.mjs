// game.settings: register and get as the product calls them, set as the tests change a setting
// (https://foundryvtt.com/api/classes/foundry.helpers.ClientSettings.html; hookEvents.setup: Settings are initialized
// with Documents).

import { deepClone } from "./core.mjs";

const SCOPES = ["world", "client", "user"]; // "user" since V13

/** Build game.settings for one environment */
export function createSettings(environment) {
  const settings = new Map();
  // (harness choice) a world's stored values come from createFoundry's worldSettings, as an earlier session left them
  const values = new Map(Object.entries(environment.options.worldSettings ?? {}));

  const lookup = (namespace, key) => {
    const id = `${namespace}.${key}`;
    const config = settings.get(id);
    // e.g. '"pf2e-toolbelt.betterMovement.teleport" is not a registered game setting' (pf2e-toolbelt#152)
    if (!config) throw new Error(`"${id}" is not a registered game setting`);
    return [id, config];
  };

  return {
    settings,
    register(namespace, key, config = {}) {
      if (!namespace || !key) throw new Error("You must specify both namespace and key portions of the setting");
      const validNamespace = namespace === "core" || namespace === environment.options.systemId
        || environment.game.modules.get(namespace)?.active;
      if (!validNamespace) throw new Error(`Setting namespace "${namespace}" is not an active package id`);
      const scope = config.scope ?? "client";
      if (!SCOPES.includes(scope)) throw new Error(`Invalid setting scope "${scope}" for "${namespace}.${key}"`);
      settings.set(`${namespace}.${key}`, { ...config, namespace, key, scope });
    },
    get(namespace, key) {
      const [id, config] = lookup(namespace, key);
      if (config.scope === "world" && !environment.phase.documents) {
        environment.warnings.push(`world setting "${id}" read before setup; its stored value is not loaded yet`);
        return deepClone(config.default);
      }
      return deepClone(values.has(id) ? values.get(id) : config.default);
    },
    /** (harness choice) applied at once, without the server round trip or its permission check: tests call it as a GM */
    async set(namespace, key, value) {
      const [id, config] = lookup(namespace, key);
      const clean = config.type === Boolean || config.type === String || config.type === Number ? config.type(value) : value;
      if (config.choices && !Object.hasOwn(config.choices, clean)) throw new Error(`Setting "${id}": ${clean} is not one of its choices`);
      values.set(id, deepClone(clean));
      return clean;
    },
  };
}
