  // --- Fallout TTRPG at the table (RULES.md 2): the Surprise Round is round 1 of the script's round row;
  // surprised and sleeping tokens pass it; round 2 runs in Sequence order for everyone. ---

  const Runtime = (() => {
    const names = (surprise, ids) => ids.map((id) => surprise.labels[id] ?? "?").join(", ") || t("Fallout.Nobody");

    /** Sort the turn order: the opener first in the Surprise Round (B1), then Sequence (B6 ties: the rules' order). */
    function arrange(surprise, order) {
      const normal = surprise.outcome.normal_order;
      const sequence = Object.fromEntries(["a", "b"].flatMap((key) => surprise.scenario.sides[key].members.map((m) => [m.name, m.sequence ?? 0])));
      const first = surprise.openerFirst ? surprise.opener : null;
      const rank = (row) => (row.id === first ? -1 : normal.indexOf(row.id) < 0 ? normal.length : normal.indexOf(row.id));
      const rows = order.map((row) => (row.id in sequence ? { ...row, pr: String(sequence[row.id]) } : row));
      writeTurnorder([...rows].sort((x, y) => rank(x) - rank(y)));
    }

    /** Describe the test or the opening attacks. */
    function triggerLines(surprise) {
      const { outcome } = surprise;
      const lines = [];
      for (const test of [outcome.test, outcome.enemy_test].filter(Boolean)) {
        lines.push(HE(t(`Fallout.Test.${test.result}`, { name: surprise.labels[test.leader], roll: test.roll, total: test.total, dc: test.dc })));
      }
      for (const attack of outcome.openers ?? []) {
        const data = { name: surprise.labels[attack.name], first: attack.dice[0], second: attack.dice[1], total: attack.total, target: attack.target_number };
        lines.push(HE(t(attack.hit ? "Fallout.Opener.hit" : "Fallout.Opener.miss", data)));
      }
      return lines;
    }

    /** Roll the trigger, mark the surprised (badge 1: the one round) and the sleepers. */
    async function resolve(surprise, roller) {
      const outcome = await Rules.resolve(surprise.scenario, roller);
      surprise.outcome = outcome;
      surprise.log.push({ type: "resolve", outcome });
      const round = outcome.surprise_round;
      surprise.opener = round && outcome.openers ? round.order[0] : null;
      surprise.openerFirst = Boolean(surprise.opener) && !OPTIONS.opening_attack_is_free;
      const lines = triggerLines(surprise);
      if (!round) {
        lines.push(HE(t("Chat.NobodySurprised")));
        surprise.done = true;
        arrange(surprise, readTurnorder());
        return lines;
      }
      lines.push(HE(t("Fallout.SurpriseRound", { side: surprise.scenario.sides[round.side].name, round: 1 })));
      lines.push(HE(t("Fallout.Order", { names: names(surprise, round.order) })));
      lines.push(HE(t("Fallout.Surprised", { names: names(surprise, round.surprised) })));
      if (round.prone.length) lines.push(HE(t("Fallout.Sleepers", { names: names(surprise, round.prone) })));
      for (const id of round.surprised) mark(surprise, id, "surprised", true, 1);
      for (const id of round.prone) {
        mark(surprise, id, "prone", true);
        mark(surprise, id, "sleep", true);
      }
      return lines;
    }

    /** In the Surprise Round, wake a Cautious Nature sleeper at his turn (B7); true = this token passes. */
    async function turnStarted(surprise, id) {
      const round = surprise.outcome.surprise_round;
      if (!round || surprise.round !== 1) return false;
      if (round.wake_at_turn_start.includes(id)) mark(surprise, id, "sleep", false);
      return !round.order.includes(id);
    }

    /** After the Surprise Round: Surprised falls off, sleepers wake (B8), Sequence order for everyone. */
    function roundStarted(surprise) {
      const round = surprise.outcome.surprise_round;
      if (!round || surprise.round !== 2) return;
      for (const id of round.surprised) mark(surprise, id, "surprised", false);
      for (const id of round.wake_at_end) mark(surprise, id, "sleep", false);
      surprise.done = true;
      surprise.openerFirst = false;
      arrange(surprise, readTurnorder().filter((row) => !isRoundRow(row)));
      post(card(t("Fallout.RoundTwoTitle"), [HE(t("Fallout.RoundTwo", { names: names(surprise, surprise.outcome.normal_order) }))]));
    }

    /** Nothing happens at the end of a turn in the Fallout Surprise Round. */
    function turnEnded() {}

    /** Who acts in the Surprise Round and who is surprised. */
    const status = (surprise) => {
      const round = surprise.outcome.surprise_round;
      if (!round) return [HE(t("Chat.NobodySurprised"))];
      return [HE(t("Fallout.Order", { names: names(surprise, round.order) })), HE(t("Fallout.Surprised", { names: names(surprise, round.surprised) }))];
    };

    return { arrange, resolve, turnStarted, turnEnded, roundStarted, status };
  })();
