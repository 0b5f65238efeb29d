"""What the web page keeps in the browser, read back in headless Chromium: every kind of damage to the kept state ends
in a page that works, keeps each part that could be read, names what it dropped and offers the kept text as it was;
a state of the page before schema 2 is read whole; and the history kept per turn stays small in a fight of hundreds"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.browser import new_tab, page_url
from tests.web_pages import catalogue, idle, pasted, reload_kept, rolled_partial, type_dice
from tools.web_pages import build_pages, campaign_text

pytestmark = pytest.mark.slow  # seconds of builds and a browser: run early (conftest.py)

KEY = "ambush:web-0"
ASIDE = f"{KEY}:damaged"
NAMES = ["Ava", "Brom", "Krell", "Scab", "Dog"]
PARTS = ["language", "settings", "dice", "draft", "fight"]


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """The GURPS page in three languages, and one for the 200-combatant fight"""
    root = tmp_path_factory.mktemp("web-kept")
    built = build_pages(root, [campaign_text(0, "gurps4e", {}, ("en", "de", "zh-CN")), campaign_text(1, "gurps4e", {})])
    return {"gurps": built[0], "crowd": built[1]}


@pytest.fixture
def fresh(browser):
    """Open tabs in fresh contexts (each its own, empty localStorage), closed when the test ends"""
    opened = []

    def open_fresh(**context):
        opened.append(new_tab(browser, **context))
        return opened[-1]
    yield open_fresh
    for page in opened:
        page.context.close()


def typed_in(page, faces: list[int]) -> None:
    """Type the faces into the dice forms the page asks with, and wait until its action is over"""
    type_dice(page, faces)
    idle(page)


def kept_text(page, key: str = KEY) -> str | None:
    return page.evaluate("(key) => localStorage.getItem(key)", key)


def load_with(page, path: Path, text: str | None, aside: str | None = None) -> None:
    """Open the page with this text kept (and this text set aside before), as a reload finds it

    The text is put in place before the page's script runs, by a script of the tab's first document after this call:
    set from a page and read by the next one, it may not yet have reached the new document (Chromium keeps
    localStorage in the browser process), which would then start as if nothing were kept.
    """
    marker = f"seeded-{id(text)}-{id(aside)}"
    page.add_init_script(f"""(([key, text, asideKey, aside, marker]) => {{
        if (window.name === marker) return;
        window.name = marker;
        localStorage.clear();
        if (text !== null) localStorage.setItem(key, text);
        if (aside !== null) localStorage.setItem(asideKey, aside);
    }})({json.dumps([KEY, text, ASIDE, aside, marker])});""")
    page.errors.clear()
    page.goto(page_url(path))
    page.wait_for_selector("#roll", state="attached")


@pytest.fixture(scope="module")
def good(browser, pages) -> dict:
    """A state kept mid-fight, every part unlike a fresh page's: German, cards to the GM, turns not passed on, dice
    typed in, the example's five combatants, round 1 at Krell's turn with Ava and Brom stunned, cards in the log"""
    page = new_tab(browser)
    page.goto(page_url(pages["gurps"]))
    page.wait_for_selector("#roll")
    page.select_option("#language", "de")
    pasted(page)
    page.check("input[name=dice-mode][value=typed]")
    page.uncheck("#skip")
    page.check("input[name=cards][value=gm]")
    page.click("#roll")
    typed_in(page, [2, 5])  # side A rolls 2, side B 5: Ava and Brom are stunned
    page.check("#show-gm")  # every card is the GM's: shown, as the page keeps them
    for _ in range(3):  # Ava's and Brom's IQ rolls fail (18), then Krell's turn
        page.click("#next")
        if _ < 2:
            typed_in(page, [6, 6, 6])
        idle(page)
    state = json.loads(kept_text(page))
    page.context.close()
    assert (state["table"]["round"], state["table"]["turn"], state["language"]) == (1, 2, "de")
    assert state["table"]["statuses"]["c1"] == ["surprised"] and state["log"]
    return state


def edited(change):
    """A kind of damage: the good state changed in place by `change`, written as JSON"""
    def damage(state: dict) -> str:
        state = copy.deepcopy(state)
        change(state)
        return json.dumps(state)
    return damage


def written(text: str):
    return lambda state: text


def setting(path: str, value):
    """Set a value at a dotted path (list items by index); a value of DELETE removes the key"""
    def change(state: dict) -> None:
        *parents, last = path.split(".")
        holder = state
        for part in parents:
            holder = holder[int(part)] if isinstance(holder, list) else holder[part]
        if value is DELETE:
            del holder[last]
        elif isinstance(holder, list):
            holder[int(last)] = value
        else:
            holder[last] = value
    return change


DELETE = object()


def also(*changes):
    def change(state: dict) -> None:
        for one in changes:
            one(state)
    return change


# Each kind of damage, with the parts the page must start without; "newer": a later page's state, read not at all.
DAMAGE = {
    "not-json": (lambda state: "this is not what the page keeps {", PARTS),
    "truncated-json": (lambda state: json.dumps(state)[: len(json.dumps(state)) // 2], PARTS),
    "json-null": (written("null"), PARTS),
    "json-list": (written("[1, 2]"), PARTS),
    "json-text": (written('"kept"'), PARTS),
    "empty-text": (written(""), PARTS),
    "future-schema": (edited(setting("schema", 3)), "newer"),
    "schema-null": (edited(setting("schema", None)), []),
    "schema-missing": (edited(setting("schema", DELETE)), []),
    "unknown-key": (edited(setting("extra", {"x": 1})), []),
    "language-null": (edited(setting("language", None)), ["language"]),
    "language-unknown": (edited(setting("language", "fr")), ["language"]),
    "settings-null": (edited(setting("settings", None)), ["settings"]),
    "settings-cards-unknown": (edited(setting("settings.cards", "everyone")), ["settings"]),
    "settings-skip-text": (edited(setting("settings.skip", "no")), ["settings"]),
    "dice-missing": (edited(setting("dice", DELETE)), ["dice"]),
    "dice-unknown": (edited(setting("dice", "loaded")), ["dice"]),
    "next-id-null": (edited(setting("nextId", None)), []),
    "next-id-taken": (edited(setting("nextId", 2)), []),
    "draft-null": (edited(setting("draft", None)), ["draft"]),
    "draft-member-null": (edited(setting("draft.sides.a.members.0", None)), ["draft"]),
    "draft-member-no-id": (edited(setting("draft.sides.b.members.1.id", DELETE)), ["draft"]),
    "draft-id-twice": (edited(setting("draft.sides.b.members.0.id", "c1")), ["draft"]),
    # A number field may hold the text the GM typed (the page names it and Roll waits); a list it never holds.
    "draft-value-list": (edited(setting("draft.sides.a.members.1.iq", ["ten"])), ["draft"]),
    "draft-procedure-unknown": (edited(setting("draft.procedure", "ambush")), ["draft"]),
    "draft-side-missing": (edited(setting("draft.sides.b", DELETE)), ["draft"]),
    "draft-out-member-null": (edited(setting("draft.out", [None])), ["draft"]),
    "surprise-empty": (edited(setting("surprise", {})), ["fight"]),
    "surprise-missing": (edited(setting("surprise", DELETE)), ["fight"]),
    "surprise-other-system": (edited(setting("surprise.scenario.system", "adnd1e")), ["fight"]),
    "surprise-label-missing": (edited(setting("surprise.labels.c2", DELETE)), ["fight"]),
    "surprise-applied-unknown-status": (edited(setting("surprise.applied.c1", ["asleep at the wheel"])), ["fight"]),
    "surprise-follow-null": (edited(setting("surprise.follow", None)), ["fight"]),
    "surprise-tracks-text": (edited(setting("surprise.tracks", "stunned")), ["fight"]),
    "surprise-outcome-null": (edited(setting("surprise.outcome", None)), ["fight"]),
    "table-null": (edited(setting("table", None)), ["fight"]),
    "table-order-unknown-id": (edited(setting("table.order.4", "c99")), ["fight"]),
    "table-turn-beyond-order": (edited(setting("table.turn", 5)), ["fight"]),
    "table-statuses-not-lists": (edited(setting("table.statuses.c1", "surprised")), ["fight"]),
    "log-null": (edited(setting("log", None)), ["fight"]),
    "log-lines-not-a-list": (edited(setting("log.0.lines", "lines")), ["fight"]),
    "turns-null": (edited(setting("turns", None)), ["fight"]),
    "turn-unknown-id": (edited(setting("turns.0.id", "c99")), ["fight"]),
    "everything-wrong-but-the-draft": (
        edited(also(setting("language", 7), setting("settings", []), setting("dice", None), setting("surprise", {}))),
        ["language", "settings", "dice", "fight"]),
}


def read_parts(page) -> dict:
    """What the page shows of each part of the state"""
    return {
        "language": page.get_attribute("html", "lang"),
        "settings": (page.is_checked("#skip"), page.locator("input[name=cards]:checked").get_attribute("value")),
        "dice": page.locator("input[name=dice-mode]:checked").get_attribute("value"),
        "draft": page.locator("[data-rename]").evaluate_all("(inputs) => inputs.map((input) => input.value)"),
        "fight": page.is_visible("#table") and page.inner_text("#order").count("\n") >= 4
        and page.locator("#log .card").count(),
    }


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_kept_state_keeps_what_can_be_read(fresh, pages, good, kind, tmp_path):
    damage, lost = DAMAGE[kind]
    text = damage(good)
    page = fresh()
    load_with(page, pages["gurps"], text)
    # 1. The page renders and throws nothing.
    assert page.errors == [], f"1. the page threw: {page.errors}"
    # 2. Every part that could be read is kept; the others are a fresh page's.
    dropped = PARTS if lost == "newer" else lost
    fine = {"language": "de", "settings": (False, "gm"), "dice": "typed", "draft": NAMES, "fight": len(good["log"])}
    afresh = {"language": "en", "settings": (True, "split"), "dice": "page", "draft": [], "fight": False}
    expected = {part: afresh[part] if part in dropped else fine[part] for part in PARTS}
    assert read_parts(page) == expected, "2. the parts kept are not those that could be read"
    # 3. What was dropped is named, in the page's language; the kept text is set aside as it was.
    strings = catalogue(expected["language"])
    assert page.locator("#kept").count() == 1, "3. no notice names what was dropped"
    notice = page.inner_text("#kept")
    if lost == "newer":
        assert strings["Web.Kept.Newer"] in notice
    else:
        assert strings["Web.Kept.Damaged"] in notice
        assert {part for part in PARTS if strings[f"Web.Kept.Part.{part}"] in notice} == set(lost)
        assert (strings["Web.Kept.NothingLost"] in notice) == (not lost)
    assert kept_text(page, ASIDE) == text
    # 4. The kept text downloads as it was, byte for byte.
    with page.expect_download() as download:
        page.click("#kept-download")
    assert Path(download.value.path()).read_bytes() == text.encode("utf-8"), "4. the download is not the kept text"
    # 5. The next action works: roll the encounter, the kept one or the example pasted anew.
    if page.locator("#prepare-box:not([open])").count():  # a fight kept: its draft is folded away
        page.click("#prepare-box > summary")
    if "draft" in dropped:
        pasted(page)
    page.click("#roll")  # a fight kept: the GM is asked whether it ends, and says yes (tests/browser.py)
    if expected["dice"] == "typed":
        typed_in(page, [2, 5])
    idle(page)
    # Not understood: about one run in six of this file the roll has left no surprise kept when the page is idle (CI of
    # 2026-12-04, json-null). Waiting for it makes such a run a TimeoutError, which the page tests' rerun policy
    # covers (tests/conftest.py); a roll that fails twice still fails the test.
    page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.surprise", arg=KEY,
                           timeout=15_000)
    state = json.loads(kept_text(page))
    assert state["schema"] == 2 and state["surprise"] and "Ava" in page.inner_text("#order"), "5. the roll failed"
    assert page.errors == [], f"5. the page threw: {page.errors}"
    assert kept_text(page, ASIDE) == text


def test_storage_off_the_page_works_and_says_it_keeps_nothing(fresh, pages):
    page = fresh()
    page.context.add_init_script("Object.defineProperty(window, 'localStorage', "
                                 "{ get() { throw new DOMException('denied', 'SecurityError'); } });")
    page.goto(page_url(pages["gurps"]))
    page.wait_for_selector("#roll")
    assert page.inner_text("#notice") == catalogue("en")["Web.NotKept"]
    pasted(page)
    page.click("#roll")
    idle(page)
    assert "Ava" in page.inner_text("#order") and page.errors == []


def test_damaged_text_that_cannot_be_set_aside_is_not_written_over_until_downloaded(fresh, pages, good):
    """A second damaged text while an earlier one is still set aside: the main key waits for the GM's download"""
    damaged = json.dumps({**good, "settings": None})
    page = fresh()
    load_with(page, pages["gurps"], damaged, aside="the earlier damaged text")
    strings = catalogue("de")
    assert strings["Web.Kept.Held"] in page.inner_text("#kept")
    page.click("#prepare-box > summary")  # the fight was kept: its draft is folded away
    page.click("#roll")
    typed_in(page, [2, 5])
    assert kept_text(page) == damaged and kept_text(page, ASIDE) == "the earlier damaged text"
    assert page.inner_text("#notice") == strings["Web.NotKept"]
    with page.expect_download() as download:
        page.click("#kept-download")
    assert Path(download.value.path()).read_bytes() == damaged.encode("utf-8")
    page.click("#next")  # Ava's and Brom's IQ rolls fail, their turns are passed on
    typed_in(page, [6, 6, 6, 6, 6, 6])
    assert json.loads(kept_text(page))["table"]["started"] is True
    reload_kept(page)  # the earlier text is still offered, until the GM deletes it
    page.wait_for_selector("#kept")
    assert strings["Web.Kept.Earlier"] in page.inner_text("#kept")
    with page.expect_download() as download:
        page.click("#kept-download")
    assert Path(download.value.path()).read_bytes() == b"the earlier damaged text"
    page.click("#kept-delete")
    assert kept_text(page, ASIDE) is None and page.locator("#kept").count() == 0
    reload_kept(page)
    page.wait_for_selector("#next")
    assert page.locator("#kept").count() == 0 and page.errors == []


