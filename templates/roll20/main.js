// Entry point: wiring only. On ready the script starts (its state, macros and banner), then listens to chat commands,
// other scripts' commands that pass a turn, changes of the turn order (a person's, or GroupInitiative's, which tells its
// observers) and deleted tokens. The rules
// system's own entry (common/systems/<id>.js) runs before it.
import { COMMAND, SCRIPT_NAME, VERSION } from "../common/config.js";
import { onChat } from "./commands.js";
import { followSoon, onTokenDestroyed, onTurnCommand, onTurnorderChange } from "./host.js";
import { checkInstall, firstToAnswer } from "./install.js";
import { SCHEMA_VERSION } from "./state.js";

// The scripts of a game share one scope (docs/dev/roll20.md §1): the command goes beside the script's API_Meta entry
// as it loads, so that at ready a second script answering the same command can tell that it came second.
API_Meta[SCRIPT_NAME].command = COMMAND;

on("ready", () => {
  checkInstall();
  if (!firstToAnswer()) return;
  on("chat:message", onChat);
  on("chat:message", onTurnCommand);
  on("change:campaign:turnorder", onTurnorderChange);
  on("destroy:graphic", onTokenDestroyed);
  // GroupInitiative's changes to the turn order fire no event; it tells its observers (docs/dev/roll20.md §4).
  if (typeof GroupInitiative !== "undefined" && typeof GroupInitiative.ObserveTurnOrderChange === "function") {
    GroupInitiative.ObserveTurnOrderChange(followSoon);
  }
});

export { SCHEMA_VERSION as schemaVersion, VERSION as version };
