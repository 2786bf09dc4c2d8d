"""`kzplayer test`: finds specs under folders, exit codes 0 / 1 / 2, JUnit XML that a JUnit
parser reads, GitHub annotations at the failing line."""
from __future__ import annotations

from click.testing import CliRunner
from junitparser import Error, Failure, JUnitXml

from kzplayer.cli import main

from tests.effecttest.helpers import line_of, write_spec

PASS = '[[count]]\nemitter = "Nozzle"\nwindow = [0, 0.5]\nemitted = [199, 201]\n'
FAIL = '[[count]]\nemitter = "Nozzle"\nat = 0.5\nalive = [0, 10]\n'


def invoke(*args):
    return CliRunner().invoke(main, ["test", *map(str, args)])


def test_exit_codes(tmp_path):
    good = tmp_path / "good"
    good.mkdir()
    write_spec(good, PASS, name="a")
    (good / "sub").mkdir()
    write_spec(good / "sub", '[[validate]]\n', name="b")
    r = invoke(good)
    assert r.exit_code == 0, r.output
    assert "2 specs, 2 checks, 0 failed" in r.output
    bad = write_spec(tmp_path, FAIL, name="bad")
    r = invoke(bad)
    assert r.exit_code == 1
    assert f"{bad}:{line_of(bad, 'alive =')}:1: error: count[0]: Nozzle: alive at frame 15" in r.output
    broken = write_spec(tmp_path, '[[count]]\nemitter = "Nozzle"\n', name="broken")
    r = invoke(broken, bad)
    assert r.exit_code == 2 and "needs a time" in r.output and "Traceback" not in r.output
    assert invoke(tmp_path / "nothing-here").exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert invoke(empty).exit_code == 2


def test_junit_loads_in_a_junit_parser(tmp_path):
    write_spec(tmp_path, PASS + FAIL, name="mixed")
    write_spec(tmp_path, '[[count]]\nat = 1\n', name="broken")
    out = tmp_path / "report.xml"
    r = invoke(tmp_path, "--junit", out)
    assert r.exit_code == 2
    xml = JUnitXml.fromfile(str(out))
    suites = {s.name: s for s in xml}
    assert set(suites) == {"mixed", "broken"}
    mixed = suites["mixed"]
    assert (mixed.tests, mixed.failures, mixed.errors) == (2, 1, 0)
    cases = list(mixed)
    assert [c.name for c in cases] == ["count[0] Nozzle", "count[1] Nozzle"]
    assert cases[0].is_passed and isinstance(cases[1].result[0], Failure)
    assert "alive at frame 15" in cases[1].result[0].message
    assert suites["broken"].errors == 1 and isinstance(list(suites["broken"])[0].result[0], Error)


def test_github_annotations_point_at_the_failing_key(tmp_path):
    bad = write_spec(tmp_path, FAIL, name="bad")
    r = invoke(bad, "--format", "github")
    assert r.exit_code == 1
    (line,) = [l for l in r.output.splitlines() if l.startswith("::error ")]
    assert f"line={line_of(bad, 'alive =')},col=1," in line and "title=kzplayer test bad" in line
    assert line.split("::", 2)[2].startswith("count[0]: Nozzle: alive at frame 15")
