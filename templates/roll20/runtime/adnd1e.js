  // --- AD&D 1e at the table (RULES.md 3): a d6 per side, then surprise segments before the first normal
  // round; the script plays segment n as round n of its round row. ---

  const Runtime = (() => {
    const SIDES = ["a", "b"];
    const names = (surprise, ids) => ids.map((id) => surprise.labels[id] ?? "?").join(", ");

    /** Describe one segment of the timeline. */
    const segmentLine = (surprise, segment) => HE(segment.kind === "cancelled"
      ? t("Adnd.SegmentCancelled", { segment: segment.segment })
      : t("Adnd.SegmentLine", { segment: segment.segment, acting: names(surprise, segment.acting) }));

    /** Roll both sides' d6, mark who is frozen (badge: segments left), list the segments. */
    async function resolve(surprise, roller) {
      const outcome = await Rules.resolve(surprise.scenario, roller);
      surprise.outcome = outcome;
      surprise.log.push({ type: "resolve", outcome });
      surprise.frozen = {};
      const lines = SIDES.map((key) => {
        const side = outcome.sides[key];
        const data = { side: surprise.scenario.sides[key].name, threshold: side.threshold, roll: side.roll, segments: side.segments };
        return HE(t(side.roll === null ? "Adnd.SideNoRoll" : "Adnd.SideRoll", data));
      });
      if (!outcome.timeline.length) {
        lines.push(HE(t(outcome.surprise === "none" ? "Chat.NobodySurprised" : "Adnd.NoSegments")));
        surprise.done = true;
        return lines;
      }
      for (const key of SIDES) {
        for (const member of surprise.scenario.sides[key].members) {
          const own = outcome.members[member.name].segments;
          surprise.frozen[member.name] = Rules.frozenSegments(outcome.sides[key].segments, own, surprise.scenario.options);
        }
      }
      lines.push(HE(t("Adnd.FirstRound", { round: 1, count: outcome.timeline.length })));
      outcome.timeline.forEach((segment) => lines.push(segmentLine(surprise, segment)));
      refreshMarkers(surprise, 1);
      return lines;
    }

    /** Show Surprised with the segments left on everyone still frozen in this segment. */
    function refreshMarkers(surprise, segment) {
      for (const [id, frozen] of Object.entries(surprise.frozen)) {
        if (frozen >= segment) mark(surprise, id, "surprised", true, frozen - segment + 1);
        else if ((surprise.applied[id] ?? []).includes("surprised")) mark(surprise, id, "surprised", false);
      }
    }

    /** A new round is the next segment; after the last one the surprise is over. */
    function roundStarted(surprise) {
      const segment = surprise.round;
      const timeline = surprise.outcome.timeline;
      refreshMarkers(surprise, segment);
      if (segment <= timeline.length) {
        post(card(t("Adnd.SegmentTitle"), [segmentLine(surprise, timeline[segment - 1])]));
        return;
      }
      surprise.done = true;
      writeTurnorder(readTurnorder().filter((row) => !isRoundRow(row)));
      post(card(t("Adnd.SegmentTitle"), [HE(t("Adnd.SegmentsOver"))]));
    }

    /** In a surprise segment only the combatants the timeline names act: true = this one passes. */
    async function turnStarted(surprise, id) {
      const timeline = surprise.outcome.timeline;
      const segment = surprise.round;
      if (segment < 1 || segment > timeline.length) return false;
      return !timeline[segment - 1].acting.includes(id);
    }

    /** Nothing happens at the end of a turn in AD&D surprise. */
    function turnEnded() {}

    /** A token left the fight: no marker to refresh, no longer listed as frozen. */
    function forget(surprise, id) {
      delete surprise.frozen?.[id];
    }

    /** The segment being played and who is frozen. */
    const status = (surprise) => [
      HE(t("Roll20.Status.Segment", { segment: surprise.round, count: surprise.outcome.timeline.length })),
      ...Object.entries(surprise.frozen ?? {}).filter(([, frozen]) => frozen >= surprise.round)
        .map(([id, frozen]) => HE(`${surprise.labels[id]}: ${frozen - surprise.round + 1}`)),
    ];

    return { resolve, turnStarted, turnEnded, roundStarted, forget, status };
  })();
