/**
 * Return a roller for the rules core that rolls with Foundry dice and keeps every Roll for the chat card.
 * The rules core calls it as `await roller(count, sides, purpose)` and gets the faces back.
 */
export function foundryRoller(rolls) {
  return async (count, sides, purpose) => {
    const roll = await new Roll(`${count}d${sides}`).evaluate();
    rolls.push({ roll, purpose });
    return roll.dice[0].results.map((result) => result.result);
  };
}
