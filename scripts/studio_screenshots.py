"""The studio's screenshots in docs/studio.md, taken by Playwright in Debian's chromium:

    python scripts/studio_screenshots.py [OUT_FOLDER]      (default docs/)

studio_fountain.png: the demo, its nozzle selected, a broken binding typed (the error at its
column); studio_shells.png: 14_firework_shells, its Stars subemitter selected (the colour gradient and the scale and opacity curves), the view orbited.
Each project is a copy in a temporary folder: the samples are never written.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from playwright.sync_api import sync_playwright  # noqa: E402

from kzplayer.studio.server import Studio  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def until(page, expression: str, timeout: float = 30.0) -> None:
    """Poll from here: the page's policy forbids eval (wait_for_function needs it)."""
    end = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > end:
            raise TimeoutError(expression)
        time.sleep(0.1)


def shoot(browser, project: Path, out: Path, actions) -> None:
    studio = Studio(str(project), port=0, seed=1, watch=False)
    studio.start()
    try:
        page = browser.new_page(viewport={"width": 1500, "height": 860})
        page.goto(studio.url)
        until(page, "Number(document.getElementById('view').dataset.frames || 0) > 20")
        actions(page)
        page.screenshot(path=str(out))
        page.close()
    finally:
        studio.stop()


def fountain(page) -> None:
    page.click("#tree li:has-text('Nozzle')")
    expr = page.locator(".row[data-name='ParticleEmitter.MaximumAmount'] .binding input")
    expr.fill("{./Emission.Rate} * ({./Emission.Lifetime + 0.2")
    until(page, "document.querySelector('.binding pre').textContent.length > 0")
    page.evaluate("document.querySelector(\".row[data-name='ParticleEmitter.MaximumAmount']\").scrollIntoView({block: 'center'})")
    time.sleep(1.0)


def shells(page) -> None:
    page.click("#tree li[data-path$='/Stars']")
    page.wait_for_selector(".gradient-editor")
    page.evaluate("document.querySelector('.gradient-editor').parentElement.scrollIntoView()")
    box = page.locator("#view").bounding_box()
    page.mouse.move(box["x"] + 320, box["y"] + 180)
    page.mouse.down()
    page.mouse.move(box["x"] + 260, box["y"] + 150, steps=5)
    page.mouse.up()
    time.sleep(2.0)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs"
    tmp = Path(tempfile.mkdtemp(prefix="kz-shots-"))
    try:
        shutil.copytree(REPO / "sample_projects", tmp, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("golden", "pictures"))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            shoot(browser, tmp / "demo_fountain.kzm", out / "studio_fountain.png", fountain)
            shoot(browser, tmp / "14_firework_shells.kzm", out / "studio_shells.png", shells)
            browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