def statuses_by_turn(turns: list[dict], order: list[str]) -> list[dict]:
    """Each turn's statuses of every combatant, rebuilt from the changes schema 2 keeps"""
    now: dict = {}
    out = []
    for turn in turns:
        now = {**now, **turn.get("changed", {})}
        out.append({who: now.get(who, []) for who in order})
    return out


def at_krells_turn(fresh, pages):
    """A GURPS partial fight on a fresh page: Ava's and Brom's IQ rolls fail, their turns passed on; the page and what
    it kept at Krell's turn"""
    page = fresh()
    page.goto(page_url(pages["gurps"]))
    page.wait_for_selector("#roll")
    rolled_partial(page)
    page.click("#next")
    typed_in(page, [6, 6, 6, 6, 6, 6])
    return page, json.loads(kept_text(page))


def test_a_state_of_schema_1_is_read_whole_and_the_fight_goes_on(fresh, pages):
    """A GM mid-fight when the page is upgraded: the state of schema 1 (every turn record a copy of every combatant's
    statuses) is read as it was, the passed turns still marked, and the fight goes on"""
    page, state = at_krells_turn(fresh, pages)
    order = state["table"]["order"]
    statuses = statuses_by_turn(state["turns"], order)
    assert [turn["passed"] for turn in state["turns"]] == [True, True, False]
    assert statuses[0]["c1"] == ["surprised"]
    version_1 = {**state, "schema": 1, "turns": [
        {key: value for key, value in turn.items() if key != "changed"} | {"statuses": statuses[index]}
        for index, turn in enumerate(state["turns"])]}
    load_with(page, pages["gurps"], json.dumps(version_1))
    assert page.locator("#kept").count() == 0 and page.errors == []
    assert page.locator("#order .passed").count() == 2 and "Krell" in page.inner_text("#order li.current")
    page.click("#next")
    idle(page)
    after = json.loads(kept_text(page))
    assert after["schema"] == 2 and after["table"]["turn"] == 3
    assert statuses_by_turn(after["turns"], order)[:3] == statuses and after["turns"][:3] == state["turns"]


