"""Make the pictures of docs/pictures/ from the real generated output, and tell which are stale

Each picture is rendered from a source that the current build makes: a Roll20 card's HTML (the example GURPS script
run in the emulated Mod sandbox, in each of its languages), the Foundry module's dialog and chat cards (the module run
in the emulated client, in a plain page with the module's own stylesheet), or an odds chart's SVG (what
`ambush odds --svg` writes), or the example GURPS web page (its index.html, played in Chromium by a scene of clicks
and typed dice, web_scene). docs/pictures/pictures.json keeps the SHA-256 of each picture's source beside it, so that
tests/test_pictures.py tells a stale picture by making the sources again, without a browser.

    python tools/pictures.py           render the pictures whose source changed, and write pictures.json
    python tools/pictures.py --all     render every picture
    python tools/pictures.py --check   exit 1 naming the stale pictures

Rendering needs Chromium (Debian: apt-get install chromium fonts-noto-cjk), Playwright for Python (the test extras:
the web page's scenes) and Node with the project's node_modules (resvg for the charts); pngquant and optipng, where
installed, make the pictures smaller.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "pictures"
MANIFEST = PICTURES / "pictures.json"
LANGUAGES = ("en", "de", "zh-CN")
GURPS = "ambush-gurps-example"
ROLL20_WIDTH = 300
FOUNDRY_DIALOG_WIDTH = 620
FOUNDRY_CHAT_WIDTH = 300
WEB_WIDTH = 1000
# The web page's pictures: what each shows, the element taken (its box, at most the window's height: MAX_HEIGHT unless
# the scene names a phone's window) and the scene played before: gurps-partial.toml pasted, then Roll with the dice
# typed in (initiative 2 and 5: side A is stunned), then Next turn with Ava's and Brom's IQ rolls (18 and 9); the GM's
# cards shown, or the players' view.
WEB_MAX_HEIGHT = 1200
WEB_SCENES = {
    "web-form.png": {"element": "main", "steps": ["paste"]},
    "web-card.png": {"element": "#log-box", "steps": ["paste", "roll", "show-gm"]},
    "web-tracker.png": {"element": "main", "steps": ["paste", "roll", "next"]},
    "web-phone.png": {"element": "#app", "steps": ["paste", "roll", "next"], "width": 390, "height": 844},
    "web-players.png": {"element": "main", "steps": ["paste", "roll", "next", "players"]},
}
WEB_DICE = {"roll": [2, 5], "next": [6, 6, 6, 3, 3, 3]}
ROLL20_NOTE = "The script's chat HTML as it sends it, rendered in Chromium outside Roll20."
FOUNDRY_NOTE = ("The module's HTML and stylesheet, rendered in Chromium outside Foundry VTT: the window and the form "
                "styles are a plain stand-in, not Foundry's.")

PAGE_STYLE = """body { margin: 0; background: #fff; color: #222;
  font: 13px/1.35 "DejaVu Sans", "Noto Sans CJK SC", sans-serif; }
#picture { padding: 8px; box-sizing: border-box; }
.note { margin: 6px 0 0; font-size: 10px; color: #777; }"""

# A plain stand-in for Foundry's window and form styles, which are not the project's to copy (docs/dev/foundry.md)
FOUNDRY_FRAME_STYLE = """dialog.application { position: static; display: block; width: auto; margin: 0; padding: 0;
  border: 1px solid #555; border-radius: 5px; background: #f3f1ea; color: #222; }
.window-header { background: #3a3a3a; color: #f3f3f3; padding: 5px 8px; border-radius: 4px 4px 0 0; }
.window-title { margin: 0; font-size: 14px; }
.window-content { padding: 8px; }
fieldset { border: 1px solid #aaa; margin: 0 0 6px; padding: 3px 6px; }
.form-group { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 8px; margin: 3px 0; }
label { white-space: nowrap; }
input[type=number] { width: 3.5em; }
.ambush-odds p { margin: 1px 0; }
.form-footer { display: flex; gap: 6px; margin-top: 8px; }
.form-footer button { flex: 1; padding: 3px; }
.chat-message { border: 1px solid #999; border-radius: 4px; background: #f3f1ea; margin: 0 0 6px; padding: 4px 6px; }
.message-header { color: #555; font-size: 12px; margin-bottom: 2px; }"""


@dataclass(frozen=True)
class Source:
    """What a picture is rendered from: an HTML page at a width, or an SVG"""

    kind: str  # "html" or "svg"
    text: str
    width: int = 0

    @property
    def sha256(self) -> str:
        """Return the SHA-256 of the source's text, as UTF-8"""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()



def charts() -> dict[str, str]:
    """Return one odds chart per system: the example scenario of fixtures/scenarios/ its registry entry names, which
    docs/table.md shows"""
    from exporter.rules.systems import SYSTEMS

    return {f"odds-{entry.chart}": f"{entry.chart}.toml" for entry in SYSTEMS.values()}

def page(body: str, width: int, note: str, language: str = "en", style: str = "") -> str:
    """Wrap HTML in the page a picture is taken of: its width, the note saying what it is, and its measured height"""
    return f"""<!DOCTYPE html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<title>picture</title>
<style>
{PAGE_STYLE}
{style}
</style>
</head>
<body>
<main id="picture" style="width: {width}px">
{body}
<p class="note">{html.escape(note)}</p>
</main>
<script>document.title = String(Math.ceil(document.getElementById("picture").getBoundingClientRect().height));</script>
</body>
</html>
"""


def node_sources(build: Path) -> dict:
    """Run the example script and module in the emulations and return the HTML they show (tools/picture_sources.mjs)"""
    with tempfile.TemporaryDirectory(prefix="ambush-pictures-") as folder:
        out = Path(folder) / "sources.json"
        from tools.node_flags import NODE_FLAGS

        command = ["node", *NODE_FLAGS, str(ROOT / "tools" / "picture_sources.mjs"), str(build), str(out)]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"tools/picture_sources.mjs failed:\n{done.stderr[-3000:]}")
        return json.loads(out.read_text(encoding="utf-8"))


