"""The local pool: real renders, the same bytes on any worker count and as `kzplayer play`
writes them; crashing, hanging, memory-hungry and killed jobs; a resumed batch."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from kzplayer import batch
from kzplayer.batch.results import read_results

from .common import FOUNTAIN, NOZZLE, REPO, call, render_sweep, tree

PY = sys.executable


def test_one_and_two_workers_write_the_same_bytes_as_play(tmp_path, sweep_on_two_workers):
    jobs = render_sweep()
    one = batch.run(jobs, out=tmp_path / "one", workers=1)
    two, two_out = sweep_on_two_workers
    assert one.counts() == two.counts() == {"ok": 12}
    a, b = tree(tmp_path / "one"), tree(two_out)
    assert len(a) == 6 * 2 + 6 and a == b                    # render.gif + thumb.gif, findings.json
    renders = [v for k, v in a.items() if k.endswith("render.gif")]
    assert len(set(renders)) == 6                            # every variant differs
    # the batch renders what `kzplayer play` renders with the same values
    reference = tmp_path / "play.gif"
    subprocess.run([PY, "-m", "kzplayer.cli", "play", str(FOUNTAIN), "--headless", "--frames", "12", "--fps", "30",
                    "--size", "96x54", "--seed", "2", "--set", f"{NOZZLE}:Emission.Rate=60", "--output", str(reference)],
                   cwd=REPO, check=True, capture_output=True, env={**os.environ, "KZPLAYER_NO_PROGRESS": "1"})
    assert a["render/demo_fountain/Emission.Rate=60__seed=2/render.gif"] == reference.read_bytes()
    lines = read_results(two_out)
    assert [ln["job"] for ln in lines] == [j.id for j in jobs]
    rendered = {ln["variant"]: ln for ln in lines if ln["kind"] == "render"}
    alive = [rendered[f"Emission.Rate={r}__seed=1"]["counts"]["alive"] for r in (20, 60, 180)]
    assert alive[0] < alive[1] < alive[2]                    # more emitted, more alive
    assert all(ln["findings"] == {"errors": 0, "warnings": 0, "notes": 0} for ln in lines)
    assert all((two_out / o).is_file() for ln in lines for o in ln["outputs"])
    # a rerun keeps what is complete and runs what is not
    gone = tmp_path / "one" / "render/demo_fountain/Emission.Rate=20__seed=1/render.gif"
    gone.unlink()
    again = batch.run(jobs, out=tmp_path / "one", workers=2)
    ran = [r.job.id for r in again.records if not r.reused]
    assert ran == ["render/demo_fountain/Emission.Rate=20__seed=1"]
    assert tree(tmp_path / "one") == a


def test_the_contact_sheet_is_one_self_contained_page(tmp_path):
    jobs = render_sweep()[:3]
    batch.run(jobs, out=tmp_path, workers=1)
    page = (tmp_path / "index.html").read_text()
    assert page.count("class='card'") == 3
    assert page.count("data:image/gif;base64,") == 3
    for outside in ("http://", "https://", "<script", "<link", "@import"):
        assert outside not in page
    for rate in ("20", "60", "180"):
        assert f"Emission.Rate = {rate}" in page
    assert "refresh" not in page                              # finished: no more reloading


def test_crashing_hanging_hungry_and_killed_jobs_are_reported_and_the_batch_goes_on(tmp_path):
    jobs = [call("fine", "first"), call("crash"), call("hang", timeout=2.0), call("hog", memory=256 * 2**20),
            call("broken"), call("dies_once", marker=str(tmp_path / "killed-once")), call("fine", "last")]
    result = batch.run(jobs, out=tmp_path / "out", workers=2, retries=1)
    by = {r.job.variant: r for r in result.records}
    assert {k: r.status for k, r in by.items()} == {
        "first": "ok", "crash": "crashed", "hang": "timeout", "hog": "out-of-memory", "broken": "error",
        "dies_once": "ok", "last": "ok"}
    assert by["crash"].attempts == 2 and "SIGSEGV" in by["crash"].message
    assert by["dies_once"].attempts == 2                      # the worker killed mid-job: rescheduled
    first_pid = int((tmp_path / "killed-once").read_text())
    assert by["dies_once"].counts["pid"] != first_pid         # ... on a fresh worker
    assert "ValueError: a bug in the job" in by["broken"].message
    assert (tmp_path / "out/call/faults/last/out.txt").read_text() == "last\n"
    lines = {ln["variant"]: ln for ln in read_results(tmp_path / "out")}
    assert lines["hang"]["status"] == "timeout" and lines["crash"]["attempts"] == 2
    assert not result.ok


_INTERRUPTED = """
import sys
from kzplayer import batch
from tests.batch.common import call
jobs = [call("slow", f"job{i}", sleep=0.3) for i in range(8)]
result = batch.run(jobs, out=sys.argv[1], workers=1)
print(result.interrupted)
"""


def test_a_batch_interrupted_by_ctrl_c_goes_on_where_it_stopped(tmp_path):
    out = tmp_path / "out"
    proc = subprocess.Popen([PY, "-c", _INTERRUPTED, str(out)], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                done = [ln for ln in read_results(out) if ln["status"] == "ok"]
            except (OSError, ValueError):
                done = []
            if len(done) >= 2:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.communicate(timeout=60)[0].strip() == "True"
    finally:
        proc.kill()
    lines = read_results(out)
    kept = [ln["variant"] for ln in lines if ln["status"] == "ok"]
    stopped = [ln["variant"] for ln in lines if ln["status"] == "interrupted"]
    assert len(kept) >= 2 and stopped and len(kept) + len(stopped) == 8
    again = batch.run([call("slow", f"job{i}", sleep=0.3) for i in range(8)], out=out, workers=2)
    assert again.counts() == {"ok": 8}
    assert sorted(r.job.variant for r in again.records if r.reused) == sorted(kept)
    assert all((out / f"call/faults/job{i}/out.txt").read_text() == f"job{i}\n" for i in range(8))
    assert json.loads((out / "call/faults/job0/.done.json").read_text())["status"] == "ok"


def test_mp4_renders_are_the_same_bytes_on_any_worker_count_with_a_png_thumbnail(tmp_path):
    from PIL import Image
    jobs = [j for j in render_sweep("mp4") if j.kind == "render"][:2]
    batch.run(jobs, out=tmp_path / "one", workers=1)
    batch.run(jobs, out=tmp_path / "two", workers=2)
    a = tree(tmp_path / "one")
    assert a == tree(tmp_path / "two") and len(a) == 4
    for name, data in a.items():
        if name.endswith("render.mp4"):
            assert data[4:8] == b"ftyp"
    thumb = tmp_path / "one" / next(k for k in a if k.endswith("thumb.png"))
    with Image.open(thumb) as im:
        assert im.size == (96, 54)          # never scaled up past the render
