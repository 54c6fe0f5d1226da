"""Render a boundary in Neo4j Browser with the kg-context style and save a screenshot.

Drives a real (headless) Chromium through Browser as an operator would: log in, set
``:param boundary_id``, load ``browser/kg-context.grass`` with ``:style``, run a saved query of
``cypher/browser/``, and capture the result frame. Needs the ``playwright`` package (the dev
extra) and a Chromium on the machine (Debian: ``apt-get install chromium``); it downloads no
browser. Usage::

    python browser/screenshot.py --boundary demo-0123456789 --out docs/browser-demo.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[1]


def _run(page: Page, command: str) -> None:
    """Type a command into Browser's editor and run it (Ctrl+Enter). A ``:`` command goes in as
    one line (a multi-line ``:style`` typed into the editor breaks Browser's style handling);
    a query goes in as written, without its leading comment lines."""
    editor = page.locator("#monaco-main-editor, [data-testid='activeEditor']").first
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    if command.startswith(":"):
        text = " ".join(command.split())
    else:
        text = "\n".join(line for line in command.splitlines() if not line.startswith("//"))
    page.keyboard.insert_text(text)
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(1500)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:7474/browser/")
    parser.add_argument("--bolt", default="127.0.0.1:7687")
    parser.add_argument("--user", default="neo4j")
    parser.add_argument(
        "--password",
        default=None,
        help="default: the local server's generated password (.kg-context/neo4j/password)",
    )
    parser.add_argument("--boundary", required=True)
    parser.add_argument("--query", default="browser/boundary_overview")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "browser-demo.png")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    if args.password is None:
        from kg_context.db.local_password import local_password
        from kg_context.settings import LocalServerSettings

        args.password = local_password(LocalServerSettings()).get_secret_value()

    grass = (REPO / "browser" / "kg-context.grass").read_text(encoding="utf-8")
    query = (REPO / "cypher" / f"{args.query}.cypher").read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=args.chromium, headless=True, args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1500, "height": 950}, device_scale_factor=2)
        page.goto(args.url, wait_until="networkidle")
        page.get_by_test_id("boltaddress").fill(args.bolt)
        page.get_by_test_id("username").fill(args.user)
        page.get_by_test_id("password").fill(args.password)
        page.get_by_test_id("connect").click()
        page.wait_for_selector("text=You are connected as user", timeout=30_000)
        _run(page, f":param boundary_id => '{args.boundary}'")
        _run(page, ":style " + grass)
        _run(page, query)
        page.wait_for_selector("text=Node labels", timeout=30_000)
        page.locator("[title='Fullscreen']").first.click()  # the result frame fills the page
        page.wait_for_timeout(8000)  # let the force layout settle
        args.out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(args.out))
        browser.close()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
