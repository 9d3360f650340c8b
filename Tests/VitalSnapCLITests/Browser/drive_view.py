#!/usr/bin/python3
"""Drives the capture view (`vitalsnap read --view`) in headless Chromium with Selenium, as a person would.

    drive_view.py URL SCENARIO [--screenshots DIR] [--edit VALUE]

SCENARIO:
  accept    frames and the overlay shown, partial readings, the steady reading with its crop; Accept
  cancel    the steady reading, then Cancel
  edit      the steady reading, then Edit with --edit VALUE (expected to be refused), then Cancel
  unsteady  a replay that never settles (or a camera that cannot be opened): its message
  close     the page closed while reading (the command should end as a cancel)
  measure   frames drawn per second while reading (printed as `page fps: N`), then Cancel
  security  requests nobody's page would make (a wrong token, a foreign Host, a WebSocket from another
            Origin), each printed with its status; then the page itself, still working, cancels

Prints what it saw, one `key: value` a line, and exits 1 with the reason when the page does not do what it
should. Needs Debian's chromium, chromium-driver and python3-selenium.
"""
import argparse
import http.client
import os
import shutil
import sys
import tempfile
import time
from urllib.parse import urlsplit

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def role(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'[data-role="{name}"]')


def fail(reason):
    print(f"failed: {reason}")
    sys.exit(1)


def status(url, path, headers):
    """The status of GET `path` on the view's server, with `headers` (a Host of one's own among them)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    answer = connection.getresponse()
    connection.close()
    return answer.status


def probe(url):
    """Requests the page would never make, each with the status it got."""
    parts = urlsplit(url)
    token = parts.path.strip("/")
    host = f"{parts.hostname}:{parts.port}"
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    print(f"own page: {status(url, f'/{token}/', {'Host': host})}")
    print(f"wrong token: {status(url, f'/{token[::-1]}/', {'Host': host})}")
    print(f"no token: {status(url, '/', {'Host': host})}")
    print(f"foreign host: {status(url, f'/{token}/', {'Host': f'rebound.example:{parts.port}'})}")
    print(f"foreign origin upgrade: {status(url, f'/{token}/ws', {'Host': host, 'Origin': 'http://evil.example', **upgrade})}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("scenario", choices=["accept", "cancel", "edit", "unsteady", "measure", "security", "close"])
    parser.add_argument("--screenshots")
    parser.add_argument("--edit", default="5000")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--seconds", type=float, default=4, help="how long `measure` counts the frames drawn")
    a = parser.parse_args()

    # Chromium leaves its profile lock folders in the temporary directory; give it one of its own to remove.
    scratch = tempfile.mkdtemp(prefix="vitalsnap-chromium-")
    os.environ["TMPDIR"] = scratch
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--no-first-run", "--disable-extensions",
                     f"--user-data-dir={scratch}/profile"]:
        options.add_argument(argument)
    try:
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    wait = WebDriverWait(driver, a.timeout)

    def shot(name):
        if a.screenshots:
            driver.save_screenshot(f"{a.screenshots}/{name}.png")

    def stats():
        return driver.execute_script("return window.viewStats")

    try:
        driver.get(a.url)
        if a.scenario == "unsteady":
            # A short replay may end before a frame is drawn: only its end is looked for.
            wait.until(lambda d: stats() and stats()["finished"] is not None)
            shot("view-unsteady")
            print(f"message: {role(driver, 'message').text}")
            print(f"exit status: {stats()['finished']['exitStatus']}")
            return
        wait.until(lambda d: stats() and stats()["framesDrawn"] > 0)
        print(f"frames drawn: {stats()['framesDrawn']}")
        if a.scenario == "close":
            return
        overlay = role(driver, "overlay")
        wait.until(lambda d: overlay.is_displayed()
                   and d.execute_script("return arguments[0].naturalWidth", overlay) > 0)
        print(f"overlay: {overlay.get_attribute('style')}")
        print(f"instructions: {role(driver, 'instructions').text}")

        if a.scenario == "security":
            probe(a.url)
            print(f"frames drawn after: {stats()['framesDrawn']}")
            # Whether the reading is still going or already steady, Cancel ends it (clicked by script: the
            # reading's own Cancel is hidden once a steady reading shows its buttons).
            driver.execute_script("arguments[0].click()", role(driver, "cancel-reading"))
            wait.until(lambda d: stats()["finished"] is not None)
            print(f"exit status: {stats()['finished']['exitStatus']}")
            return

        if a.scenario == "measure":
            time.sleep(1)  # past the first frames, while the page settles
            start, frames = time.time(), stats()["framesDrawn"]
            time.sleep(a.seconds)
            end = stats()
            print(f"page fps: {(end['framesDrawn'] - frames) / (time.time() - start):.1f}")
            print(f"read rate: {end['readRate']:.1f}")
            # Whether the reading is still going or already steady, Cancel ends it (clicked by script: the
            # reading's own Cancel is hidden once a steady reading shows its buttons).
            driver.execute_script("arguments[0].click()", role(driver, "cancel-reading"))
            wait.until(lambda d: stats()["finished"] is not None)
            print(f"message: {role(driver, 'message').text}")
            return

        # Partial readings while reading: every distinct text the partial area showed.
        seen = set()
        result = role(driver, "result")
        took_reading_shot = False
        deadline = time.time() + a.timeout
        while not result.is_displayed():
            if time.time() > deadline:
                fail("no steady reading shown")
            text = role(driver, "partial").text.strip()
            if text and text != "–":
                seen.add(text)
                if not took_reading_shot:
                    shot("view-reading")
                    took_reading_shot = True
            time.sleep(0.05)
        print(f"partials: {' | '.join(sorted(seen))}")
        crop = role(driver, "crop")
        wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", crop) > 0)
        print(f"value: {role(driver, 'value').text}")
        print(f"unit: {role(driver, 'unit').text}")
        print(f"crop: {driver.execute_script('return arguments[0].naturalWidth', crop)}x"
              f"{driver.execute_script('return arguments[0].naturalHeight', crop)}")
        shot("view-steady")

        if a.scenario == "edit":
            role(driver, "edit").click()
            field = role(driver, "edit-value")
            field.clear()
            field.send_keys(a.edit)
            role(driver, "edit-submit").click()
            wait.until(lambda d: "Not taken" in role(d, "message").text)
            shot("view-edit-refused")
            print(f"notice: {role(driver, 'message').text}")
            wait.until(lambda d: role(d, "cancel").is_enabled())
            role(driver, "cancel").click()
        elif a.scenario == "cancel":
            role(driver, "cancel").click()
        else:
            role(driver, "accept").click()
        wait.until(lambda d: stats()["finished"] is not None)
        shot(f"view-{a.scenario}ed" if a.scenario != "edit" else "view-edit-cancelled")
        print(f"message: {role(driver, 'message').text}")
        print(f"exit status: {stats()['finished']['exitStatus']}")
    finally:
        driver.quit()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
