"""The hostess runs a night from a real browser (Debian's chromium + chromedriver, driven by selenium).

Against real processes: mosquitto, `bunco head` serving the page and three `bunco table` units with
synthetic cameras and simulated players. She types 12 players, starts the night, takes back a roll
at table 2 (confirming it), adds a late arrival between rounds (a fourth table: three ghosts join),
downloads night.jsonl, and `bunco replay` of it equals the sheet the page shows. Skipped, saying why,
only when chromium or chromedriver is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.net.mosquitto import free_port
from vision.synthetic import find_dice_root

DICE_ROOT = find_dice_root()
pytestmark = pytest.mark.skipif(not (DICE_ROOT / "byler-d6").is_dir(),
                                reason=f"the synthetic cameras need the shared dice photos ({DICE_ROOT})")

PLAYERS = ["Stacy", "Carol", "Wanda", "Hannah", "Betty", "Dolores", "Fran", "Gloria", "Irene", "June", "Kay", "Lois"]
PARTY = "browser"
PIN = "135790"
CONFIG = f"""\
[rules]
sets = 1
points_to_win = 7

[network]
party = "{PARTY}"
"""
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1",
       "BUNCO_DICE_DIR": str(find_dice_root())}
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=390,844")
SHOTS = os.environ.get("BUNCO_SCREENSHOTS")  # docs/screenshots: the README's pictures of the page
WAIT_S = 240  # the longest the page may take to show what the party does next (a round at camera pace)


def bunco(*args: str) -> list[str]:
    return [sys.executable, "-m", "appliance.cli", *args]


def browser_or_skip() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("Debian's chromium and chromium-driver are not installed (apt-get install chromium "
                    "chromium-driver; `make test` installs them)")
    return chromium, driver


@pytest.fixture
def party(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, Path]]:
    from appliance.net.mosquitto import MosquittoProcess, find_mosquitto

    binary = find_mosquitto()
    if binary is None:
        pytest.skip("the mosquitto binary is missing (apt-get install mosquitto)")
    (tmp_path / "mq").mkdir()
    mq = MosquittoProcess(binary, tmp_path / "mq")
    mq.start()
    config = tmp_path / "party.toml"
    config.write_text(CONFIG)
    (tmp_path / "pin").write_text(PIN + "\n")
    port = free_port()
    broker = f"{mq.host}:{mq.port}"
    procs: dict[str, subprocess.Popen[bytes]] = {}
    argv = {"head": bunco("head", "--broker", broker, "--data", str(tmp_path / "head"), "--config", str(config),
                          "--headless", "--no-gpio", "--no-autostart", "--countdown", "600", "--seed", "4",
                          "--web-port", str(port), "--pin-file", str(tmp_path / "pin"))}
    for n in (1, 2, 3):
        # at camera pace (no --fast): a throw about every second, so the hostess can act mid-round
        argv[f"table{n}"] = bunco("table", "--table", str(n), "--broker", broker, "--camera", f"synthetic:{n}",
                                  "--fake-gpio", "--headless", "--simulated-players", str(n),
                                  "--data", str(tmp_path / f"t{n}"), "--config", str(config))
    for name, args in argv.items():
        out = open(tmp_path / f"{name}.out", "wb")
        procs[name] = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=ENV)
    try:
        yield f"http://127.0.0.1:{port}/", tmp_path
    finally:
        for proc in procs.values():
            proc.send_signal(signal.SIGTERM)
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        mq.kill()
        if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
            for name in procs:
                print(f"==== {name}\n{(tmp_path / f'{name}.out').read_text()[-3000:]}", file=sys.stderr)


def test_the_hostess_runs_a_night_from_her_phone(party: tuple[str, Path], tmp_path: Path) -> None:
    chromium, driver_path = browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    url, root = party
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    browser = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    # a phone's viewport exactly (a desktop chromium keeps its window at least 500 px wide)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    wait = WebDriverWait(browser, WAIT_S, poll_frequency=0.2)

    def text(css: str) -> str:
        return browser.find_element(By.CSS_SELECTOR, css).text

    def state() -> dict:
        return json.loads(browser.execute_script("return JSON.stringify(state)") or "null") or {}

    def click_live(element_id: str) -> None:
        """A tap on a button of a live card (a throw at that table may redraw it between find and tap)."""
        for _ in range(50):
            try:
                browser.find_element(By.ID, element_id).click()
                return
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"#{element_id} kept being redrawn")

    def picture(name: str) -> None:
        if SHOTS:
            browser.save_screenshot(str(Path(SHOTS) / f"page-390x844-{name}.png"))

    def page_says(what: str):
        return wait.until(lambda b: what in text("#msg") and text("#msg"))

    try:
        # the page is up as soon as the head is (the head serves it before any table is online)
        deadline = time.monotonic() + 60
        while True:
            try:
                browser.get(url)
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        wait.until(lambda b: state().get("phase") == "waiting")
        # read-only until the PIN
        assert not browser.find_element(By.ID, "login-box").get_attribute("class").count("hidden")
        assert "hidden" in browser.find_element(By.ID, "hostess").get_attribute("class")
        browser.find_element(By.ID, "pin").send_keys("111111")
        browser.find_element(By.ID, "login").click()
        page_says("wrong PIN")
        browser.find_element(By.ID, "pin").send_keys(PIN)
        browser.find_element(By.ID, "login").click()
        page_says("signed in")
        # she types the twelve players (a twin first: one line naming her, nothing changes)
        box = browser.find_element(By.ID, "players-text")
        box.send_keys("\n".join(PLAYERS[:11] + ["stacy"]))
        browser.find_element(By.ID, "set-players").click()
        page_says("'stacy' is listed twice (as 'Stacy' and 'stacy')")
        box.clear()
        box.send_keys("\n".join(PLAYERS))
        browser.find_element(By.ID, "set-players").click()
        page_says("12 players on the list")
        # before the start: every expected table and whether it is online
        wait.until(lambda b: [t["status"] for t in state()["tables"]] == ["online"] * 3)
        for n in (1, 2, 3):
            assert "online" in text(f"#table-{n}")
        browser.execute_script("window.scrollTo(0, 0)")
        picture("players")
        browser.find_element(By.ID, "start").click()
        page_says("the night has started")
        wait.until(lambda b: state()["phase"] == "playing")
        # a roll at table 2 is taken back, after she confirms it
        wait.until(ec.element_to_be_clickable((By.ID, "undo-2")))
        rolls = state()["tables"][1]["rolls"]
        if SHOTS:
            browser.execute_script("document.getElementById('tables').scrollIntoView()")
            picture("playing")
        click_live("undo-2")
        assert "Take back table 2's last roll" in text("#confirm-text")
        picture("undo-confirm")
        browser.find_element(By.ID, "confirm-yes").click()
        page_says("table 2: the last roll is being taken back")
        log = root / "t2" / "events.sqlite"
        wait.until(lambda b: _undone_by_hostess(log))
        # the round plays to its end; between rounds a late arrival joins (a fourth table, three ghosts)
        wait.until(lambda b: state()["phase"] == "between")
        assert rolls >= 1
        browser.find_element(By.ID, "add-name").send_keys("Zoe")
        browser.find_element(By.ID, "add").click()
        page_says("Zoe joins the next round")
        if SHOTS:
            browser.execute_script("document.getElementById('sheet').scrollIntoView()")
            picture("sheet")
        wait.until(lambda b: "Zoe" in state()["players"] and len(state()["tables"]) == 4)
        # night.jsonl, downloaded by the browser, replays to the sheet the page shows
        browser.find_element(By.ID, "dl-night").click()
        night = downloads / "night.jsonl"
        wait.until(lambda b: night.exists() and night.stat().st_size > 0)
        # the sheet as the page shows it, read in one go (a live update redraws it)
        shown = browser.execute_script(
            "return [...document.querySelectorAll('#sheet tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        assert len(shown) == 13
        done = subprocess.run(bunco("replay", str(night), "--json"), capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        again = json.loads(done.stdout)
        assert [row[1] for row in shown] == again["standings"]
        assert {row[1]: (int(row[2]), int(row[3]), int(row[4])) for row in shown} == {
            p: (c["wins"], c["losses"], c["buncos"]) for p, c in again["players"].items()}
        assert {"type": "join", "player": "Zoe"} in [json.loads(line) for line in night.read_text().splitlines()]
        browser.save_screenshot(str(tmp_path / "page.png"))
    finally:
        browser.quit()


def _undone_by_hostess(log: Path) -> bool:
    import sqlite3

    if not log.exists():
        return False
    db = sqlite3.connect(f"file:{log}?mode=ro", uri=True)
    try:
        return any(json.loads(body).get("by") == "hostess"
                   for (body,) in db.execute("SELECT body FROM events WHERE body LIKE '%hostess%'"))
    except sqlite3.OperationalError:
        return False
    finally:
        db.close()
