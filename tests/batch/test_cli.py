"""`kzplayer batch` on the command line: exit codes, the output tree, a manifest, --ray auto."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .common import FOUNTAIN, NOZZLE, REPO

ENV = {**os.environ, "KZPLAYER_NO_PROGRESS": "1"}


def batch(*args, cwd=REPO):
    return subprocess.run([sys.executable, "-m", "kzplayer.cli", "batch", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env=ENV, timeout=600)


def test_a_validate_sweep_exits_0_and_names_its_files(tmp_path):
    r = batch("validate", FOUNTAIN, "--set", f"{NOZZLE}:Emission.Rate=10..30:10", "--out", tmp_path, "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert "3 jobs: 3 ok" in r.stdout and str(tmp_path / "index.html") in r.stdout
    for rate in (10, 20, 30):
        found = json.loads((tmp_path / f"validate/demo_fountain/Emission.Rate={rate}/findings.json").read_text())
        assert found == []
    assert r.stderr.count("] ok validate/demo_fountain/") == 3          # a line per job off a terminal


def test_a_job_that_cannot_run_exits_1_and_the_rest_run(tmp_path):
    r = batch("validate", FOUNTAIN, "--set", f"{NOZZLE}:Emission.Rate=10,-5", "--out", tmp_path, "--workers", "1")
    assert r.returncode == 1
    assert "1 error, 1 ok" in r.stdout
    line = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()][1]
    assert line["status"] == "error" and "Emission.Rate" in line["message"]


@pytest.mark.parametrize("args, says", [
    (("validate",), "name the projects"),
    (("bake", FOUNTAIN), "unknown job kind"),
    (("validate", FOUNTAIN, "--set", "Emission.Rate"), "expected ITEM-PATH"),
    (("render", FOUNTAIN, "--size", "97x54", "--format", "mp4"), "even width"),
    (("nowhere.toml",), "cannot read the manifest"),
])
def test_bad_command_lines_exit_2_before_any_job(tmp_path, args, says):
    r = batch(*args, "--out", tmp_path / "out")
    assert r.returncode == 2 and says in r.stderr
    assert not (tmp_path / "out").exists()
    assert "Traceback" not in r.stderr


def test_a_manifest(tmp_path):
    (tmp_path / "m.toml").write_text(f'''
out = "review"
[[job]]
name = "look"
kind = "render"
projects = ["{FOUNTAIN}"]
frames = 6
size = "64x36"
format = "png"
[job.sweep]
"{NOZZLE}:Emission.Rate" = [30, 90]
''')
    r = batch(tmp_path / "m.toml", "--workers", "2")
    assert r.returncode == 0, r.stderr
    for rate in (30, 90):
        folder = tmp_path / f"review/render/look/Emission.Rate={rate}"
        assert (folder / "render.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / "thumb.png").is_file()


@pytest.mark.ray
def test_ray_auto_starts_a_local_instance(tmp_path):
    pytest.importorskip("ray")
    r = batch("validate", FOUNTAIN, "--set", f"{NOZZLE}:Emission.Rate=10,20", "--out", tmp_path,
              "--ray", "auto", "--workers", "2")
    assert r.returncode == 0, r.stderr
    assert "2 jobs: 2 ok" in r.stdout


def test_test_jobs_run_the_projects_spec_with_the_variants_values(tmp_path):
    r = batch("test,validate", FOUNTAIN, "--set", f"{NOZZLE}:Emission.Rate=400,100", "--out", tmp_path,
              "--workers", "1")
    assert r.returncode == 1
    lines = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [(ln["kind"], ln["variant"], ln["status"]) for ln in lines] == [
        ("test", "Emission.Rate=400", "ok"), ("test", "Emission.Rate=100", "failed"),
        ("validate", "Emission.Rate=400", "ok"), ("validate", "Emission.Rate=100", "ok")]
    spec = FOUNTAIN.with_name("demo_fountain.kztest.toml")
    line = next(n for n, t in enumerate(spec.read_text().splitlines(), 1) if "emitted = [519, 521]" in t)
    assert lines[1]["message"].startswith(f"{spec}:{line}:1: count[0]: Nozzle: emitted")


def test_the_terminal_display_shows_each_worker(tmp_path):
    import io

    from kzplayer import batch as api
    from kzplayer.batch.progress import TerminalProgress

    from .common import call
    stream = io.StringIO()
    result = api.run([call("slow", f"j{i}", sleep=0.3) for i in range(4)], out=tmp_path, workers=2,
                     progress=TerminalProgress(stream, live=True))
    assert result.counts() == {"ok": 4}
    shown = stream.getvalue()
    assert "4/4" in shown and "4 ok" in shown
    assert "worker 0 (pid" in shown and "worker 1 (pid" in shown
