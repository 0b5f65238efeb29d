"""The documentation shipped with the package: its pages by name, and a page or one section of it as text

A page is named by its path under docs/ without `.md` (`campaign`, `rules/gurps4e`); a folder's README by the
folder (`dev`), the top one as `index`. Everything ambush prints points to a page as `ambush docs NAME`, and a
printed page points to the others the same way, so an installed ambush serves every reference it makes.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from exporter._resources import bundled_dir
from exporter.errors import ExportError
from exporter.excerpt import excerpt

INDEX = "index"
# A Markdown link or image: [text](target) or ![alt](target), the target without spaces.
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]*)\)")
HEADING = re.compile(r"^(#{1,6}) (.+)$")
EXPLICIT_ANCHOR = re.compile(r'^<a id="([^"]+)"></a>$')


class DocsError(ExportError):
    """A page or a section the documentation does not have"""


def docs_root() -> Path:
    """Return the docs folder: shipped in the package (wheel) or the checkout's"""
    return bundled_dir("docs")


def page_name(relative: str) -> str:
    """Name the page at this path under docs/: campaign.md -> campaign, dev/README.md -> dev, README.md -> index"""
    stem = relative.removesuffix(".md")
    if stem == "README":
        return INDEX
    return stem.removesuffix("/README")


def pages() -> dict[str, Path]:
    """Return every page by name: the index first, then in the order the indexes list them, then the rest"""
    root = docs_root()
    found = {page_name(p.relative_to(root).as_posix()): p for p in sorted(root.rglob("*.md"))}
    order = [INDEX]
    for name in [INDEX, *found]:
        for target in linked_pages(found[name], root) if name in found else []:
            if target in found and target not in order:
                order.append(target)
    return {name: found[name] for name in [*order, *sorted(found)] if name in found}


def linked_pages(path: Path, root: Path) -> list[str]:
    """Return the names of the pages a page links to, in order"""
    names = []
    for image, _, target in LINK.findall(path.read_text(encoding="utf-8")):
        file = target.split("#", 1)[0]
        if not image and file.endswith(".md") and "://" not in file:
            names.append(page_name((path.parent / file).resolve().relative_to(root.resolve()).as_posix()))
    return names


def normalized(reference: str) -> tuple[str, str | None]:
    """Split a reference into a page name and an anchor; a clone's path (docs/campaign.md) names its page too"""
    page, _, anchor = reference.strip().partition("#")
    page = posixpath.normpath(page or ".").strip("/").removeprefix("docs/")
    if page in (".", "docs", "README", "README.md"):
        page = INDEX
    elif page.endswith(".md"):
        page = page_name(page)
    return page, anchor or None


def resolve(reference: str) -> tuple[str, Path, str | None]:
    """Return the page name, file and anchor of a reference, or refuse one the docs do not have, in one line"""
    from exporter.validation import did_you_mean

    name, anchor = normalized(reference)
    known = pages()
    if name not in known:
        raise DocsError(f"no page {excerpt(reference)}; `ambush docs` lists them" + did_you_mean(name, known))
    if anchor is not None and anchor not in sections(known[name].read_text(encoding="utf-8")):
        raise DocsError(f"no section #{anchor} in `ambush docs {name}`"
                        + did_you_mean(anchor, sections(known[name].read_text(encoding="utf-8"))))
    return name, known[name], anchor


def slug(heading: str) -> str:
    """Return the anchor GitHub gives a heading: lower case, spaces to -, only letters, digits, - and _ kept"""
    text = heading.strip().lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def sections(text: str) -> dict[str, int]:
    """Return the line index of the heading each anchor of a page marks: its own slug, or an <a id> just above it"""
    lines = text.splitlines()
    found: dict[str, int] = {}
    waiting: list[str] = []
    for number, line in enumerate(lines):
        explicit = EXPLICIT_ANCHOR.match(line.strip())
        if explicit:
            waiting.append(explicit.group(1))
            continue
        heading = HEADING.match(line)
        if heading:
            for anchor in [*waiting, slug(heading.group(2))]:
                found.setdefault(anchor, number)
            waiting = []
        elif line.strip():
            waiting = []
    return found


def section(text: str, anchor: str) -> str:
    """Return one section of a page: its heading and everything up to the next heading of its level or above"""
    lines = text.splitlines()
    start = sections(text)[anchor]
    level = len(HEADING.match(lines[start]).group(1))  # type: ignore[union-attr]
    end = next((n for n in range(start + 1, len(lines))
                if (h := HEADING.match(lines[n])) and len(h.group(1)) <= level), len(lines))
    while end > start + 1 and (not lines[end - 1].strip() or EXPLICIT_ANCHOR.match(lines[end - 1].strip())):
        end -= 1
    return "\n".join(lines[start:end]) + "\n"


def as_text(name: str, path: Path, text: str) -> str:
    """Turn a page's Markdown into what the terminal shows: links to pages as `ambush docs NAME`, pictures by path"""
    root = docs_root().resolve()

    def link(match: re.Match[str]) -> str:
        image, label, target = match.groups()
        file, _, anchor = target.partition("#")
        if "://" in file:
            return match.group(0)
        linked = (path.parent / file).resolve() if file else path.resolve()
        if image or (linked.is_relative_to(root) and linked.suffix != ".md" and linked.exists()):
            return f"[{label or 'picture'}: {linked}]"
        if not linked.is_relative_to(root) or linked.suffix != ".md":
            return match.group(0)
        command = f"`ambush docs {page_name(linked.relative_to(root).as_posix())}{'#' + anchor if anchor else ''}`"
        shown = label.strip("`")
        return command if shown in ("", target) or re.fullmatch(r"[\w./-]+(\.md|/)", shown) else f"{label} ({command})"

    kept = [line for line in text.splitlines() if not EXPLICIT_ANCHOR.match(line.strip())]
    return LINK.sub(link, "\n".join(kept)).rstrip("\n") + "\n"


def page_text(reference: str) -> str:
    """Return a page, or the section a reference's anchor names, as the terminal shows it"""
    name, path, anchor = resolve(reference)
    text = path.read_text(encoding="utf-8")
    return as_text(name, path, section(text, anchor) if anchor else text)


def summaries(found: dict[str, Path]) -> dict[str, str]:
    """Return what each page is for: the line an index's table gives it, else its title"""
    root = docs_root().resolve()
    said: dict[str, str] = {}
    for path in found.values():
        if path.name != "README.md":
            continue
        for row in path.read_text(encoding="utf-8").splitlines():
            cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
            target = LINK.search(cells[0]) if len(cells) == 2 else None
            if target and target.group(3).endswith(".md"):
                linked = (path.parent / target.group(3)).resolve().relative_to(root).as_posix()
                said.setdefault(page_name(linked), cells[1])
    titles = {name: next((m.group(2) for line in path.read_text(encoding="utf-8").splitlines()
                          if (m := HEADING.match(line))), name).replace("`", "") for name, path in found.items()}
    return {name: said.get(name, titles[name]) for name in found}


def listing() -> str:
    """List every page with what it is for"""
    found = pages()
    width = max(map(len, found))
    lines = ["The pages of ambush's documentation; `ambush docs PAGE` prints one, `ambush docs PAGE#SECTION` one of "
             "its sections:", ""]
    lines += [f"  {name:<{width}}  {said}" for name, said in summaries(found).items()]
    return "\n".join(lines) + "\n"
