"""The batch's test kind: a project's effect-test specs run by `kzplayer.effecttest` under
each batch variant, on the local pool; a variant that breaks a count check fails the job
at the spec's line; pictures are skipped under a variant that changes values."""
from __future__ import annotations

import json
import shutil

from kzplayer import batch
from kzplayer.batch.results import read_results

from .common import FOUNTAIN, NOZZLE

SPEC = FOUNTAIN.with_name("demo_fountain.kztest.toml")


def _line_of(text: str) -> int:
    """The 1-based line of the spec that holds `text` (read from the file, not assumed)."""
    return next(n for n, line in enumerate(SPEC.read_text().splitlines(), 1) if text in line)


def _checks_in_spec() -> int:
    return sum(line.startswith("[[") for line in SPEC.read_text().splitlines())


def test_a_test_job_passes_its_spec_and_a_variant_that_breaks_a_count_fails_at_the_line(tmp_path):
    jobs = batch.plan(["test"], [FOUNTAIN], prefix="own") + batch.plan(
        ["test"], [FOUNTAIN], batch.sweep([f"{NOZZLE}:Emission.Rate=100"]), prefix="slow")
    result = batch.run(jobs, out=tmp_path, workers=1)
    assert result.counts() == {"ok": 1, "failed": 1}
    lines = {ln["name"]: ln for ln in read_results(tmp_path)}
    own, slow = lines["own"], lines["slow"]

    # the spec's own values: every check of the spec judged and passed, the picture included
    assert own["status"] == "ok"
    assert own["counts"] == {"passed": _checks_in_spec(), "failed": 0, "skipped": 0, "specs": 1}
    report = json.loads((tmp_path / "test/own/default/tests.json").read_text())
    assert report["specs"] == [str(SPEC)]
    assert [c["status"] for c in report["cases"]] == ["passed"] * _checks_in_spec()
    picture = next(c for c in report["cases"] if c["kind"] == "picture")
    assert picture["at"] == f"{SPEC}:{_line_of('[[picture]]')}:1" and "SSIM" in picture["message"]

    # Rate 100 instead of 400: a quarter of the drops, so the count of the first 1.3 s fails
    assert slow["status"] == "failed"
    cases = json.loads((tmp_path / "test/slow/default/tests.json").read_text())["cases"]
    failed = [c for c in cases if c["status"] == "failed"]
    emitted = next(c for c in failed if c["kind"] == "count")
    assert emitted["at"] == f"{SPEC}:{_line_of('emitted = [519, 521]')}:1"
    assert emitted["emitter"].endswith("/Nozzle") and "130" in emitted["message"]      # 100/s x 1.3 s
    assert slow["message"].startswith(f"{SPEC}:{_line_of('emitted = [519, 521]')}:1: count[0]: ")
    # the golden belongs to Rate 400: under this variant the picture is skipped, not failed
    assert [c["status"] for c in cases if c["kind"] == "picture"] == ["skipped"]
    assert slow["counts"]["skipped"] == 1
    assert slow["counts"]["passed"] + slow["counts"]["failed"] + 1 == _checks_in_spec()

    sheet = (tmp_path / "index.html").read_text()
    assert f"{_checks_in_spec()} passed, 0 failed" in sheet
    assert f"{slow['counts']['passed']} passed, {slow['counts']['failed']} failed, 1 skipped" in sheet
    assert ">failed</span>" in sheet and ">ok</span>" in sheet


def test_a_project_without_a_spec_is_an_error_naming_it(tmp_path):
    lonely = tmp_path / "lonely.kzm"
    shutil.copy(FOUNTAIN, lonely)
    result = batch.run(batch.plan(["test"], [lonely]), out=tmp_path / "out", workers=1)
    assert result.counts() == {"error": 1}
    (line,) = read_results(tmp_path / "out")
    assert "no effect test spec" in line["message"] and "lonely.kzm" in line["message"]
