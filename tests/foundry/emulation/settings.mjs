// game.settings: register, get and set with their documented errors (https://foundryvtt.com/api/classes/
// foundry.helpers.ClientSettings.html; hookEvents.setup: Settings are initialized with Documents).

import { deepClone } from "./core.mjs";

const SCOPES = ["world", "client"];

/** Cast a stored value to the setting's type */
function cast(config, value) {
  if (value === undefined || value === null) return value;
  if (config.type === Number) return Number(value);
  if (config.type === String) return String(value);
  if (config.type === Boolean) return Boolean(value);
  return deepClone(value);
}

/** Build game.settings for one environment; `values` seeds stored world and client values by "ns.key" */
export function createSettings(environment, values) {
  const settings = new Map();

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
      const scopes = [...SCOPES, "user"]; // V13+
      if (!scopes.includes(scope)) throw new Error(`Invalid setting scope "${scope}" for "${namespace}.${key}"`);
      settings.set(`${namespace}.${key}`, { ...config, namespace, key, scope });
    },
    get(namespace, key) {
      const [id, config] = lookup(namespace, key);
      if (config.scope === "world" && !environment.phase.documents) {
        environment.warnings.push(`world setting "${id}" read before setup; its stored value is not loaded yet`);
        return cast(config, deepClone(config.default));
      }
      return cast(config, values.has(id) ? values.get(id) : deepClone(config.default));
    },
    async set(namespace, key, value, options = {}) {
      const [id, config] = lookup(namespace, key);
      const user = environment._world.users.get(environment._actingUserId());
      if (config.scope === "world" && !environment.phase.ready) {
        // Quoted from the V11 error in dev7355608/vision-5e#34
        throw new Error("You may not set a World-level Setting before the Game is ready.");
      }
      const clean = cast(config, value);
      if (config.type === Number && !Number.isFinite(clean)) throw new Error(`Setting "${id}" needs a number, got ${value}`);
      if (config.choices && !Object.hasOwn(config.choices, clean)) {
        throw new Error(`Setting "${id}": ${clean} is not one of its choices`);
      }
      const apply = () => {
        values.set(id, deepClone(clean));
        environment.writes.push({ action: "setting", documentName: "Setting", id, userId: user.id, data: clean });
        if (config.onChange) {
          try {
            config.onChange(cast(config, clean), options, user.id);
          } catch (error) {
            environment._recordHookError(`onChange ${id}`, config.onChange, error);
          }
        }
        return cast(config, clean);
      };
      if (config.scope !== "world") return apply();
      return environment._server(() => {
        if (!user.isGM) throw environment._denied(user, "update", "Setting", id);
        return apply();
      });
    },
  };
}
