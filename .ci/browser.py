"""The pages for people in a headless Chromium: the front page links to the content browser,
which shows the root's children, follows a link to a child and shows its fields and its own
children, shows on a Location without children a request that creates a first item there
(and runs it with curl), logs in and out through the API; the API reference renders every
operation, with a sample of every body. No page may log a console error or throw.

Usage: browser.py BASE_URL CHROMIUM_PATH (a server on a fresh database at BASE_URL).
"""

import base64
import json
import subprocess
import sys
import urllib.request

from playwright.sync_api import expect, sync_playwright

BASE, CHROMIUM = sys.argv[1], sys.argv[2]
API = BASE + "/api/ibexa/v2"
ADMIN = "Basic " + base64.b64encode(b"admin:publish").decode()


def call(method, path, input_type=None, body=None, accept="ContentInfo"):
    """A call of the API as admin; the JSON answer."""
    headers = {
        "Authorization": ADMIN,
        "Accept": f"application/vnd.ibexa.api.{accept}+json",
    }
    data = None
    if input_type:
        headers["Content-Type"] = f"application/vnd.ibexa.api.{input_type}+json"
        data = json.dumps({input_type: body}).encode()
    req = urllib.request.Request(API + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(req) as r:
        text = r.read()
        return json.loads(text) if text else {}


def folder(name, parent):
    """Creates and publishes a folder under the Location path `parent`; its Location path."""
    created = call(
        "POST",
        "/content/objects",
        "ContentCreate",
        {
            "ContentType": {"_href": "/api/ibexa/v2/content/types/1"},
            "mainLanguageCode": "eng-GB",
            "LocationCreate": {
                "ParentLocation": {"_href": f"/api/ibexa/v2/content/locations/{parent}"}
            },
            "fields": {
                "field": [{"fieldDefinitionIdentifier": "name", "fieldValue": name}]
            },
        },
    )
    content_id = created["Content"]["_id"]
    call("PUBLISH", f"/content/objects/{content_id}/versions/1")
    info = call("GET", f"/content/objects/{content_id}", accept="ContentInfo")
    main = info["Content"]["MainLocation"]["_href"]
    return main.split("/content/locations/")[1]


def main():
    alpha = folder("Alpha", "1/2")
    folder("Beta", "1/2")
    folder("Nested", alpha)
    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.on(
            "console",
            lambda m: m.type == "error" and problems.append(f"{page.url}: console: {m.text}"),
        )
        page.on("pageerror", lambda e: problems.append(f"{page.url}: error: {e}"))

        page.goto(BASE + "/")
        page.get_by_role("link", name="Browse the content").click()
        expect(page.locator("#title")).to_have_text("Ibexa Platform")
        children = page.locator("#children a")
        expect(children).to_have_text(["Alpha", "Beta"])
        children.first.click()
        expect(page.locator("#title")).to_have_text("Alpha")
        expect(page.locator("#fields dd").first).to_have_text("Alpha")
        expect(page.locator("#children a")).to_have_text(["Nested"])
        # A Location without children says how to create a first item there, with a
        # request that works as shown.
        expect(page.locator("#first")).to_be_hidden()
        page.locator("#children a").first.click()
        expect(page.locator("#title")).to_have_text("Nested")
        expect(page.locator("#first")).to_be_visible()
        expect(page.locator("#first a")).to_have_attribute(
            "href", "reference#tag/content/operation/createContent"
        )
        shown = page.locator("#first-request").text_content()
        done = subprocess.run(["sh", "-c", shown], capture_output=True, text=True, check=True)
        if '"Content"' not in done.stdout:
            problems.append(f"the first item's request shown did not create one: {done.stdout}")
        page.reload()
        expect(page.locator("#children a")).to_have_text(["My first folder"])
        expect(page.locator("#first")).to_be_hidden()
        page.locator("#trail a").first.click()
        expect(page.locator("#title")).to_have_text("Ibexa Platform")

        page.fill("input[name=login]", "admin")
        page.fill("input[name=password]", "publish")
        page.get_by_role("button", name="Log in").click()
        expect(page.locator("#who")).to_have_text("logged in as admin")
        expect(page.locator("#children a")).to_have_text(["Alpha", "Beta"])
        page.get_by_role("button", name="Log out").click()
        expect(page.locator("#who")).to_have_text("")

        page.goto(BASE + "/reference")
        expect(page.locator("h1").first).to_contain_text("cairn", timeout=30000)
        operations = page.locator("[id^='operation/']").count()
        if operations < 100:
            problems.append(f"the API reference shows {operations} operations")
        # Every body has an example (spec/examples/): a sample is shown, never "No sample".
        expect(page.locator("[id='operation/loadSection']")).to_contain_text(
            "/api/ibexa/v2/content/sections/", timeout=30000
        )
        no_sample = page.get_by_text("No sample").count()
        if no_sample:
            problems.append(f"the API reference shows 'No sample' {no_sample} times")
        browser.close()
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"front page, content browser and API reference: OK ({operations} operations)")


if __name__ == "__main__":
    main()
