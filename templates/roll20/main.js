// Entry point: wiring only. On ready the script starts (its state, macros and banner), then listens to chat commands,
// changes of the turn order and deleted tokens. The rules system's own entry (common/systems/<id>.js) runs before it.
import { VERSION } from "../common/config.js";
import { onChat } from "./commands.js";
import { onTokenDestroyed, onTurnorderChange } from "./host.js";
import { checkInstall } from "./install.js";
import { SCHEMA_VERSION } from "./state.js";

on("ready", () => {
  checkInstall();
  on("chat:message", onChat);
  on("change:campaign:turnorder", onTurnorderChange);
  on("destroy:graphic", onTokenDestroyed);
});

export { SCHEMA_VERSION as schemaVersion, VERSION as version };