def foundry_chat(messages: list[dict]) -> str:
    """Write the module's chat messages as a chat log: who speaks, to whom, and the module's own card HTML"""
    parts = []
    for message in messages:
        to = " <em>(to the GMs)</em>" if message["gm"] else ""
        parts.append(f'<article class="chat-message"><header class="message-header"><strong>'
                     f'{html.escape(message["speaker"])}</strong>{to}</header>'
                     f'<div class="message-content">{message["content"]}</div></article>')
    return "\n".join(parts)


def sources(build: Path) -> dict[str, Source]:
    """Make the source of every picture from a build of the example campaigns (as `ambush build` writes them)"""
    from exporter.report import odds_svg
    from exporter.scenario import load_scenario

    shown = node_sources(build)
    found: dict[str, Source] = {}
    for language in LANGUAGES:
        cards = shown["roll20"][language]
        for name in ("draft", "result", "help"):
            found[f"roll20-{name}-{language}.png"] = Source(
                "html", page("\n".join(cards[name]), ROLL20_WIDTH, ROLL20_NOTE, language), ROLL20_WIDTH)
    css = (build / GURPS / "foundry" / "styles" / "ambush.css").read_text(encoding="utf-8")
    style = f"{css}\n{FOUNDRY_FRAME_STYLE}"
    found["foundry-dialog.png"] = Source(
        "html", page(shown["foundry"]["dialog"], FOUNDRY_DIALOG_WIDTH, FOUNDRY_NOTE, style=style), FOUNDRY_DIALOG_WIDTH)
    found["foundry-chat.png"] = Source(
        "html", page(foundry_chat(shown["foundry"]["messages"]), FOUNDRY_CHAT_WIDTH, FOUNDRY_NOTE, style=style),
        FOUNDRY_CHAT_WIDTH)
    page_html = (build / GURPS / "web" / "index.html").read_text(encoding="utf-8")
    scenario = (ROOT / "fixtures" / "scenarios" / "gurps-partial.toml").read_text(encoding="utf-8")
    for name, scene in WEB_SCENES.items():
        played = {**scene, "dice": {step: WEB_DICE.get(step, []) for step in scene["steps"]}, "scenario": scenario}
        found[name] = Source("web", json.dumps({"scene": played, "page": page_html}, ensure_ascii=False),
                             scene.get("width", WEB_WIDTH))
    for name, scenario in charts().items():
        found[f"{name}.png"] = Source("svg", odds_svg(load_scenario(ROOT / "fixtures" / "scenarios" / scenario)))
    return dict(sorted(found.items()))


def build_examples(out: Path) -> Path:
    """Build the example campaigns without zips, as the tests do"""
    from exporter.build import build_campaigns

    build_campaigns([], out, make_zip=False)
    return out


def read_manifest() -> dict[str, str]:
    """Return each picture's recorded source hash"""
    if not MANIFEST.is_file():
        return {}
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))["pictures"]
    return {name: entry["sha256"] for name, entry in entries.items()}


def write_manifest(found: dict[str, Source]) -> None:
    """Record each picture's source kind and hash beside the pictures"""
    data = {
        "about": "Each picture of this folder and the SHA-256 of the HTML or SVG it was rendered from, as "
                 "tools/pictures.py made them; tests/test_pictures.py makes the sources again and compares.",
        "pictures": {name: {"source": source.kind, "sha256": source.sha256} for name, source in found.items()},
    }
    MANIFEST.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def stale(found: dict[str, Source]) -> list[str]:
    """Return the pictures whose file is missing or whose source changed since they were rendered"""
    recorded = read_manifest()
    return [name for name, source in found.items()
            if recorded.get(name) != source.sha256 or not (PICTURES / name).is_file()]


