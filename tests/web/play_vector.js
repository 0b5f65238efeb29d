// Play one conformance vector through the web page as a GM does, in the page itself (Playwright's page.evaluate): a new
// encounter, the vector's scenario pasted as a scenario file, the dice typed in as the page asks for them, then the
// turns moved on with Next until the surprise has played out (the same end as tests/js/session_vectors.mjs). Returns
// what the page did, from its kept state: {records, turns, afterTrigger, end}, members by name (statuses as [name, statuses] pairs); or {error}.
// `playedOut(system, surprise, round)` is the system test tails' (tests/js/systems/), bundled before this function by
// tests/web_pages.py page_player().
async ({ key, toml, dice, scenario }) => {
  const MAX_ROUNDS = 40;
  const stored = () => JSON.parse(localStorage.getItem(key));
  const byId = (id) => document.getElementById(id);
  // The page works in promises only: the player waits for what it changes (a MutationObserver), not for a timer tick,
  // which Chromium clamps to 4 ms once nested, and gives the page no frame to paint between steps. A step that changes
  // nothing for 90 s (tests/browser.py TIMEOUT_MS) is a page that never finished.
  const changed = () => new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error("the page never finished the action"));
    }, 90000);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "hidden"] });
  });
  let used = 0;

  /** Type the vector's faces into every dice form the page shows until the action is done */
  async function typeDice() {
    for (;;) {
      const form = byId("dice");
      if (form && !form.hidden && form.querySelector("input")) {
        const inputs = [...form.querySelectorAll("input")];
        if (used + inputs.length > dice.length) throw new Error(`the dice script ran out after ${used} faces`);
        for (const input of inputs) input.value = String(dice[used++]);
        form.querySelector("button[type=submit]").click();
      }
      if (!document.body.classList.contains("busy") && (!form || form.hidden)) return;
      await changed();
    }
  }

  async function press(selector) {
    byId(selector).click();
    await typeDice();
    const notice = byId("notice").textContent;
    if (notice) throw new Error(`the page says: ${notice}`);
  }

  const labelsOf = () => stored().surprise?.labels ?? {};
  // Statuses by name as [name, statuses] pairs: a name may be "__proto__", which no object crossing to Python keeps.
  const named = (statuses) => Object.entries(statuses).map(([id, list]) => [labelsOf()[id] ?? id, [...list].sort()]);
  const shown = () => {
    const table = stored().table;
    return named(Object.fromEntries(table.order.map((id) => [id, table.statuses[id] ?? []])));
  };

  /** The round of the turn the next Next lands on */
  function nextRound() {
    const { table } = stored();
    if (!table.started) return 1;
    return table.turn + 1 < table.order.length ? table.round : table.round + 1;
  }

  /** Tell whether the surprise has played out, with the first normal round after it seen in full */
  const finished = (round) => playedOut(scenario.system, stored().surprise, round);

  try {
    // The GM says yes to "start a new encounter?": window.confirm answers as its OK button does, here in the page, for
    // a dialog answered from Python costs a round trip per vector (the dialog itself: tests/test_web_page.py).
    const confirm = window.confirm;
    window.confirm = () => true;
    try {
      byId("new-encounter").click();
    } finally {
      window.confirm = confirm;
    }
    document.querySelector("input[name=dice-mode][value=typed]").click();
    const paste = byId("file-text");
    paste.value = toml;
    document.querySelector("[data-action=read-file]").click();
    if (byId("file-problem").textContent) throw new Error(`the page refused the file: ${byId("file-problem").textContent}`);
    await press("roll");
    if (!stored().surprise) throw new Error("no surprise was resolved");
    const afterTrigger = shown();
    while (nextRound() <= MAX_ROUNDS && !finished(nextRound())) await press("next");
    await press("next"); // the table moves on: the turn in progress ends
    const end = shown();
    if (used !== dice.length) throw new Error(`scripted faces never rolled: ${dice.slice(used).join(", ")}`);
    const state = stored();
    // Each turn record keeps the statuses changed since the one before (tracker.js): every turn's are rebuilt from them.
    let statuses = {};
    const turns = state.turns.map((turn) => {
      statuses = { ...statuses, ...(turn.changed ?? {}) };
      const everyone = Object.fromEntries(state.table.order.map((id) => [id, statuses[id] ?? []]));
      return { round: turn.round, name: state.surprise.labels[turn.id] ?? turn.id, passed: turn.passed, statuses: named(everyone) };
    });
    const ids = Object.entries(state.surprise.labels);
    return { records: state.log.flatMap((message) => message.records), ids, turns, afterTrigger, end };
  } catch (error) {
    return { error: String(error?.stack ?? error) };
  }
}
