"""The desk in a real headless browser (Debian's Chromium through Selenium), against a real
uvicorn server: a player submits an illegal deck, sees its problems, fixes it and gets a
legal verdict; staff see both submissions and the diff; the deadline closes submissions; a
wrong token gets nothing. Screenshots of every page go to out/desk-screenshots/.

Needs `apt-get install -y chromium chromium-driver` and the `test` extra; skips without.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
pytest.importorskip("uvicorn", reason="the desk extra is not installed (pip install "
                    "'deckcheck[desk]')")
pytest.importorskip("selenium", reason="selenium is not installed (pip install "
                    "'deckcheck[test]')")
from deskkit import ILLEGAL, LEGAL  # noqa: E402

CHROMIUM = os.environ.get("DESK_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("DESK_TEST_CHROMEDRIVER", "/usr/bin/chromedriver")
SHOTS = Path(__file__).resolve().parents[2] / "out" / "desk-screenshots"
TOKEN = "staff-secret-token"

if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
    pytest.skip(f"no headless browser: {CHROMIUM} and {CHROMEDRIVER} are needed (apt-get "
                "install -y chromium chromium-driver)", allow_module_level=True)


@pytest.fixture
def server(make_settings: Callable[..., Any]) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 (a free port) running a fresh desk."""
    import uvicorn

    from deckcheck.desk.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(make_settings()), log_level="warning", lifespan="off")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline:
            pytest.fail("the desk server did not start within 20 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager never downloads anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}",
                 "--window-size=1280,1000"):
        options.add_argument(flag)
    # with the driver's path given, Selenium skips Selenium Manager (no download, no network)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def shot(driver: Any, name: str) -> None:
    """A screenshot of the whole page (the window grown to the page's height)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.set_window_size(1280, 700)
    size = 700
    for _ in range(3):  # the window is a little taller than its viewport: grow until it fits
        page, view = driver.execute_script(
            "return [document.documentElement.scrollHeight, window.innerHeight]")
        if view >= page or size >= 6000:
            break
        size = min(6000, size + int(page) - int(view) + 8)
        driver.set_window_size(1280, size)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))
    driver.set_window_size(1280, 1000)


def fill(driver: Any, values: dict[str, str]) -> None:
    from selenium.webdriver.common.by import By

    for field, value in values.items():
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)


def click(driver: Any, element_id: str) -> None:
    """Click a button or link that loads a page, and wait for the new page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.wait import WebDriverWait

    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.ID, element_id).click()
    WebDriverWait(driver, 30).until(expected_conditions.staleness_of(old))
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def text(driver: Any, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.ID, element_id).text)


def test_register_fix_staff_and_deadline(server: str, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    illegal, legal = tmp_path / "illegal.ydk", tmp_path / "legal.ydk"
    illegal.write_bytes(ILLEGAL)
    legal.write_bytes(LEGAL)

    # a player submits an illegal deck and sees its problem, where it is and how to fix it
    browser.get(server + "/")
    shot(browser, "1-player-form")
    fill(browser, {"player": "Alice Example", "player_id": "0301234567"})
    browser.find_element(By.ID, "deck").send_keys(str(illegal))
    click(browser, "send")
    assert text(browser, "verdict") == "Not legal"
    rows = browser.find_elements(By.CSS_SELECTOR, "tr.problem")
    assert len(rows) == 1
    cells = [c.text for c in rows[0].find_elements(By.TAG_NAME, "td")]
    assert cells[:4] == ["DC202", "Pot of Greed", "1 / 0", "illegal.ydk:42"]
    assert cells[5] == "Take every copy of Pot of Greed out of the deck."
    first_receipt = text(browser, "receipt")
    assert "Main Deck (40)" in text(browser, "section-main")
    shot(browser, "2-player-illegal")

    # they fix it and send again from the same page: legal, with a new receipt
    browser.find_element(By.ID, "deck").send_keys(str(legal))
    click(browser, "send")
    assert text(browser, "verdict") == "Legal"
    assert not browser.find_elements(By.CSS_SELECTOR, "tr.problem")
    assert text(browser, "receipt") != first_receipt
    shot(browser, "3-player-legal")

    # a second player registers the very same deck: flagged for staff as a duplicate
    browser.get(server + "/")
    fill(browser, {"player": "Bob Example", "player_id": "0300000002"})
    browser.find_element(By.ID, "deck").send_keys(str(legal))
    click(browser, "send")
    assert text(browser, "verdict") == "Legal"

    # a wrong token gets nothing
    browser.get(server + "/staff?token=not-the-token")
    assert "This page is for the event staff" in text(browser, "sentence")
    assert "Alice" not in browser.page_source
    browser.get(server + "/staff")
    assert "Alice" not in browser.page_source
    shot(browser, "4-staff-wrong-token")

    # staff see the registration, both submissions and the diff between them
    browser.get(server + f"/staff?token={TOKEN}")
    assert "token" not in browser.current_url  # the token leaves the address bar
    assert text(browser, "total") == "2"
    table = text(browser, "registrations")
    assert "Alice Example" in table and "Bob Example" in table
    assert "same deck as #1 Alice Example" in table
    shot(browser, "5-staff-list")
    browser.get(browser.find_element(By.LINK_TEXT, "Alice Example").get_attribute("href"))
    history = text(browser, "history")
    assert "Submissions (2)" in history
    assert "Main: Pot of Greed 1 \u2192 0 (\u22121)" in history
    assert "Main: Filler 36 0 \u2192 1 (+1)" in history
    click(browser, "mark-checked")
    assert "Checked at the desk" in text(browser, "checked")
    shot(browser, "6-staff-player")
    browser.get(server + "/staff/sheets")
    assert "Alice Example" in browser.find_element(By.CLASS_NAME, "sheet").text
    shot(browser, "6b-staff-sheets")

    # the deadline closes submissions
    browser.get(server + "/staff")
    click(browser, "close-now")
    assert "closed" in browser.find_element(By.TAG_NAME, "main").text
    browser.get(server + "/")
    assert "Submissions closed at" in text(browser, "closed")
    assert not browser.find_elements(By.ID, "send")
    shot(browser, "7-player-closed")
    # a page opened before the deadline cannot sneak a list in
    browser.get(server + f"/r/{first_receipt}")
    assert "Submissions closed at" in text(browser, "closed")


def test_screenshots_folder_is_git_ignored() -> None:
    root = Path(__file__).resolve().parents[2]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    assert "/out/" in (root / ".gitignore").read_text().splitlines()
