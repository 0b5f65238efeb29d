// How sheets keep values, shared by the game systems' adapters and the draft.

/** Read a number a sheet keeps as a number or as text; NaN for anything else */
export const numberOf = (value) =>
  (typeof value === "number" || (typeof value === "string" && value.trim() !== "") ? Number(value) : NaN);
