"""The bounded share of the fuzz harness that runs in `make test` (the long run is
`make fuzz`, tests/fuzz/run.py): hypothesis over the mutation corpus in every channel, the
inputs a long run ever found (tests/fuzz/findings/, each a regression test), and the
runner itself. A channel raises `Bug` for anything kzplayer's own error handling lets
escape; every other outcome (a diagnostic, a documented error, exit code 1 or 2) is fine."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzz import channels as C
from tests.fuzz import strategies as S

FINDINGS = sorted((Path(__file__).parent / "findings").glob("*.txt"))
_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                 print_blob=True)


@settings(max_examples=400, **_SETTINGS)
@given(S.expressions(), S.seeds)
def test_expressions_never_escape(text, seed):
    C.expression(text, random.Random(seed), Path("."))


@settings(max_examples=60, **_SETTINGS)
@given(S.project_texts(), S.seeds)
def test_mutated_projects_load_set_resolve_and_save_without_escaping(tmp_path_factory, text, seed):
    C.loader(text, random.Random(seed), tmp_path_factory.mktemp("loader"))


@settings(max_examples=50, **_SETTINGS)
@given(S.project_texts(), S.seeds)
def test_mutated_projects_validate_without_escaping(tmp_path_factory, text, seed):
    C.validate(text, random.Random(seed), tmp_path_factory.mktemp("validate"))


@settings(max_examples=15, **_SETTINGS)
@given(S.small_project_texts(), S.seeds)
def test_the_command_line_on_small_mutated_projects_never_escapes(gl_ctx, tmp_path_factory, text, seed):
    C.cli(text, random.Random(seed), tmp_path_factory.mktemp("cli"))


@pytest.mark.parametrize("path", FINDINGS, ids=lambda p: p.stem)
def test_what_a_long_run_found_stays_fixed(path, tmp_path):
    report = path.read_text(encoding="utf-8")
    channel = re.search(r"^channel: (\w+)$", report, re.M).group(1)
    text = report.split("\n--- input ---\n", 1)[1]
    C.CHANNELS[channel](text, random.Random(0), tmp_path)


def _run(*args):
    """The runner in its own process, as `make fuzz` starts it (it sets limits and shares one
    GL context for the whole process: nothing of that may leak into the test session)."""
    import subprocess
    import sys
    repo = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-m", "tests.fuzz.run", *args], cwd=repo,
                          capture_output=True, text=True, timeout=300)


def test_the_long_run_counts_resumes_and_reports(tmp_path):
    state = tmp_path / "state"
    r = _run("--seconds", "60", "--count", "25", "--state", str(state), "--channels", "expr,loader")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "uncaught" in r.stdout and "slowest input" in r.stdout
    first = json.loads((state / "state.json").read_text())["channels"]
    assert first["expr"]["inputs"] + first["loader"]["inputs"] == 25
    assert _run("--seconds", "60", "--count", "5", "--state", str(state), "--channels", "expr").returncode == 0
    again = json.loads((state / "state.json").read_text())["channels"]
    assert again["expr"]["inputs"] == first["expr"]["inputs"] + 5      # goes on where it stopped
    assert again["expr"]["next"] == again["expr"]["inputs"]
