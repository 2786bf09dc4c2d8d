"""Effect tests (`kzplayer test`, docs/testing.md): a `NAME.kztest.toml` spec beside an
effect names the project, how to play it and what must hold; each spec is run headless and
deterministically and every check gives an Outcome.

    from kzplayer.effecttest import run_path
    result = run_path("sample_projects/10_rain.kztest.toml")
    result.failed, result.bad, result.diagnostics()

spec.py reads specs (positions from positions.py), run.py is the one adapter to the player,
checks.py and pictures.py judge, runner.py puts them together, report.py writes text, JUnit
XML and GitHub annotations, pytest_plugin.py collects specs as pytest items.
"""
from kzplayer.effecttest.runner import Options, SpecResult, run_path, run_spec  # noqa: F401
from kzplayer.effecttest.spec import SUFFIX, read_spec  # noqa: F401
