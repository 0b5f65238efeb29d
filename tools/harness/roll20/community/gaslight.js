// A behavioural model of Gaslight, for ambush's emulated Roll20 sandbox (tests only; never shipped).
//
// Models: Gaslight 2.1.0 by Kenan Millet, in Roll20/roll20-api-scripts at commit 9d634d31, file `Gaslight/2.1.0/Gaslight.js`.
// Written in our own words from reading that file: none of its code is copied. Line numbers are that file's. Marks: [I]
// inferred, [U] not verified. Only what Gaslight does to the turn order is modelled.
//
// What Gaslight is: it splits the players onto copies of a page, one per player, and links each token of the master page
// with its copies on the players' pages, so that each player sees his own version of the map. A split group is kept in
// state.Gaslight.activeGroups[name] = {masterPageId, linkedTokens: {tokenId: [the ids linked to it]}}, every token of the
// group listed with all its counterparts (getLinkedInfo, lines 3385-3400); a token on the master page is the master of
// its links (isMasterToken, lines 3405-3413). The model reads that state as a split leaves it (a test writes it; the
// commands that make it, `!gaslight setup`, `split`, `merge`, copy pages and are not modelled, nor are Anchor, Mirror and
// SelectManager, which Gaslight needs).
//
// How it learns of a turn change: only from change:campaign:turnorder (onTurnOrderChanged, lines 3427-3605), bound on
// ready with many other handlers (registerEventHandlers, lines 4533-5019); it does nothing while no group is split
// (line 3430). It has no command that passes a turn and offers no observer: its module returns only checkInstall and
// registerEventHandlers (line 5021). So a turn another script passes silently is one it never handles.
//
// At a change of the order, with a group split (all writes through the API, no event):
//   - a token row added whose token has links, and none of its counterparts in the order yet, gets a row for each
//     counterpart, {id, pr, _pageid} (no custom), at the end (lines 3468-3486);
//   - a token row removed takes its counterparts' rows with it (lines 3488-3497); a changed pr is copied to the
//     counterparts' rows (lines 3499-3513);
//   - after an addition the order is regrouped: each master's rows followed by its counterparts' (reorderInitiative,
//     lines 3613-3655), and that regrouping is done again at the end of every change (lines 3566-3571);
//   - auto-skip (lines 3524-3564): when a counterpart that is not a master is on top and the order moved one row forward
//     (the row that was first is now last), it rotates on past counterparts until a master, an unlinked token, a custom
//     row or the row it started from is on top; one step back rotates back the same way; any other move regroups.
//     So a GM's click onto the copies of a creature whose turn just ended passes them;
//   - a custom row with a formula that the rotation brought to the top gets its formula applied (lines 3574-3588; the
//     script takes it back for a step back, which the model does not);
//   - the initiative HUD on the players' pages is redrawn (updateInitiativeHud; not modelled).