def test_a_fight_kept_before_the_stun_tracks_were_kept_by_combatant_goes_on(fresh, pages):
    """A fight kept by the page before this one: its stun tracks a list and its outcome filled turn by turn. It is read
    whole, plays on, and is kept in today's form: tracks by combatant, the outcome as rolled"""
    page, state = at_krells_turn(fresh, pages)
    surprise = state["fight"]["surprise"] if "fight" in state else state["surprise"]
    tracks = list(surprise["tracks"].values())
    assert [track["name"] for track in tracks] == ["c1", "c2"]
    earlier = {**surprise, "tracks": tracks, "outcome": {**surprise["outcome"], "members": {
        track["name"]: {"lost": track["lost"], "turns": track["turns"]} for track in tracks}}}
    kept = {**state, "fight": {**state["fight"], "surprise": earlier}} if "fight" in state else {**state, "surprise": earlier}
    load_with(page, pages["gurps"], json.dumps(kept))
    assert page.locator("#kept").count() == 0 and page.errors == []
    assert "Krell" in page.inner_text("#order li.current")
    for _ in range(2):  # Krell's turn over, then the last one of round 1
        page.click("#next")
        idle(page)
    page.click("#next")  # round 2: Ava's and Brom's IQ rolls, asked for
    typed_in(page, [1, 1, 1, 6, 6, 6])  # Ava rolls a 3 and recovers, Brom an 18 and does not: both turns passed on
    after = json.loads(kept_text(page))
    played = after["fight"]["surprise"] if "fight" in after else after["surprise"]
    assert isinstance(played["tracks"], dict) and "members" not in played["outcome"]
    assert [len(track["turns"]) for track in played["tracks"].values()] == [2, 2]
    assert played["tracks"]["c1"]["lost"] == 2 and played["tracks"]["c2"]["lost"] is None
    assert "Krell" in page.inner_text("#order li.current") and after["table"]["round"] == 2


