// A file's text as it is on disk now, read again only when its size or time changed: the harnesses load the same
// module files and scripts hundreds of times in one run (tools/harness/foundry/emulation/isolation.mjs, tools/harness/roll20/sandbox).
import fs from "node:fs";
import path from "node:path";

/** File text by absolute path, with the size and time it was read at */
const files = new Map();

/** The text of a file as it is on disk now */
export function fileText(file) {
  const absolute = path.resolve(file);
  const { size, mtimeMs } = fs.statSync(absolute);
  let known = files.get(absolute);
  if (known?.size !== size || known.mtimeMs !== mtimeMs) {
    known = { size, mtimeMs, source: fs.readFileSync(absolute, "utf8") };
    files.set(absolute, known);
  }
  return known.source;
}