var Gaslight = Gaslight || (function () {
  "use strict";

  var SCRIPT_NAME = "Gaslight";

  function groups() {
    return Object.keys(state[SCRIPT_NAME].activeGroups).map(function (name) { return state[SCRIPT_NAME].activeGroups[name]; });
  }

  /** getLinkedInfo (lines 3385-3400): the ids linked to a token in every split group, and whether it is a master */
  function linkedInfo(id) {
    var linked = [];
    var master = false;
    groups().forEach(function (group) {
      var ids = group.linkedTokens[id];
      if (!ids || !ids.length) return;
      linked = linked.concat(ids);
      var token = getObj("graphic", id);
      if (token && token.get("_pageid") === group.masterPageId) master = true;
    });
    return { linked: linked, master: master };
  }

  /** isMasterToken (lines 3405-3413) */
  function isMaster(id) {
    var token = getObj("graphic", id);
    if (!token) return false;
    return groups().some(function (group) { return group.masterPageId === token.get("_pageid") && Boolean(group.linkedTokens[id]); });
  }

  /** reorderInitiative (lines 3613-3655): each master followed by its counterparts; custom rows where they are */
  function regroup(order) {
    var result = [];
    var placed = {};
    order.forEach(function (entry) {
      if (placed[entry.id]) return;
      if (!entry.id || entry.id === "-1") {
        result.push(entry);
        return;
      }
      var info = linkedInfo(entry.id);
      if (!info.linked.length) {
        result.push(entry);
        placed[entry.id] = true;
        return;
      }
      if (!isMaster(entry.id)) return;
      var ids = [entry.id].concat(info.linked);
      order.filter(function (e) { return ids.indexOf(e.id) >= 0 && !placed[e.id]; })
        .sort(function (a, b) { return (isMaster(a.id) ? 0 : 1) - (isMaster(b.id) ? 0 : 1); })
        .forEach(function (e) {
          result.push(e);
          placed[e.id] = true;
        });
    });
    return result;
  }

  var same = function (a, b) { return JSON.stringify(a) === JSON.stringify(b); };

  /** onTurnOrderChanged (lines 3427-3605) */
  function onTurnOrder(obj, prev) {
    if (!groups().length) return;
    var order = JSON.parse(obj.get("turnorder") || "[]");
    var before = JSON.parse(prev.turnorder || "[]");
    var beforeIds = before.map(function (e) { return e.id; });
    var nowIds = order.map(function (e) { return e.id; });
    var added = order.filter(function (e) { return e.id && e.id !== "-1" && beforeIds.indexOf(e.id) < 0; });
    var removed = before.filter(function (e) { return e.id && e.id !== "-1" && nowIds.indexOf(e.id) < 0; });
    var modified = false;
    added.forEach(function (entry) {
      var linked = linkedInfo(entry.id).linked.filter(function (id, i, all) { return all.indexOf(id) === i; });
      if (!linked.length) return;
      var present = order.map(function (e) { return e.id; });
      if (linked.some(function (id) { return present.indexOf(id) >= 0; })) return;
      linked.forEach(function (id) {
        var token = getObj("graphic", id);
        var row = { id: id, pr: entry.pr };
        if (token) row._pageid = token.get("_pageid");
        order.push(row);
        modified = true;
      });
    });
    removed.forEach(function (entry) {
      var linked = linkedInfo(entry.id).linked;
      if (!linked.length) return;
      var kept = order.filter(function (e) { return linked.indexOf(e.id) < 0; });
      if (kept.length !== order.length) modified = true;
      order = kept;
    });
    order.forEach(function (entry) {
      if (!entry.id || entry.id === "-1") return;
      var old = before.filter(function (e) { return e.id === entry.id; })[0];
      if (!old || old.pr === entry.pr) return;
      linkedInfo(entry.id).linked.forEach(function (id) {
        var other = order.filter(function (e) { return e.id === id; })[0];
        if (other && other.pr !== entry.pr) {
          other.pr = entry.pr;
          modified = true;
        }
      });
    });
    if (added.length && !same(regroup(order), order)) {
      order = regroup(order);
      modified = true;
    }
    if (order.length > 1 && order[0].id && order[0].id !== "-1") {
      var start = order[0].id;
      var info = linkedInfo(start);
      if (info.linked.length && !info.master) {
        var forward = before.length > 0 && order[order.length - 1].id === before[0].id;
        var backward = before.length > 0 && order[0].id === before[before.length - 1].id;
        if (forward || backward) {
          for (var safety = order.length; safety > 0 && order.length > 1; safety -= 1) {
            if (forward) order.push(order.shift());
            else order.unshift(order.pop());
            var top = order[0].id;
            if (!top || top === "-1" || top === start) break;
            var topInfo = linkedInfo(top);
            if (!topInfo.linked.length || topInfo.master) break;
          }
          modified = true;
        } else if (!same(regroup(order), order)) {
          order = regroup(order);
          modified = true;
        }
      }
    }
    if (!same(regroup(order), order)) {
      order = regroup(order);
      modified = true;
    }
    if (modified && order.length && order[0].id === "-1" && order[0].formula) {
      var head = order[0];
      var wasTop = before.length && before[0].id === "-1" && before[0].custom === head.custom && before[0].pr === head.pr;
      if (!wasTop) {
        var formula = String(head.formula).trim();
        var value = parseFloat(formula.replace(/^[+-]/, "")) || 0;
        head.pr = formula.charAt(0) === "+" ? (parseFloat(head.pr) || 0) + value : (parseFloat(head.pr) || 0) - value;
      }
    }
    if (modified) Campaign().set("turnorder", JSON.stringify(order));
  }

  /** ensureState, as far as the turn order reads it */
  function checkInstall() {
    state[SCRIPT_NAME] = state[SCRIPT_NAME] || {};
    state[SCRIPT_NAME].activeGroups = state[SCRIPT_NAME].activeGroups || {};
    state[SCRIPT_NAME].hud = state[SCRIPT_NAME].hud || { initiative: false };
    log("-=> Gaslight v2.1.0 Initialized <=-  [behavioural model]");
  }

  function registerEventHandlers() {
    on("change:campaign:turnorder", onTurnOrder);
  }

  return { checkInstall: checkInstall, registerEventHandlers: registerEventHandlers };
}());

on("ready", function () {
  "use strict";
  Gaslight.checkInstall();
  Gaslight.registerEventHandlers();
});
