"""The web page as a GM uses it at a table, in headless Chromium: what he types is never lost or silently replaced,
the fight is in view once rolled, the fight can change (a new roll asks first, a combatant taken out, one arriving
late), the GM's numbers stay off a shared screen, and the tracker numbers AD&D's rounds as the cards do"""

from __future__ import annotations

import json

import pytest

from tests.browser import TIMEOUT_MS, page_url, show
from tests.web_pages import (
    catalogue,
    idle,
    pasted,
    reload_kept,
    rolled_partial,
    speak,
    stored,
    type_dice,
)
from tools.web_pages import build_pages, campaign_text

pytestmark = pytest.mark.slow  # seconds of builds, subprocesses or Node: run early (conftest.py)

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
EN = catalogue("en")
IQ = "[data-path='members.c2.iq']"  # Brom's IQ in gurps-partial.toml: 10


def in_view(page, selector: str) -> bool:
    """Tell whether an element's box lies in the window as it is scrolled now"""
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector)?.getBoundingClientRect();
        return Boolean(box) && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
            && box.left >= 0 && box.right <= window.innerWidth;
    }""", selector)


def covered_buttons(page) -> list[str]:
    """Return the buttons and fields another element covers at their centre, each scrolled into view first"""
    return page.evaluate("""() => [...document.querySelectorAll("#app button, #app input, #app select")]
        .filter((element) => element.checkVisibility() && element.type !== "file")
        .filter((element) => {
            element.scrollIntoView({ block: "center" });
            const box = element.getBoundingClientRect();
            const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return !(top === element || element.contains(top) || element.labels?.[0]?.contains(top));
        }).map((element) => element.id || element.outerHTML.slice(0, 80))""")


def answered(browser, answers: list[bool], **context):
    """Open a tab whose confirm dialogs get these answers in turn; the messages asked are kept on it"""
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.asked = []

    def answer(dialog):
        page.asked.append(dialog.message)
        dialog.accept() if answers.pop(0) else dialog.dismiss()
    page.on("dialog", answer)
    return page


@pytest.fixture(scope="module")
def adnd_page(tmp_path_factory):
    """The AD&D page with its default options"""
    return build_pages(tmp_path_factory.mktemp("web-adnd"), [campaign_text(0, "adnd1e", {})])[0]


@pytest.mark.parametrize("move", ["click", "tab", "tap"])
def test_a_value_typed_after_a_name_lands_where_the_gm_aimed(fresh, pages, move):
    phone = move == "tap"
    page = fresh(pages["gurps"], **({"viewport": PHONE, "has_touch": True} if phone else {"viewport": LAPTOP}))
    page.click("[data-add=a]")
    page.keyboard.type("Vex")  # the new combatant's name has the focus, selected: typing replaces it
    iq = "[data-path='members.c1.iq']"
    if move == "click":
        page.click(iq)
    elif move == "tap":
        page.tap(iq)
    else:
        page.keyboard.press("Tab")  # where he stands
        page.keyboard.press("Tab")
    page.keyboard.type("12")
    assert page.evaluate("document.activeElement.dataset.path") == "members.c1.iq"
    member = stored(page)["draft"]["sides"]["a"]["members"][0]
    assert (member["name"], member["iq"]) == ("Vex", 12)
    page.fill("#side-name-a", "The Company")
    page.click(iq)
    page.keyboard.press("End")
    page.keyboard.type("3")
    assert stored(page)["draft"]["sides"]["a"]["name"] == "The Company"
    assert stored(page)["draft"]["sides"]["a"]["members"][0]["iq"] == 123
    assert page.evaluate("document.activeElement.dataset.path") == "members.c1.iq"
    assert page.errors == []


@pytest.mark.parametrize("typo", ["1O", "abc", "12.5"])
def test_a_typo_is_marked_on_its_field_kept_and_blocks_the_roll(tab, pages, typo):
    page = show(tab, pages["gurps"])
    pasted(page)
    page.fill(IQ, typo)
    assert page.get_attribute(IQ, "aria-invalid") == "true"
    problem = page.locator(f"[id='{page.get_attribute(IQ, 'aria-describedby')}']")
    assert problem.get_attribute("aria-live") == "polite"
    said = problem.inner_text()
    assert "Brom" in said and "IQ" in said and typo in said
    assert stored(page)["draft"]["sides"]["a"]["members"][1]["iq"] == typo  # kept as typed, never the old 10
    assert said in page.inner_text("#odds")
    page.click("#roll")
    assert stored(page)["surprise"] is None
    assert said in page.inner_text("#notice")
    assert page.evaluate("document.activeElement.dataset.path") == "members.c2.iq"
    page.fill(IQ, "10")
    assert page.get_attribute(IQ, "aria-invalid") is None and problem.inner_text() == ""
    page.click("#roll")
    idle(page)
    assert stored(page)["surprise"] is not None


def test_a_name_given_twice_or_left_empty_is_marked_and_the_choices_follow_it(tab, pages):
    page = show(tab, pages["gurps"])
    pasted(page)
    name = "[data-rename='c1']"  # Ava, side A's leader
    page.fill(name, "Brom")
    page.dispatch_event(name, "change")
    assert page.get_attribute(name, "aria-invalid") == "true"
    assert EN["Notify.Twice"].replace("{name}", "Brom") in page.inner_text("#odds")
    page.fill(name, "")
    page.dispatch_event(name, "change")
    assert page.get_attribute(name, "aria-invalid") == "true"
    page.fill(name, "Ava the Bold")
    page.dispatch_event(name, "change")
    draft = stored(page)["draft"]
    assert page.get_attribute(name, "aria-invalid") is None
    assert draft["sides"]["a"]["leader"] == "Ava the Bold" and "named" not in draft["sides"]["a"]["members"][0]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_before_the_roll_the_odds_sit_beside_the_form_and_cover_nothing(fresh, pages, viewport):
    page = fresh(pages["gurps"], viewport=viewport, has_touch=viewport is PHONE)
    pasted(page)
    boxes = page.evaluate("""() => Object.fromEntries(["prepare", "odds", "roll"].map((id) => {
        const box = document.getElementById(id).getBoundingClientRect();
        return [id, { left: box.left, right: box.right, top: box.top + scrollY, bottom: box.bottom + scrollY }];
    }))""")
    if viewport is LAPTOP:
        assert boxes["odds"]["left"] >= boxes["prepare"]["right"] and boxes["odds"]["top"] < boxes["prepare"]["bottom"]
    else:
        assert boxes["prepare"]["bottom"] <= boxes["odds"]["top"] <= boxes["odds"]["bottom"] <= boxes["roll"]["top"]
    assert covered_buttons(page) == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_after_the_roll_the_fight_is_in_view_and_the_form_folded_away(fresh, pages, viewport):
    page = fresh(pages["gurps"], viewport=viewport, has_touch=viewport is PHONE)
    pasted(page)
    page.locator("#roll").scroll_into_view_if_needed()
    page.click("#roll")  # the page's own dice
    idle(page)
    assert page.evaluate("document.activeElement.id") == "next"
    for selector in ("#next", "#round", "#log .card .card-title"):
        assert in_view(page, selector), selector
    assert page.locator("#prepare").is_hidden()
    for _ in range(4):
        page.click("#next")
        idle(page)
        for selector in ("#next", "#turn-of", "#order li.current"):
            assert in_view(page, selector), selector
    assert covered_buttons(page) == []
    page.click("#prepare-box summary")  # the form opens again, and stays open
    assert page.locator("#prepare").is_visible()
    reload_kept(page)
    page.wait_for_selector("#next")
    assert page.locator("#prepare").is_visible()
    assert page.errors == []


def test_a_roll_during_a_fight_asks_first(browser, pages):
    page = answered(browser, [False, True])
    page.goto(page_url(pages["gurps"]))
    rolled_partial(page)
    page.click("#next")
    type_dice(page, [3, 3, 3, 3, 3, 3])
    idle(page)
    page.click("#prepare-box summary")
    before = stored(page)  # with the form open
    page.click("#roll")  # the GM says no: the fight goes on as it was
    assert page.asked == [EN["Web.RollConfirm"]] and stored(page) == before
    page.click("#roll")  # yes: a new surprise, from the first turn
    type_dice(page, [5, 2])
    idle(page)
    after = stored(page)
    assert len(page.asked) == 2 and after["table"]["started"] is False
    assert after["surprise"]["outcome"] != before["surprise"]["outcome"]
    page.context.close()


def test_a_combatant_taken_out_loses_his_statuses_and_his_turns(fresh, pages):
    page = fresh(pages["gurps"])
    rolled_partial(page)  # Ava and Brom are stunned
    before = stored(page)["table"]["statuses"]
    assert before["c2"] and before["c1"]
    page.click("[data-take-out='c2']")  # Brom
    state = stored(page)
    assert "c2" not in state["table"]["order"] and "c2" not in state["table"]["statuses"]
    assert {key: value for key, value in state["table"]["statuses"].items()} == {k: v for k, v in before.items() if k != "c2"}
    assert "c2" in state["surprise"]["follow"]["gone"]
    assert "c2" not in state["surprise"]["tracks"]
    page.click("#next")  # the fight starts: Ava's turn, her IQ roll
    type_dice(page, [6, 6, 6])
    idle(page)
    page.click("[data-take-out='c1']")  # Ava, whose turn it is: the turn passes to the next row, Krell
    idle(page)
    state = stored(page)
    assert state["table"]["order"] == ["c3", "c4", "c5"] and state["table"]["turn"] == 0
    assert page.inner_text("#turn-of") == EN["Web.TurnOf"].replace("{name}", "Krell")
    assert "Brom" not in page.inner_text("#order") and "Ava" not in page.inner_text("#order")
    for _ in range(4):
        page.click("#next")
        idle(page)
    assert {turn["id"] for turn in stored(page)["turns"]} <= {"c1", "c3", "c4", "c5"}
    assert page.errors == []


def test_a_late_arrival_joins_and_acts_unsurprised(fresh, pages):
    page = fresh(pages["gurps"])
    rolled_partial(page)
    page.fill("#late-name", "Krell")  # a name in the fight already
    page.click("#late button[type=submit]")
    assert page.get_attribute("#late-name", "aria-invalid") == "true"
    assert EN["Web.Late.Taken"].replace("{name}", "Krell") in page.inner_text("#late")
    page.fill("#late-name", "Vex")
    page.select_option("#late-side", "b")
    page.click("#late button[type=submit]")
    idle(page)
    state = stored(page)
    vex = state["table"]["order"][-1]
    assert state["table"]["late"][vex] == {"name": "Vex", "side": "b"} and len(state["table"]["order"]) == 6
    assert page.inner_text("#order li:last-child .who") == "Vex"
    for _ in range(6):  # round 1 to Vex's turn: Ava and Brom roll and stay stunned, the others act
        page.click("#next")
        if page.locator("#dice:not([hidden])").count():
            type_dice(page, [6, 6, 6, 6, 6, 6])
        idle(page)
        if stored(page)["table"]["order"][stored(page)["table"]["turn"]] == vex:
            break
    state = stored(page)
    assert state["table"]["order"][state["table"]["turn"]] == vex
    assert state["turns"][-1]["id"] == vex and state["turns"][-1]["passed"] is False
    assert state["table"]["statuses"].get(vex, []) == []
    assert page.inner_text("#turn-of") == EN["Web.TurnOf"].replace("{name}", "Vex")


def test_the_gm_cards_stay_hidden_until_shown_and_the_players_view_shows_only_theirs(fresh, pages):
    page = fresh(pages["gurps"])
    rolled_partial(page)
    gm = sum(message["gm"] for message in stored(page)["log"])
    assert gm and page.locator("#log .card.gm").count() == 0
    assert str(gm) in page.inner_text("#log-box")
    page.check("#show-gm")
    assert page.locator("#log .card.gm").count() == gm
    reload_kept(page)
    page.wait_for_selector("#next")
    assert page.locator("#log .card.gm").count() == gm  # the page remembers
    page.click("#players-view")
    assert page.get_attribute("#players-view", "aria-pressed") == "true"
    for hidden in ("#log .card.gm", "#prepare", "#odds", "#late", "[data-take-out]", "#new-encounter", "#clear",
                   "#show-gm"):
        assert page.locator(hidden).count() == 0, hidden
    assert page.locator("#log .card").count() == len([m for m in stored(page)["log"] if not m["gm"]])
    page.click("#next")
    page.wait_for_selector("#dice:not([hidden]) input")
    assert page.locator("#dice-what").is_visible() and page.locator("#dice-target").count() == 0
    type_dice(page, [6, 6, 6, 6, 6, 6])
    idle(page)
    reload_kept(page)
    page.wait_for_selector("#next")
    assert page.locator("#prepare, #odds, #log .card.gm").count() == 0  # still the players' view
    page.click("#players-view")
    assert page.locator("#log .card.gm").count() > 0 and page.locator("#late").count() == 1
    assert page.errors == []


def test_adnd_rounds_are_numbered_alike_in_the_tracker_and_the_cards(fresh, adnd_page):
    page = fresh(adnd_page)
    pasted(page, ADND)
    page.check("input[name=dice-mode][value=typed]")
    page.click("#roll")
    type_dice(page, [1, 6])  # the party rolls 1 on its d6: surprised for 1 segment; the gnolls 6: not surprised
    idle(page)
    state = stored(page)
    assert len(state["surprise"]["outcome"]["timeline"]) == 1
    card = page.inner_text("#log")
    segment = EN["Tracking.Segment"].replace("{segment}", "1").replace("{count}", "1")
    first = EN["Web.Round"].replace("{round}", "1")
    headings = []
    while first not in headings and len(headings) < 10:  # the segment's turns, then the first normal round's first
        page.click("#next")
        idle(page)
        headings.append(page.inner_text("#round"))
    assert headings == [segment] * (len(headings) - 1) + [first] and len(headings) > 1
    assert "round 1" in card  # the card: the first normal round after the segments is round 1
    page.click("#previous")
    idle(page)
    assert page.inner_text("#round") == segment
    page.click("#next")
    idle(page)
    assert page.inner_text("#round") == first
    assert page.errors == []


ADND = """system = "adnd1e"
procedure = "roll"