def chromium() -> list[str]:
    """Return the command that runs headless Chromium, or fail saying how to install it"""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            sandbox = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
            return [path, "--headless", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                    "--default-background-color=ffffffff", *sandbox]
    raise SystemExit("tools/pictures.py: no Chromium found; on Debian: apt-get install chromium fonts-noto-cjk")


def render_html(source: Source, target: Path, folder: Path) -> None:
    """Render an HTML page with headless Chromium: its height measured first, then the screenshot"""
    browser = chromium()
    page_file = folder / f"{target.stem}.html"
    page_file.write_text(source.text, encoding="utf-8")
    url = page_file.as_uri()
    dumped = subprocess.run([*browser, f"--window-size={source.width},2000", "--dump-dom", url],
                            capture_output=True, text=True, check=True).stdout
    height = int(re.search(r"<title>(\d+)</title>", dumped).group(1))
    subprocess.run([*browser, f"--window-size={source.width},{height}", f"--screenshot={target}", url],
                   capture_output=True, check=True)


def web_scene(page, scene: dict) -> None:
    """Play a scene on the web page: paste the scenario file, roll and move the turn on, typing in the dice"""
    for step in scene["steps"]:
        if step == "paste":
            page.fill("#file-text", scene["scenario"])
            page.click("[data-action=read-file]")
            page.check("input[name=dice-mode][value=typed]")
        elif step == "show-gm":
            page.check("#show-gm")
        elif step == "players":
            page.click("#players-view")
        else:
            page.click("#roll" if step == "roll" else "#next")
            for face in scene["dice"][step]:
                page.locator("#dice:not([hidden]) input").first.wait_for()
                inputs = page.locator("#dice input")
                empty = next(i for i in range(inputs.count()) if not inputs.nth(i).input_value())
                inputs.nth(empty).fill(str(face))
                if empty == inputs.count() - 1:
                    page.click("#dice button[type=submit]")
            page.locator("body:not(.busy)").wait_for(state="attached")


def render_web(source: Source, target: Path, folder: Path) -> None:
    """Render a scene of the web page with Playwright driving the system's Chromium: the scene's element's box, at
    most WEB_MAX_HEIGHT tall, in a window of the source's width"""
    from playwright.sync_api import sync_playwright

    data = json.loads(source.text)
    page_file = folder / f"{target.stem}.html"
    page_file.write_text(data["page"], encoding="utf-8")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium()[0], args=["--no-sandbox", "--hide-scrollbars"])
        height = data["scene"].get("height", WEB_MAX_HEIGHT)
        page = browser.new_page(viewport={"width": source.width, "height": height}, device_scale_factor=1)
        page.goto(page_file.as_uri())
        web_scene(page, data["scene"])
        page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
        box = page.locator(data["scene"]["element"]).bounding_box()  # the window at the top: page coordinates
        clip = {"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], height)}
        page.screenshot(path=str(target), full_page=True, clip=clip)
        browser.close()


def render_svg(source: Source, target: Path, folder: Path) -> None:
    """Render an SVG with resvg (the project's node_modules), at its own size"""
    svg_file = folder / f"{target.stem}.svg"
    svg_file.write_text(source.text, encoding="utf-8")
    script = ("import { readFileSync, writeFileSync } from 'node:fs'; import { Resvg } from '@resvg/resvg-js';"
              "const [from, to] = process.argv.slice(1);"
              "const svg = new Resvg(readFileSync(from, 'utf8'), { font: { loadSystemFonts: true } });"
              "writeFileSync(to, svg.render().asPng());")
    subprocess.run(["node", "--input-type=module", "-e", script, str(svg_file), str(target)], cwd=ROOT, check=True)


def shrink(target: Path) -> None:
    """Make a picture smaller: 256 colours (pngquant) and the best deflate (optipng), where they are installed"""
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--quality=70-95", "--speed=1", "--strip", "--force", "--output", str(target),
                        str(target)], check=False)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o7", "-strip", "all", str(target)], check=False)


def main(argv: list[str] | None = None) -> int:
    """Render the stale pictures (or all), or tell which are stale"""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="render every picture, not only the stale ones")
    parser.add_argument("--check", action="store_true", help="render nothing; exit 1 naming the stale pictures")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ambush-pictures-") as temp:
        folder = Path(temp)
        found = sources(build_examples(folder / "build"))
        todo = list(found) if args.all else stale(found)
        if args.check:
            for name in todo:
                print(f"stale: docs/pictures/{name}")
            return 1 if todo else 0
        PICTURES.mkdir(parents=True, exist_ok=True)
        for name in todo:
            source = found[name]
            target = PICTURES / name
            {"html": render_html, "svg": render_svg, "web": render_web}[source.kind](source, target, folder)
            shrink(target)
            print(f"rendered docs/pictures/{name} ({target.stat().st_size} bytes)")
        for extra in sorted(set(p.name for p in PICTURES.glob("*.png")) - set(found)):
            (PICTURES / extra).unlink()
            print(f"removed docs/pictures/{extra}")
        write_manifest(found)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
