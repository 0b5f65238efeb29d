"""The module reader and the Roll20 bundler: what they read, what they refuse, that a bundle runs as its modules do"""

from __future__ import annotations

import json

import pytest

from exporter.targets.modules import ModuleError, bundle, module_constant, module_graph, read_module, resolve
from tests.conftest import run_node

SOURCES = {
    "common/config.js": 'export const SIZE = 3;\nexport const NAMES = ["a", "b"];\n',
    "common/maths/sum.js": ('// Sums.\nimport { SIZE } from "../config.js";\n\nfunction total(values) {\n'
                            "  return values.reduce((a, b) => a + b, 0) * SIZE;\n}\n\nexport { total as sum };\n"),
    "common/words.js": ('import { NAMES as names } from "./config.js";\nimport * as Sums from "./maths/sum.js";\n\n'
                        "export function described() {\n  return `${names.join(\"+\")}=${Sums.sum([1, 2])}`;\n}\n"),
    "roll20/main.js": 'import { described } from "../common/words.js";\n\nexport const result = described();\n',
}


def test_read_module_names_imports_and_exports():
    module = read_module("common/words.js", SOURCES["common/words.js"])
    assert [(i.source, i.namespace, i.names) for i in module.imports] == [
        ("common/config.js", None, (("NAMES", "names"),)), ("common/maths/sum.js", "Sums", ())]
    assert module.exports == (("described", "described"),)
    assert read_module("common/maths/sum.js", SOURCES["common/maths/sum.js"]).exports == (("sum", "total"),)


@pytest.mark.parametrize("code", [
    "export default 3;\n", 'export * from "./x.js";\n', 'export { a } from "./x.js";\n', 'import "./x.js";\n',
    'const m = await import("./x.js");\n', 'import x from "./x.js";\n', "export var v = 1;\n",
])
def test_syntax_the_bundler_cannot_translate_is_refused(code):
    with pytest.raises(ModuleError, match=r"templates/common/bad\.js"):
        read_module("common/bad.js", code)


def test_what_comments_and_strings_hold_is_not_code():
    code = '// import("./x.js") in a comment\nconst s = "export default";\nexport { s };\n'
    module = read_module("common/ok.js", code)
    assert module.exports == (("s", "s"),)


def test_imports_resolve_within_the_templates():
    assert resolve("common/runtime/gurps4e.js", "../rules/gurps4e.js") == "common/rules/gurps4e.js"
    assert resolve("foundry/main.js", "../common/config.js") == "common/config.js"
    with pytest.raises(ModuleError, match="leaves the templates"):
        resolve("common/config.js", "../../x.js")


def test_the_graph_puts_every_module_after_those_it_imports():
    order = [module.path for module in module_graph(["roll20/main.js"], SOURCES.__getitem__)]
    assert order == ["common/config.js", "common/maths/sum.js", "common/words.js", "roll20/main.js"]


def test_a_cycle_is_refused():
    sources = {"common/a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
               "common/b.js": 'import { a } from "./a.js";\nexport const b = 2;\n'}
    with pytest.raises(ModuleError, match=r"imports itself through common/a\.js -> common/b\.js"):
        module_graph(["common/a.js"], sources.__getitem__)


def test_module_constants_are_readable_and_never_a_global():
    assert module_constant("common/rules/fallout-ttrpg.js") == "RulesFalloutTtrpg"
    assert module_constant("roll20/turnorder.js") == "Roll20Turnorder"
    for shadowing in ("common/campaign.js", "common/map.js", "common/math.js"):
        with pytest.raises(ModuleError, match="not a free identifier"):
            module_constant(shadowing)


def test_a_bundle_runs_as_its_modules_do(tmp_path):
    for path, text in SOURCES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    modules = module_graph(["roll20/main.js"], SOURCES.__getitem__)
    script = tmp_path / "bundle.js"
    script.write_text(f'"use strict";\n{bundle(modules, 0)}\nconsole.log(JSON.stringify(Roll20Main));\n',
                      encoding="utf-8")
    as_modules = run_node("--input-type=module", "-e",
                          f"import * as m from {json.dumps((tmp_path / 'roll20/main.js').as_uri())};"
                          "console.log(JSON.stringify({ ...m }));")
    bundled = run_node(str(script))
    assert bundled.returncode == 0, bundled.stderr
    assert json.loads(bundled.stdout) == json.loads(as_modules.stdout) == {"result": "a+b=9"}
    assert "import" not in script.read_text(encoding="utf-8").replace("imports", "")


def test_a_name_imported_twice_is_refused():
    text = 'import { a } from "./b.js";\nimport { x as a } from "./c.js";\n'
    with pytest.raises(ModuleError, match=r"common/a\.js: imports a twice"):
        read_module("common/a.js", text)


def test_an_import_of_a_name_its_module_does_not_export_is_refused():
    sources = {"common/a.js": 'import { missing } from "./b.js";\nexport const a = missing;\n',
               "common/b.js": "export const b = 2;\n"}
    with pytest.raises(ModuleError, match=r"common/a\.js: imports missing from common/b\.js"):
        module_graph(["common/a.js"], sources.__getitem__)
