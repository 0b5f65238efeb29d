// The page's dice: crypto-grade faces (crypto.getRandomValues, each face as likely as any other), or the faces the GM
// rolled at the table and typed in.

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = [];

/** Return one face of a die with `sides` sides, uniform: draws past the largest multiple of `sides` are drawn again */
function face(sides) {
  const range = 2 ** 32;
  const limit = range - (range % sides);
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word); while (word[0] >= limit);
  return (word[0] % sides) + 1;
}

/** Roll `count` dice of `sides` sides */
const rollFaces = (count, sides) => Array.from({ length: count }, () => face(sides));

/** Read the faces the GM typed in for `count` dice of `sides` sides: the faces, or null when one is not a face */
function typedFaces(texts, count, sides) {
  if (texts.length !== count) return null;
  const faces = texts.map((text) => (/^\s*\d{1,3}\s*$/.test(text) ? Number(text) : NaN));
  return faces.every((value) => Number.isInteger(value) && value >= 1 && value <= sides) ? faces : null;
}

export { STRING_KEYS, rollFaces, typedFaces };
