// Play a fight through the web page as a GM does, in the page itself (Playwright's page.evaluate): Next pressed until
// `rounds` rounds are over, each press timed in the page (performance.now() from the click to the end of the page's
// action, its render included). Returns {sizes: [{round, chars, presses}] after every `every` rounds, times, refused}:
// refused, {round, presses}, where the page could no longer keep its state (the browser's storage full), which ends it.
async ({ key, rounds, every }) => {
  const byId = (id) => document.getElementById(id);
  /** Wait until the page's action is over: main.js takes the "busy" class off the body, then renders */
  const idle = () => new Promise((resolve) => {
    if (!document.body.classList.contains("busy")) {
      resolve();
      return;
    }
    const observer = new MutationObserver(() => {
      if (document.body.classList.contains("busy")) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["class"] });
  });
  // A GM's clicks are tasks of their own: between two, the page gets back to the browser's event loop (a renderer kept
  // in one task of promises for minutes is killed as hung).
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
  const roundNow = () => Number((/\d+/.exec(byId("round")?.textContent ?? "") ?? [0])[0]);
  const sizes = [];
  const times = [];
  let round = roundNow();
  while (round <= rounds) {
    await nextTask();
    const start = performance.now();
    byId("next").click();
    await idle();
    times.push(performance.now() - start);
    const now = roundNow();
    if (now !== round && round > 0 && round % every === 0) {
      sizes.push({ round, chars: (localStorage.getItem(key) ?? "").length, presses: times.length });
    }
    if (byId("notice").textContent) return { sizes, times, refused: { round: now, presses: times.length } };
    round = now;
  }
  return { sizes, times, refused: null };
}
