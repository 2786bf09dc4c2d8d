"""The pytest plugin: a `*.kztest.toml` is collected as one item per check, passing and
failing items report the spec's line, a bad spec is one failing item; run through pytest's
own `pytester`, through the installed entry point (pyproject.toml) or, where this checkout
is not installed with it, with -p."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.effecttest.helpers import FOUNTAIN

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "kzplayer.effecttest.pytest_plugin"


def plugin_args() -> tuple:
    """`-p` the plugin unless its entry point is installed (then pytest loads it, and a -p of
    the same module would register it twice)."""
    from importlib.metadata import entry_points
    installed = any(ep.value == PLUGIN for ep in entry_points(group="pytest11"))
    return ("-p", "no:cacheprovider") if installed else ("-p", PLUGIN, "-p", "no:cacheprovider")

pytest_plugins = ["pytester"]

SPEC = f'''project = "{FOUNTAIN}"
fps = 30
[[count]]
emitter = "Nozzle"
window = [0, 0.5]
emitted = [199, 201]
[[count]]
emitter = "Nozzle"
at = 0.5
alive = [0, 10]
[[validate]]
'''
# a picture check of the fountain at 0.5 s, its golden in golden/pic.png
PICTURE = f'project = "{FOUNTAIN}"\nsize = [32, 32]\n[[picture]]\nat = 0.5\n'


@pytest.fixture(autouse=True)
def this_checkout(monkeypatch):
    """The subprocess imports this checkout's kzplayer (pytester's in-process runs would
    import numpy a second time)."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


def test_specs_are_collected_as_items_and_run(pytester):
    pytester.makefile(".kztest.toml", effect=SPEC)
    pytester.makefile(".kztest.toml", broken='project = "nowhere.kzm"\n[[validate]]\n')
    pytester.makepyfile(test_code="def test_code():\n    assert True\n")
    collected = pytester.runpytest_subprocess(*plugin_args(), "--collect-only", "-q")
    names = [l for l in collected.outlines if "::" in l]
    assert names == ["broken.kztest.toml::spec", "effect.kztest.toml::count[0] Nozzle",
                     "effect.kztest.toml::count[1] Nozzle", "effect.kztest.toml::validate[0]",
                     "test_code.py::test_code"]
    pytester.makefile(".kztest.toml", pic=PICTURE)        # no golden yet: it fails (the --kztest-update test)
    result = pytester.runpytest_subprocess(*plugin_args())
    result.assert_outcomes(passed=3, failed=3)
    assert [ln for ln in result.outlines if ln.startswith("FAILED pic.kztest.toml::")], result.outlines[-20:]
    text = result.stdout.str()
    assert "effect.kztest.toml:10:1: error: count[1]: Nozzle: alive at frame 15" in text
    assert "broken.kztest.toml:1:1: error: the project 'nowhere.kzm' does not exist" in text


def test_update_option_writes_goldens(pytester):
    """(Without the golden the picture fails: test_specs_are_collected_as_items_and_run.)"""
    pytester.makefile(".kztest.toml", pic=PICTURE)
    args = plugin_args()
    assert not (pytester.path / "golden").exists()
    pytester.runpytest_subprocess(*args, "--kztest-update").assert_outcomes(passed=1)
    assert (pytester.path / "golden" / "pic.png").is_file()
    pytester.runpytest_subprocess(*args).assert_outcomes(passed=1)
