// Render an SVG file with resvg (a real SVG renderer) and print its size and the colour of the asked pixels as JSON.
// Usage: node tests/js/render_svg.mjs chart.svg x1,y1 x2,y2 ...
import { readFileSync } from "node:fs";
import { Resvg } from "@resvg/resvg-js";

const [file, ...points] = process.argv.slice(2);
const rendered = new Resvg(readFileSync(file, "utf8"), { font: { loadSystemFonts: false } }).render();
const hex = (n) => n.toString(16).padStart(2, "0");
const colours = points.map((point) => {
  const [x, y] = point.split(",").map(Number);
  const at = (y * rendered.width + x) * 4;
  const [r, g, b] = rendered.pixels.subarray(at, at + 3);
  return `#${hex(r)}${hex(g)}${hex(b)}`;
});
console.log(JSON.stringify({ width: rendered.width, height: rendered.height, colours }));
