// User actions: the only source of events besides ready and chat (docs/dev/roll20.md §2: changes made by scripts fire
// no events). Each one is what a player or the GM does in the Roll20 UI.

import { HarnessError, decodeEntities, describe, deepFreeze } from "./objects.mjs";

/** Build sandbox.user for one sandbox */
export function makeUser(sb) {
  const requireReady = (what) => {
    if (!sb._isReady) throw new HarnessError(`user.${what}() before ready(): the game is still loading`);
  };
  /** Change the campaign as the GM does: each changed property's event, then change:campaign */
  const setCampaign = (changes, what) => {
    requireReady(what);
    const record = sb._campaign;
    const prev = sb._snapshot(record);
    const { next, changed } = sb._applyChanges(record, changes, (m) => {
      throw new HarnessError(`user.${what}(): ${m}`);
    });
    if (changed.length === 0) return [];
    record.attrs = next;
    sb._fireChange(record, changed, prev);
    return changed;
  };

  return {
    /**
     * A player types `content` in chat. Queries (?{…}, answered from options.queries or their default) and inline
     * rolls ([[…]], dice from the scripted queue) are processed as Roll20 does before scripts see the message.
     * options: {selected: [tokens], queries: {prompt: answer}}. Returns the delivered message.
     */
    chat(playerId, content, { selected = [], queries } = {}) {
      requireReady("chat");
      const player = sb._players.get(playerId);
      if (!player) throw new HarnessError(`user.chat(): no player ${describe(playerId)}`);
      const selectedRecords = selected.map((t) => {
        const r = sb._recordOf(t);
        if (r.removed) throw new HarnessError("user.chat(): a selected object was removed");
        return r;
      });
      // A GM's messages have who "Name (GM)" [I: scripts strip / \(GM\)$/]: msg.who is no name to whisper to
      const who = player.isGM ? `${player.displayname} (GM)` : player.displayname;
      const { msg, kind } = sb._buildMessage({
        who, playerid: playerId, text: content, origin: `user.chat(${player.displayname})`, answers: queries, byUser: true,
      });
      if (kind.type === "whisper" && !msg.target) throw new HarnessError(`user.chat(): no player named ${kind.whisperTo}`);
      // selected: {_id, _type} stubs, on API commands (docs/dev/roll20.md §3; index.d.ts "for api type")
      if (kind.type === "api" && selectedRecords.length > 0) {
        msg.selected = selectedRecords.map((r) => ({ _id: r.attrs._id, _type: r.type }));
      }
      const delivered = deepFreeze(sb._toScript(msg));
      sb._dispatch("chat:message", [delivered]);
      return JSON.parse(JSON.stringify(delivered));
    },

    /**
     * A player clicks an API button of a posted message, `<a href="!cmd">label</a>`, found by its shown text; the
     * HTML entities of the href and the label are decoded as a browser does, and the command's queries are asked.
     */
    clickButton(playerId, message, label, options = {}) {
      const text = typeof message === "string" ? message : message.content;
      const buttons = [...text.matchAll(/<a\b[^>]*\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a>/gi)]
        .map((m) => ({ href: decodeEntities(m[2]), label: decodeEntities(m[3].replace(/<[^>]*>/g, "")).trim() }));
      const button = buttons.find((b) => b.label === label);
      if (!button) throw new HarnessError(`user.clickButton(): no button ${describe(label)} among ${describe(buttons.map((b) => b.label))}`);
      return this.chat(playerId, button.href, options);
    },

    /** The GM edits the turn order (array or string); fires change:campaign:turnorder then change:campaign */
    setTurnorder(value) {
      return setCampaign({ turnorder: typeof value === "string" ? value : JSON.stringify(value) }, "setTurnorder");
    },

    /**
     * The tracker's Next button: the first row moves to the end. The `formula` the tracker applies to a row reaching
     * the top (docs/dev/roll20.md §4 [U]) is not emulated: the script's round row has none.
     */
    advanceTurn() {
      const rows = sb.turnorder();
      if (rows.length === 0) return [];
      rows.push(rows.shift());
      if (rows[0].formula) {
        throw new HarnessError(`advanceTurn(): the formula of a row reaching the top is not emulated (${JSON.stringify(rows[0].formula)})`);
      }
      return setCampaign({ turnorder: JSON.stringify(rows) }, "advanceTurn");
    },

    /**
     * The GM opens the Turn Tracker on the sandbox's page: initiativepage becomes the page's id; fires
     * change:campaign:initiativepage then change:campaign ("ID of the page used for the tracker when the turn order
     * window is open", Mod:Objects)
     */
    openTurnTracker() {
      return setCampaign({ initiativepage: sb.page.id }, "openTurnTracker");
    },

    /** The GM closes the Turn Tracker: initiativepage becomes false; fires the same events */
    closeTurnTracker() {
      return setCampaign({ initiativepage: false }, "closeTurnTracker");
    },

    /** The GM edits the custom marker set: fires change:campaign:_token_markers (docs/dev/roll20.md §5) */
    setTokenMarkers(markers) {
      requireReady("setTokenMarkers");
      const record = sb._campaign;
      const prev = sb._snapshot(record);
      const value = typeof markers === "string" ? markers : JSON.stringify(markers);
      if (value === record.attrs._token_markers) return [];
      record.attrs = { ...record.attrs, _token_markers: value };
      sb._fireChange(record, ["_token_markers"], prev);
      return ["_token_markers"];
    },

    /** A user deletes a token; fires destroy:graphic with the removed object (its get() still works) */
    deleteGraphic(token) {
      requireReady("deleteGraphic");
      const record = sb._recordOf(token);
      if (record.type !== "graphic" || record.removed) throw new HarnessError("user.deleteGraphic() needs a graphic still there");
      record.removed = true;
      sb._dispatch("destroy:graphic", [record.wrapper]);
    },
  };
}
