"""The studio's fixtures: a project copied into tmp_path, the studio serving it from a
thread of this process (its own GL thread), and Debian's chromium driven by Playwright.

Chromium or Playwright missing: the browser tests FAIL on CI (CI=true; `make test`
installs chromium through scripts/system-deps.sh) and skip elsewhere, saying why."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO, on_ci

CHROMIUM = os.environ.get("KZPLAYER_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
DEMO = REPO / "sample_projects" / "demo_fountain.kzm"
NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"


def _missing(what: str):
    message = f"{what}; the studio's browser tests need it (scripts/system-deps.sh installs chromium)"
    if on_ci():
        pytest.fail(f"{message}; CI=true, so they must run", pytrace=False)
    pytest.skip(f"{message}; skipped outside CI (with CI=true this fails)")


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the demo in a folder of its own."""
    path = tmp_path / "proj" / "demo_fountain.kzm"
    path.parent.mkdir()
    shutil.copy(DEMO, path)
    return path


@pytest.fixture
def studio(project):
    from kzplayer.studio.server import Studio
    s = Studio(str(project), port=0, seed=3)
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is not installed (the test extra)")
    if not Path(CHROMIUM).exists():
        _missing(f"chromium is not installed at {CHROMIUM}")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, studio):
    """The studio's page, under its own Content-Security-Policy: a violation (an inline
    script or style, another site) fails the test that caused it."""
    context = browser.new_context(viewport={"width": 1500, "height": 900})
    pg = context.new_page()
    said = []
    pg.on("console", lambda m: said.append(m.text) if "Content Security Policy" in m.text else None)
    pg.goto(studio.url)
    yield pg
    context.close()
    assert said == [], "the page broke its own policy"
