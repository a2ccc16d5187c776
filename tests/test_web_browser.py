"""The page of ``python -m catena serve`` in a real browser: headless Chromium, driven through
Selenium, clicks cells of the board, and the engine's replies, the "thinking" state, a
refusal with its reason, undo, hint, save and load show on the page.

It needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them).  Without
them the tests are skipped on a developer's machine, but fail in CI (``CI=true``), where they
must run.  The server is the real command, started on a free port.
"""

import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

import catena

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
WAIT = 60            # seconds a step may take at most on a busy machine before the test fails


def in_ci():
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen([sys.executable, "-m", "catena", "serve", "--port", "0", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    found = re.search(r"http://\S+/", line)
    if not found:
        proc.kill()
        pytest.fail(f"the server did not start: {line}{proc.stderr.read()}")
    yield found.group(0)
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and CHROMEDRIVER):
        missing = "chromium and chromedriver (Debian: apt-get install chromium chromium-driver)"
        if in_ci():
            pytest.fail(f"the browser tests must run in CI, but {missing} are missing")
        pytest.skip(f"{missing} are not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def wait_for(driver, condition, what):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: condition(), message=what)


def text(driver, element_id):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id).text


def moves(driver):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#moves li")


def click_cell(driver, name):
    """A real click (at the middle of the cell's hexagon) on the board's cell ``name``."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'#board polygon.cell[data-cell="{name}"]').click()


def stones(driver):
    from selenium.webdriver.common.by import By

    return {e.get_attribute("data-cell"): e.get_attribute("class").split()[1]
            for e in driver.find_elements(By.CSS_SELECTOR, "#board circle.stone")}


def start(driver, url):
    driver.get(url)
    wait_for(driver, lambda: "Your move" in text(driver, "status"), "the person's first move")


def test_clicks_play_and_the_engine_replies(server, browser):
    start(browser, server + "?size=4&komi=0&colour=black&iterations=300&seed=1")
    assert text(browser, "status").startswith("Your move: black to move")
    from selenium.webdriver.common.by import By

    cells = browser.find_elements(By.CSS_SELECTOR, "#board [data-cell].cell")
    assert sorted(e.get_attribute("data-cell") for e in cells) == sorted(catena.cells(4))
    assert [e.text for e in moves(browser)] == ["komi 0 (P1, you)", "colour white (P2, the engine)"]

    click_cell(browser, "D4")
    wait_for(browser, lambda: len(moves(browser)) == 4, "the engine's reply")
    reply = moves(browser)[3]
    assert reply.get_attribute("class") == "engine" and reply.text.endswith("(white, the engine)")
    answer = reply.get_attribute("data-value")
    assert stones(browser) == {"D4": "black", answer: "white"}
    assert text(browser, "status").startswith("Your move: black to move")

    click_cell(browser, "D4")                                    # occupied: refused with the reason
    wait_for(browser, lambda: text(browser, "message"), "the refusal")
    assert text(browser, "message") == "Refused: D4 is illegal: the cell is occupied"
    assert len(moves(browser)) == 4 and stones(browser) == {"D4": "black", answer: "white"}


def test_the_engine_shows_it_is_thinking(server, browser):
    from selenium.webdriver.common.by import By

    start(browser, server + "?size=4&komi=0&colour=black&seed=2")
    seconds = browser.find_element(By.ID, "engine-seconds")
    seconds.clear()
    seconds.send_keys("1")
    browser.find_element(By.ID, "engine-apply").click()
    wait_for(browser, lambda: "changed" in text(browser, "message"), "the new setting")
    # every state of the status line and of the thinking sign, as the page goes through them
    browser.execute_script("""
        window.seen = [];
        new MutationObserver(() => seen.push([document.getElementById('status').textContent,
                                              !document.getElementById('thinking').hidden]))
            .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});""")
    click_cell(browser, "B2")
    wait_for(browser, lambda: len(moves(browser)) == 4, "the engine's reply")
    seen = browser.execute_script("return window.seen")
    assert ["The engine is thinking (up to 1 s)…", True] in seen
    assert not browser.find_element(By.ID, "thinking").is_displayed()
    assert text(browser, "status").startswith("Your move")


def test_undo_hint_save_and_load(server, browser):
    from selenium.webdriver.common.by import By

    start(browser, server + "?size=3&komi=2&colour=black&iterations=300&seed=3")
    click_cell(browser, "C3")
    wait_for(browser, lambda: len(moves(browser)) == 4, "the engine's reply")
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda: len(moves(browser)) == 2, "the move and its reply taken back")
    assert stones(browser) == {}

    browser.find_element(By.ID, "hint").click()
    wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#hint-text li")) == 3, "the hint")
    best = browser.find_elements(By.CSS_SELECTOR, "#hint-text li")[0].text.split()[0]
    assert browser.find_elements(By.CSS_SELECTOR, f'#board polygon.value[data-cell="{best}"]')   # the heatmap
    click_cell(browser, best)                                    # the heatmap's cells play too
    wait_for(browser, lambda: len(moves(browser)) == 4, "the engine's reply")

    browser.find_element(By.ID, "save").click()
    record = browser.find_element(By.ID, "record-text")
    wait_for(browser, lambda: record.get_attribute("value"), "the saved record")
    game = catena.read_game(record.get_attribute("value")).game()
    assert [str(value) for _, value in game.actions] == [e.get_attribute("data-value") for e in moves(browser)]
    position = browser.find_element(By.ID, "position-text").get_attribute("value")
    assert position == game.position.to_string()

    before = browser.find_element(By.TAG_NAME, "body").get_attribute("data-game")
    browser.find_element(By.ID, "load-text").send_keys(position)
    browser.find_element(By.ID, "load").click()
    wait_for(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-game") != before,
             "the loaded game")
    assert moves(browser) == [] and len(stones(browser)) == 2
    assert text(browser, "status").startswith("Your move: black to move")


def test_two_tabs_are_two_games(server, browser):
    from selenium.webdriver.common.by import By

    start(browser, server + "?size=4&komi=0&colour=black&iterations=300&seed=4")
    click_cell(browser, "A1")
    wait_for(browser, lambda: len(moves(browser)) == 4, "the engine's reply")
    first = browser.find_element(By.TAG_NAME, "body").get_attribute("data-game")
    first_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    start(browser, server + "?size=4&komi=0&colour=black&iterations=300&seed=4")
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-game") != first
    assert len(moves(browser)) == 2 and stones(browser) == {}
    click_cell(browser, "D4")
    wait_for(browser, lambda: len(moves(browser)) == 4, "the engine's reply")
    browser.close()
    browser.switch_to.window(first_tab)
    browser.refresh()                       # a reload starts a game afresh, the other tab's untouched
    wait_for(browser, lambda: "Your move" in text(browser, "status"), "the page again")
    import httpx2

    state = httpx2.get(f"{server}api/games/{first}", timeout=30).json()
    assert [m["value"] for m in state["moves"]][2] == "A1" and len(state["moves"]) == 4


def test_the_new_game_form_and_the_setup(server, browser):
    """A game set up by the form: the engine as P1 bids the komi, the person picks a colour with
    a button; then a no-komi game where the person places P1's stone by clicking it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    start(browser, server + "?size=3&komi=0&colour=black&iterations=300&seed=5")
    Select(browser.find_element(By.ID, "size")).select_by_visible_text("3")
    Select(browser.find_element(By.ID, "you")).select_by_value("P2")
    for field in ("komi", "stone"):
        browser.find_element(By.ID, field).clear()
    Select(browser.find_element(By.ID, "colour")).select_by_value("")
    browser.find_element(By.ID, "start").click()
    colour_buttons = browser.find_element(By.ID, "colour-choice")
    wait_for(browser, colour_buttons.is_displayed, "the colour choice")
    assert [e.text for e in moves(browser)][0].endswith("(P1, the engine)")
    assert "choose your colour" in text(browser, "status")
    browser.find_element(By.ID, "colour-white").click()
    wait_for(browser, lambda: len(moves(browser)) == 3, "Black's first move, by the engine")
    assert text(browser, "status").startswith("Your move: white to move")
    assert not colour_buttons.is_displayed()

    Select(browser.find_element(By.ID, "game-type")).select_by_value("nokomi")
    Select(browser.find_element(By.ID, "you")).select_by_value("P1")
    browser.find_element(By.ID, "start").click()
    wait_for(browser, lambda: "place the first black stone" in text(browser, "status"), "P1's stone")
    assert moves(browser) == []
    click_cell(browser, "C3")
    wait_for(browser, lambda: "Your move" in text(browser, "status"), "the engine's colour choice")
    assert [e.get_attribute("data-kind") for e in moves(browser)][:2] == ["move", "colour"]
    assert stones(browser)["C3"] == "black"
    assert "game_type=nokomi" in browser.current_url               # the address repeats the game
