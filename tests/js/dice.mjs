// Scripted dice for the Node runners: the faces a vector lists, handed out in order, every request checked.
const ROLL_KINDS = new Set(["initiative", "contest", "freeze", "recovery", "spot", "sneak-attack", "surprise"]);

/**
 * Return a roller that hands out the scripted faces in order, refusing a request the rules core would never make (a
 * bad die, a purpose without its kind and who), a face its die cannot show, and running out; `left()` is the rest.
 */
export function scriptedDice(faces) {
  let used = 0;
  const roll = async (count, sides, purpose) => {
    if (!Number.isInteger(count) || count < 1 || !Number.isInteger(sides) || sides < 1) {
      throw new Error(`bad roll request: ${count}d${sides}`);
    }
    if (purpose === null || typeof purpose !== "object" || !ROLL_KINDS.has(purpose.kind) || typeof purpose.who !== "string") {
      throw new Error(`bad roll purpose for ${count}d${sides}: ${JSON.stringify(purpose)}`);
    }
    return Array.from({ length: count }, () => {
      if (used >= faces.length) {
        throw new Error(`the dice script ran out after ${used} faces (${count}d${sides} for ${purpose.kind} ${purpose.who})`);
      }
      const face = faces[used];
      if (!Number.isInteger(face) || face < 1 || face > sides) {
        throw new Error(`scripted face #${used + 1} is ${face}, which a d${sides} cannot show`);
      }
      used += 1;
      return face;
    });
  };
  return { roll, left: () => faces.slice(used) };
}
