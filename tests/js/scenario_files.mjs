// Open scenario files as the web page opens them (templates/web/file.js readScenarioFile, given the file's bytes), for
// tests/test_web_scenario_files.py, the pages of several systems in one process:
//   node tests/js/scenario_files.mjs LIST.json TREE...  ->  one line of JSON: {TREE: {path: {draft} | {problem}}}
// LIST.json: the paths to open. TREE: a folder holding common/ as a build of one system ships it (tests/js_tree.py)
// and the page's modules in web/. A problem is the page's one line, its catalogue keys left untranslated.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [listPath, ...trees] = process.argv.slice(2);
const paths = JSON.parse(readFileSync(listPath, "utf-8"));
const t = (key, data) => (data === undefined ? key : `${key} ${JSON.stringify(data)}`);

const opened = {};
for (const tree of trees) {
  const { SYSTEM } = await import(pathToFileURL(`${tree}/common/config.js`).href);
  await import(pathToFileURL(`${tree}/common/systems/${SYSTEM}.js`).href); // as the page loads its system's entry
  const { readScenarioFile } = await import(pathToFileURL(`${tree}/web/file.js`).href);
  let id = 0;
  opened[tree] = Object.fromEntries(paths.map((path) => {
    const { draft, problem } = readScenarioFile(readFileSync(path), path.split("/").at(-1), () => `c${(id += 1)}`, t);
    return [path, problem === undefined ? { draft } : { problem }];
  }));
}
console.log(JSON.stringify(opened));