[sides.a]
name = "Party"

[[sides.a.members]]
name = "Elwyn"
dex = 17

[[sides.a.members]]
name = "Gorm"
dex = 10

[sides.b]
name = "Gnolls"

[[sides.b.members]]
name = "Gnoll chief"

[[sides.b.members]]
name = "Gnoll"
"""


FOCUSED_IN_SIGHT = """() => {
    const element = document.activeElement;
    if (!element || element === document.body) return { id: null, seen: false };
    const box = element.getBoundingClientRect();
    const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    const inside = box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
    return { id: element.id || element.dataset.action || element.dataset.takeOut || element.outerHTML.slice(0, 60),
             seen: inside && (top === element || element.contains(top) || Boolean(element.labels?.[0]?.contains(top))) };
}"""
REACHABLE = """() => [...document.querySelectorAll("#app button, #app input, #app select, #app textarea, #app summary")]
    .filter((element) => element.checkVisibility() && !element.disabled)
    .filter((element) => element.type !== "radio" || element.checked)  // a radio group is one Tab stop: its choice
    .map((element) => element.id || element.dataset.action || element.dataset.takeOut || element.outerHTML.slice(0, 60))"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("fight", [False, True], ids=["preparing", "fighting"])
def test_every_control_is_reached_by_the_keyboard_and_in_sight_when_focused(fresh, pages, viewport, fight):
    page = fresh(pages["gurps"], viewport=viewport, has_touch=viewport is PHONE)
    pasted(page)
    if fight:
        page.click("#roll")
        idle(page)
        page.click("#next")
        idle(page)
        page.click("#prepare-box summary")
    wanted = set(page.evaluate(REACHABLE))
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    reached, hidden = set(), []
    for _ in range(3 * len(wanted)):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED_IN_SIGHT)
        if focused["id"] is None:
            continue
        reached.add(focused["id"])
        if not focused["seen"]:
            hidden.append(focused["id"])
    assert wanted - reached == set() and hidden == []


SELECTS_TOO_NARROW = """() => [...document.querySelectorAll("#app select")].filter((select) => select.checkVisibility())
    .filter((select) => {
        const style = getComputedStyle(select);
        const probe = document.createElement("span");
        probe.style.font = style.font;
        probe.style.whiteSpace = "pre";
        probe.style.position = "absolute";
        document.body.append(probe);
        const widest = Math.max(...[...select.options].map((option) => { probe.textContent = option.text; return probe.getBoundingClientRect().width; }));
        probe.remove();
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
        return widest > room;  // 16 px: the arrow
    }).map((select) => select.id)"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("language", ["en", "de", "zh-CN"])
def test_nothing_overflows_the_window_and_no_choice_is_cut_off(fresh, pages, viewport, language):
    page = fresh(pages["gurps"], viewport=viewport, has_touch=viewport is PHONE)
    speak(page, language)
    pasted(page)
    for step in ("prepared", "rolled"):
        if step == "rolled":
            page.click("#roll")
            idle(page)
            page.click("#prepare-box summary")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), step
        assert page.evaluate(SELECTS_TOO_NARROW) == [], step