CROWD = 200


def crowd_scenario() -> str:
    """199 of side A to be stunned, IQ 3 to 5 (a few recover each round) against one of side B"""
    lines = ['system = "gurps4e"', 'procedure = "partial"', "[sides.a]", 'leader = "a0"']
    for index in range(CROWD - 1):
        lines += ["[[sides.a.members]]", f'name = "a{index}"', f"iq = {3 + index % 3}"]
    lines += ["[sides.b]", 'leader = "b0"', "[[sides.b.members]]", 'name = "b0"', "iq = 12"]
    return "\n".join(lines) + "\n"


def test_the_history_kept_per_turn_stays_far_below_a_copy_of_every_combatant_s_statuses(fresh, pages):
    """A fight of 200 whose stunned turns are passed on each round: from round 2 to round 4 the kept state grows per
    turn by less than a fifth of one copy of every combatant's statuses (schema 1 kept such a copy each turn)"""
    page = fresh()
    page.goto(page_url(pages["crowd"]))
    page.wait_for_selector("#roll")
    page.fill("#file-text", crowd_scenario())
    page.click("[data-action=read-file]")
    page.check("input[name=dice-mode][value=typed]")
    page.click("#roll")
    typed_in(page, [2, 5])  # side A loses the initiative roll: its 199 are stunned
    page.click("#prepare-box > summary")  # the settings are in the draft, folded away during the fight
    page.check("input[name=dice-mode][value=page]")
    sizes = {}
    while len(sizes) < 4:  # Next passes side A's stunned turns on, to the next who recovered or to side B's one
        page.click("#next")
        idle(page)
        round_now = int(page.inner_text("#round").split()[1])
        if round_now not in sizes:
            text = kept_text(page, "ambush:web-1")
            sizes[round_now] = (len(text), len(json.loads(text)["turns"]))
    state = json.loads(text)
    copy_of_statuses = len(json.dumps(state["table"]["statuses"]))
    assert len(state["table"]["statuses"]) > CROWD // 2 and state["table"]["round"] == 4 and page.errors == []
    (first, first_turns), (last, last_turns) = sizes[2], sizes[4]
    per_turn = (last - first) / (last_turns - first_turns)
    print(f"{per_turn:.0f} characters kept per turn; one copy of every combatant's statuses: {copy_of_statuses}")
    assert per_turn < copy_of_statuses / 5


