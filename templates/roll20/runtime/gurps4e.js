  // --- GURPS 4e at the table (RULES.md 1): who is surprised, then the stun turn by turn (RULES.md 1.7) ---

  const Runtime = (() => {
    const SIDES = ["a", "b"];
    const memberOf = (surprise, id) => SIDES.flatMap((key) => surprise.scenario.sides[key].members).find((m) => m.name === id);
    const label = (surprise, id) => surprise.labels[id] ?? "?";
    const signed = (value) => (value < 0 ? `${value}` : `+${value}`);

    /** Describe one side's initiative roll. */
    function initiativeLine(surprise, key, roll) {
      const modifiers = Object.entries(roll.modifiers).map(([name, value]) => `${t(`Gurps.Modifier.${name}`)} ${signed(value)}`).join(", ")
        || t("Gurps.NoModifiers");
      return HE(t("Gurps.InitiativeLine", { side: surprise.scenario.sides[key].name, roll: roll.roll, modifiers, total: roll.total }));
    }

    /** Describe one roll of the sneaking contest: the sneak's (no winner) or a watcher's against it. */
    function contestLine(surprise, attempt, winner) {
      const roll = attempt.roll === null ? t("Gurps.CannotRoll") : attempt.roll;
      const data = { name: label(surprise, attempt.name), skill: attempt.skill, roll };
      return HE(t(winner ? `Gurps.Contest.Watcher.${winner}` : "Gurps.Contest.Sneak", data));
    }

    /** Roll who is surprised and mark the stunned side; the stun follows turn by turn. */
    async function resolve(surprise, roller) {
      const opened = await Rules.openSurprise(surprise.scenario, roller);
      const { tracks, loser, ...outcome } = opened;
      surprise.outcome = { ...outcome, members: {} };
      surprise.tracks = tracks.map((track) => ({ ...track, clearAtEnd: false }));
      surprise.kind = opened.surprise_kind;
      surprise.unaware = false;
      surprise.log.push({ type: "resolve", outcome });
      const lines = [];
      if (opened.initiative) SIDES.forEach((key) => lines.push(initiativeLine(surprise, key, opened.initiative[key])));
      if (opened.contest) {
        lines.push(contestLine(surprise, opened.contest.sneak));
        opened.contest.watchers.forEach((watcher) => lines.push(contestLine(surprise, watcher, watcher.winner)));
      }
      if (surprise.scenario.procedure === "total") lines.push(HE(t("Gurps.TotalByGM")));
      if (opened.surprise === "none") {
        lines.push(HE(t("Chat.NobodySurprised")));
        surprise.done = true;
        return lines;
      }
      const sides = surprise.scenario.sides;
      lines.push(HE(t(`Gurps.Stunned.${opened.surprise_kind}`, { winner: sides[opened.surprise].name, loser: sides[loser].name })));
      for (const [id, seconds] of Object.entries(opened.freeze)) lines.push(HE(t("Gurps.Freeze", { name: label(surprise, id), seconds })));
      for (const track of surprise.tracks) mark(surprise, track.name, "surprised", true, track.freeze || null);
      if (opened.contest) {
        // RULES.md A13: the undetected sneak's opening attack meets no defence.
        for (const track of surprise.tracks) mark(surprise, track.name, "unaware", true);
        surprise.unaware = true;
        lines.push(HE(t("Gurps.Unaware")));
      }
      return lines;
    }

    /** Play a stunned member's own turn: freeze countdown or the IQ roll; resolves true = Do Nothing. */
    async function turnStarted(surprise, id) {
      const track = surprise.tracks?.find((candidate) => candidate.name === id);
      if (!track || track.lost !== null) return false;
      if (track.never) return true;
      const turn = track.turns.length + 1;
      const rolls = [];
      const record = await Rules.takeStunTurn(track, memberOf(surprise, id), surprise.kind, turn, sandboxRoller(rolls), OPTIONS);
      const name = label(surprise, id);
      let line;
      if (record.state === "frozen") {
        line = t("Gurps.FrozenTurn", { name, left: track.freeze - turn });
        mark(surprise, id, "surprised", true, track.freeze - turn || null);
      } else if (record.roll === null) {
        line = t(track.never ? "Gurps.Never" : "Gurps.CannotRecover", { name, target: record.target });
      } else {
        line = t(record.success ? "Gurps.Recovered" : "Gurps.StillStunned", { name, target: record.target, roll: record.roll });
      }
      if (record.state === "stunned" && !record.success) mark(surprise, id, "surprised", true);
      if (record.success) {
        // RULES.md A1: rolled at the start, the -4 lifts at once; rolled at the end, it lasts through this turn.
        if (OPTIONS.stun_roll_timing === "start") mark(surprise, id, "surprised", false);
        else track.clearAtEnd = true;
      }
      surprise.outcome.members[id] = { lost: track.lost, turns: track.turns };
      surprise.log.push({ type: "turn", member: id, turn: record });
      settle(surprise);
      post(card(t("Gurps.TurnTitle"), [HE(line), ...(rolls.length ? [HE(`${t("Roll20.Dice")}: ${diceText(rolls)}`)] : [])]));
      return true;
    }

    /** End a turn: lift a stun that lasted to its end, and the unawareness after the opening turn. */
    function turnEnded(surprise, id) {
      const track = surprise.tracks?.find((candidate) => candidate.name === id);
      if (track?.clearAtEnd) {
        mark(surprise, id, "surprised", false);
        track.clearAtEnd = false;
      }
      if (surprise.unaware) {
        for (const candidate of surprise.tracks) mark(surprise, candidate.name, "unaware", false);
        surprise.unaware = false;
      }
      settle(surprise);
    }

    /** The surprise is over once everyone recovered or can never recover, and nothing waits for a turn's end. */
    function settle(surprise) {
      surprise.done = surprise.tracks.every((track) => track.lost !== null && !track.clearAtEnd) && !surprise.unaware;
    }

    /** Rounds mean nothing extra to the GURPS stun. */
    function roundStarted() {}

    /** A token left the fight: its stun no longer keeps the surprise going. */
    function forget(surprise, id) {
      surprise.tracks = (surprise.tracks ?? []).filter((track) => track.name !== id);
      settle(surprise);
    }

    /** One line per stunned member for !surprise status. */
    const status = (surprise) => (surprise.tracks ?? []).map((track) => HE(`${label(surprise, track.name)}: ${
      track.lost !== null ? t("Roll20.Status.Recovered", { seconds: track.lost })
        : track.never ? t("Roll20.Status.Never") : t("Roll20.Status.Stunned", { turns: track.turns.length })}`));

    return { resolve, turnStarted, turnEnded, roundStarted, forget, status };
  })();
