"""Runs .ci/ez-js-client-day.js with the real eZ Platform JavaScript REST client in a headless
Chromium, on a page of the server (same origin, as the editor UI ran it).

Usage: ez-js-client.py BASE_URL CHROMIUM_PATH CAPI_JS
"""

import pathlib
import sys

from playwright.sync_api import sync_playwright

base, chromium, capi = sys.argv[1:4]
day = (pathlib.Path(__file__).parent / "ez-js-client-day.js").read_text()
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
    # The client is injected into the front page, whose CSP allows no script of its own.
    page = browser.new_page(bypass_csp=True)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/")
    page.add_script_tag(path=capi)
    try:
        steps = page.evaluate(day)
    except Exception as e:  # noqa: BLE001 - report the step reached, then fail
        print("FAILED:", str(e)[:1000])
        print("after:", page.evaluate("window.__log"))
        sys.exit(1)
    browser.close()
    print("\n".join(steps))
    if errors:
        print("page errors:", errors)
        sys.exit(1)
    print(f"the eZ Platform JavaScript REST client ran {len(steps)} steps")