def test_a_fight_changed_by_the_gm_and_a_draft_with_a_typo_are_read_back_whole(fresh, pages):
    """What the page itself keeps is never taken for damage: a late arrival taken out again, a member taken out, the
    rounds, the cards shown, the folded draft holding a value typed wrong"""
    page = fresh()
    page.goto(page_url(pages["gurps"]))
    page.wait_for_selector("#roll")
    rolled_partial(page)  # Ava and Brom are stunned
    page.check("#show-gm")
    page.fill("#late-name", "Vex")
    page.click("#late button[type=submit]")
    idle(page)
    page.click("#next")  # Ava's and Brom's IQ rolls fail: Krell's turn
    typed_in(page, [6, 6, 6, 6, 6, 6])
    for who in ("c2", "c6"):  # Brom, then Vex
        page.click(f"[data-take-out='{who}']")
        idle(page)
    page.click("#prepare-box > summary")
    page.fill("[data-path='members.c1.iq']", "1O")
    before = json.loads(kept_text(page))
    assert before["table"]["late"] and "c2" in before["surprise"]["follow"]["gone"]
    assert {turn["id"] for turn in before["turns"]} >= {"c1", "c2"} and before["draft"]["sides"]["a"]["members"][0]["iq"] == "1O"
    order = page.inner_text("#order")
    reload_kept(page)
    page.wait_for_selector("#next")
    assert page.locator("#kept").count() == 0 and page.errors == []
    assert json.loads(kept_text(page)) == before and page.inner_text("#order") == order
    assert page.input_value("[data-path='members.c1.iq']") == "1O" and page.is_checked("#show-gm")
    page.click("#next")
    idle(page)
    assert json.loads(kept_text(page))["table"]["turn"] != before["table"]["turn"] and page.errors == []
