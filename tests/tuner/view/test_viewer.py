"""The replay page: what it embeds (without a browser) and what it shows (in headless Chromium, driven by
Selenium through Debian's chromium-driver)."""
from __future__ import annotations

import html.parser
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bots.contract.names import parse_bot
from bots.running.player import player_for
from engine.referee import play_refereed_game
from tests.conftest import GAMES, program, read_jsonl_gz, run_tuner
from tuner.cli import main as tuner_main
from tuner.view import read_trace, render_replay, replay_data, write_replay
from tuner.view.replay_page import shadows

REQUIRE_BROWSER_ENV = "TUNER_REQUIRE_BROWSER"  # "1" (CI): no browser is a failure, not a skip


def engine_game(seed: int = 5) -> list[dict]:
    players = [player_for(parse_bot("heuristic")), player_for(parse_bot("greedy"))]
    return play_refereed_game(seed, 3, players).records


def embedded(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found += [(tag, name, value) for name, value in attrs if name in ("src", "href", "xlink:href")]


# ---- the page, without a browser -------------------------------------------------------------------------------

def test_the_page_is_self_contained_and_holds_every_frame():
    records = read_jsonl_gz(GAMES[-1])
    page = render_replay(records, "a title")
    links = _Links()
    links.feed(page)
    assert links.found == []
    assert not re.search(r"https?://", page)
    frames = embedded(page)["frames"]
    assert len(frames) == len(records)
    assert [f["k"] for f in frames] == ["START"] + [r["t"] for r in records[1:]]
    assert [f["turn"] for f in frames[1:]] == [r.get("turn", records[-1]["turns"]) for r in records[1:]]
    for frame, record in zip(frames, records):
        if record["t"] == "ACTIONS":
            assert frame["trees"] == record["after"]["trees"]
            assert [p[:2] for p in frame["players"]] == [[p["sun"], p["score"]] for p in record["after"]["players"]]
        if record["t"] == "GATHERING":
            assert [p[0] for p in frame["players"]] == record["sun_after"]
            assert all(tree[3] == 0 for tree in frame["trees"])
    assert frames[-1]["final"] == records[-1]["final_scores"]
    assert frames[-1]["winner"] == records[-1]["winner"]
    assert frames[0]["trees"] == [[t["cell"], t["size"], t["owner"], 0] for t in records[0]["map"]["starting_trees"]]


def test_shadows_between_harvests_are_the_referees_at_the_next_harvest():
    """The page shades cells from the trees on the board; at each GATHERING that is the referee's list."""
    checked = 0
    for path in GAMES:
        records = read_jsonl_gz(path)
        if records[0]["league"] != 3:
            continue
        neighbors = [cell["neighbors"] for cell in records[0]["map"]["cells"]]
        frames = replay_data(records)["frames"]
        for before, record in zip(frames, records[1:]):
            if record["t"] == "GATHERING":
                assert shadows(before["trees"], record["sun_orientation"], neighbors) == record["shadows"]
                checked += 1
    assert checked > 100


def test_an_answer_cannot_end_the_script_or_inject_markup():
    records = read_jsonl_gz(GAMES[0])
    hostile = "WAIT </script><script>alert(1)</script> <!-- & \u2028"
    actions = next(r for r in records if r["t"] == "ACTIONS")
    actions["output"][0] = hostile
    records[0]["p0"] = "<b>bold</b>"
    page = render_replay(records)
    assert page.lower().count("</script") == 2 and page.count("<!--") == 0 and "<b>bold" not in page
    data = embedded(page)
    assert data["names"][0] == "<b>bold</b>"
    assert any(f.get("moves") and f["moves"][0] and f["moves"][0][0] == hostile for f in data["frames"])


def test_a_megabyte_answer_is_shortened():
    records = read_jsonl_gz(GAMES[0])
    actions = next(r for r in records if r["t"] == "ACTIONS")
    actions["output"][1] = "WAIT " + "x" * 1_000_000
    assert len(render_replay(records)) < 200_000


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("directory", "is a directory"),
    (b"\x89PNG\r\n\x1a\n\x00\xff", "not a game trace (not UTF-8 text)"),
    ("not json\n", "line 1 is not JSON"),
    ('{"a": 1}\n', "line 1 is not a game record"),
    ('{"t": "ACTIONS"}\n{"t": "END"}\n', "the first record is not a header"),
    ("", "empty file"),
    ("truncated", "the last record is not END"),
    ("bad frame", "record 3 (ACTIONS): malformed"),
])
def test_tuner_view_on_a_bad_file_says_what_is_wrong_in_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "game.jsonl"
    if content == "directory":
        path.mkdir()
    elif content in ("truncated", "bad frame"):
        lines = [json.dumps(r) for r in read_jsonl_gz(GAMES[0])]
        if content == "bad frame":
            lines[2] = lines[2].replace('"after"', '"later"')
        path.write_text("\n".join(lines[:-1] if content == "truncated" else lines) + "\n")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    assert tuner_main(["view", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"tuner view: error: {path}: ") and message in captured.err


def test_tuner_view_writes_the_page_beside_a_compressed_trace(tmp_path):
    trace = tmp_path / GAMES[0].name
    shutil.copy(GAMES[0], trace)
    result = run_tuner("view", str(trace))
    assert result.returncode == 0, result.stderr
    page = (tmp_path / GAMES[0].name.replace(".jsonl.gz", ".html")).read_text()
    assert len(embedded(page)["frames"]) == len(read_trace(trace))


# ---- the page in a browser ---------------------------------------------------------------------------------------

def _no_browser(reason: str):
    if os.environ.get(REQUIRE_BROWSER_ENV) == "1":
        pytest.fail(f"{REQUIRE_BROWSER_ENV}=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium driven by Debian's chromium-driver (never a driver or browser fetched at run time)."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _no_browser("selenium is not installed (pip install -e '.[test]')")
    binary = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    driver_path = shutil.which("chromedriver")
    if not binary or not driver_path:
        _no_browser("no headless browser: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1200,760",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(driver_path, log_output=subprocess.DEVNULL))
    except WebDriverException as error:
        _no_browser(f"chromium did not start: {str(error).strip().splitlines()[0]}")
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


class Page:
    """A replay page open in the browser, read through its element ids."""

    def __init__(self, driver, path: Path, hash_: str = ""):
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        driver.get("about:blank")  # a new document even when only the hash differs from the page before
        driver.get(path.as_uri() + hash_)
        WebDriverWait(driver, 10).until(lambda d: d.find_element("tag name", "body").get_attribute("data-ready"))

    def text(self, element_id: str) -> str:
        return self.driver.find_element("id", element_id).text

    def attribute(self, element_id: str, name: str) -> str:
        return self.driver.find_element("id", element_id).get_attribute(name)

    def frame(self) -> int:
        return int(self.text("frame-index"))

    def press(self, *keys) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(*keys).perform()

    def click(self, element_id: str) -> None:
        self.driver.find_element("id", element_id).click()

    def script_errors(self) -> list:
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def shown(self) -> dict:
        return {
            "scores": [int(self.text("score-0")), int(self.text("score-1"))],
            "suns": [int(self.text("sun-0")), int(self.text("sun-1"))],
            "trees": int(self.attribute("board", "data-trees")),
            "board trees": len(self.driver.find_elements("css selector", "#trees > g")),
            "winner": self.attribute("winner", "data-winner"),
        }


def expected_end(records: list) -> dict:
    end = records[-1]
    return {
        "scores": end["final_scores"],
        "suns": [p["sun"] for p in end["state"]["players"]],
        "trees": len(end["state"]["trees"]),
        "board trees": len(end["state"]["trees"]),
        "winner": "draw" if end["winner"] is None else str(end["winner"]),
    }


def expected_actions(record: dict) -> dict:
    after = record["after"]
    return {
        "scores": [p["score"] for p in after["players"]],
        "suns": [p["sun"] for p in after["players"]],
        "trees": len(after["trees"]),
        "board trees": len(after["trees"]),
        "winner": "",
    }


def test_the_page_of_an_engine_game_shows_its_end(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    records = engine_game()
    path = tmp_path / "game.html"
    write_replay(path, records)
    page = Page(browser, path)
    assert page.frame() == 0 and page.attribute("winner", "data-winner") == ""
    page.press(Keys.END)
    assert page.frame() == len(records) - 1
    assert page.shown() == expected_end(records)
    assert page.text("winner").startswith("Winner: heuristic")
    assert "Game over" in page.text("log")
    browser.save_screenshot(str(tmp_path / "end.png"))
    assert (tmp_path / "end.png").stat().st_size > 10_000


def test_the_page_of_a_program_game_shows_its_disqualification(browser, tmp_path):
    trace, path = tmp_path / "game.jsonl", tmp_path / "game.html"
    bot = program("behave.py", "garbage", "9")
    result = run_tuner("play", bot, "greedy", "--seed", "21", "--trace", str(trace), "--html", str(path),
                       "--first-timeout", "3000", "--turn-timeout", "600")
    assert result.returncode == 0, result.stderr
    records = read_trace(trace)
    assert records[-1]["deactivated"] and records[-1]["deactivated"][0]["player"] == 0
    page = Page(browser, path)
    page.click("btn-last")
    assert page.frame() == len(records) - 1
    assert page.shown() == expected_end(records)
    assert page.shown()["scores"][0] == -1 and page.shown()["winner"] == "1"
    assert page.attribute("player-0", "data-active") == "false"
    assert "disqualified" in page.text("status-0") and "JUMP 3" in page.text("status-0")
    browser.save_screenshot(str(tmp_path / "end.png"))
    page.click("btn-prev")
    assert page.frame() == len(records) - 2
    assert "JUMP 3" in page.text("log") and "disqualified" in page.text("log")
    assert page.shown() == expected_actions(records[-2])


def test_stepping_back_and_forward_changes_the_shown_frame(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    records = engine_game(seed=8)
    path = tmp_path / "game.html"
    write_replay(path, records)
    first_actions = next(i for i, r in enumerate(records) if r["t"] == "ACTIONS" and r["after"]["trees"] !=
                         r["before"]["trees"])
    page = Page(browser, path, f"#frame={first_actions - 1}")
    assert page.frame() == first_actions - 1
    before = page.shown()
    page.press(Keys.ARROW_RIGHT)
    assert page.frame() == first_actions
    assert page.shown() == expected_actions(records[first_actions]) != before
    page.click("btn-prev")
    assert page.frame() == first_actions - 1 and page.shown() == before
    page.click("btn-next")
    page.press(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_LEFT)
    assert page.frame() == first_actions + 1
    page.press(Keys.HOME)
    assert page.frame() == 0 and page.text("day").startswith("0 /")
    page.press(Keys.ARROW_LEFT)
    assert page.frame() == 0
    page.press(Keys.END)
    page.press(Keys.ARROW_RIGHT)
    assert page.frame() == len(records) - 1
    page.press(Keys.HOME, Keys.SPACE)  # play: frames advance by themselves until paused
    WebDriverWait(browser, 10).until(lambda d: page.frame() >= 3)
    page.press(Keys.SPACE)
    paused = page.frame()
    assert browser.find_element("tag name", "body").get_attribute("data-playing") == "false"
    browser.execute_script("return new Promise(r => setTimeout(r, 700))")
    assert page.frame() == paused
    reopened = Page(browser, path, "#last")
    assert reopened.frame() == len(records) - 1 and reopened.shown() == expected_end(records)


@pytest.mark.parametrize("number", [1, 11, 23, 60])  # Wood 2 draw; Wood 1 disqualified; draw on trees; timeout
def test_every_frame_of_a_recorded_game_renders(browser, tmp_path, number):
    from selenium.webdriver.common.keys import Keys

    records = read_jsonl_gz(GAMES[number - 1])
    path = tmp_path / "game.html"
    write_replay(path, records)
    page = Page(browser, path)
    page.script_errors()
    page.press(*[Keys.ARROW_RIGHT] * (len(records) - 1))
    assert page.frame() == len(records) - 1
    assert page.shown() == expected_end(records)
    assert page.script_errors() == []
    if records[-1]["winner"] is None:
        assert page.text("winner").startswith("Draw")
    for entry in records[-1]["deactivated"]:
        assert page.attribute(f"player-{entry['player']}", "data-active") == "false"
        assert entry["reason"][:40] in page.text(f"status-{entry['player']}")
