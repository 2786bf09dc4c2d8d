"""Reading specs: positions of tables and keys, and bad specs reported at their line and
column (never raised)."""
from __future__ import annotations

from kzplayer.effecttest.positions import positions
from kzplayer.effecttest.spec import read_spec

from tests.effecttest.helpers import line_of, write_spec


def test_positions_count_array_tables_and_skip_multiline_values():
    text = ('project = "a.kzm"  # the effect\nset = [\n  "x:Emission.Rate=3",\n  "y = 2",\n]\n'
            '[[count]]\nemitter = "A"\n\n[[count]]\n  alive = [1, 2]\n[variants.big]\nset = []\n')
    where = positions(text)
    assert where[("project",)] == (1, 1, 8)
    assert where[("set",)][0] == 2
    assert ("y",) not in where                       # inside the multi-line array
    assert where[("count", 0)][0] == 6 and where[("count", 0, "emitter")][0] == 7
    assert where[("count", 1)][0] == 9 and where[("count", 1, "alive")] == (10, 3, 8)
    assert where[("variants", "big", "set")][0] == 12


def test_a_good_spec_reads_with_its_checks_and_defaults(tmp_path):
    path = write_spec(tmp_path, '[[count]]\nemitter = "Nozzle"\nat = 1\nalive = [1, 9]\n'
                                '[[validate]]\n[[value]]\nitem = "Nozzle"\nproperty = "Emission.Rate"\nequals = 400\n')
    spec = read_spec(path)
    assert spec.problems == []
    assert [c.name for c in spec.checks] == ["count[0] Nozzle", "validate[0]", "value[0] Nozzle"]
    assert spec.size == (96, 96) and spec.fps == 30.0 and spec.seed == 1
    assert spec.checks[0].span.line == line_of(path, "[[count]]")
    assert spec.checks[0].at_key("alive").line == line_of(path, "alive =")


def test_bad_specs_name_the_line_and_column(tmp_path):
    path = write_spec(tmp_path, '[[count]]\nemitter = "Nozzle"\nat = 1\n  alvie = 3\n\n'
                                '[[bounds]]\nwindow = [2, 1]\nbox = { min = [0, 0] }\n'
                                '[[events]]\nemitter = "Nozzle"\nkind = "spawn"\ncount = 1\n')
    spec = read_spec(path)
    found = {(d.span.line, d.span.column, d.message.split(" (")[0]) for d in spec.problems}
    assert (line_of(path, "alvie"), 3, "[[count]] takes no key `alvie`") in found
    assert any(line == line_of(path, "window =") for line, _, _ in found)
    assert any(line == line_of(path, "box =") for line, _, _ in found)
    assert any(line == line_of(path, 'kind = "spawn"') for line, _, _ in found)
    typo = next(d for d in spec.problems if "alvie" in d.message)
    assert typo.hint == "did you mean `alive`?" and typo.rule == "cli.test-spec"
    assert spec.checks == []


def test_not_toml_and_a_missing_project_are_problems_not_exceptions(tmp_path):
    broken = tmp_path / "a.kztest.toml"
    broken.write_text('project = "x.kzm"\n[[count]\n')
    spec = read_spec(broken)
    assert len(spec.problems) == 1 and spec.problems[0].span.line == 2
    assert spec.problems[0].message.startswith("not TOML")
    missing = tmp_path / "b.kztest.toml"
    missing.write_text('project = "nowhere.kzm"\n[[validate]]\n')
    spec = read_spec(missing)
    assert [d.span.line for d in spec.problems] == [1] and "does not exist" in spec.problems[0].message


def test_a_spec_without_checks_or_with_an_unknown_variant(tmp_path):
    assert "no checks" in read_spec(write_spec(tmp_path, "")).problems[0].message
    path = write_spec(tmp_path, '[[value]]\nitem = "Nozzle"\nproperty = "Emission.Rate"\nequals = 1\nvariant = "big"\n')
    (problem,) = read_spec(path).problems
    assert problem.span.line == line_of(path, "variant =") and "no variant 'big'" in problem.message


def test_every_played_check_needs_a_time(tmp_path):
    path = write_spec(tmp_path, '[[events]]\nemitter = "Nozzle"\nkind = "birth"\ncount = 1\n[[picture]]\n')
    problems = read_spec(path).problems
    assert sorted(d.span.line for d in problems) == [line_of(path, "[[events]]"), line_of(path, "[[picture]]")]
    assert all("needs a time" in d.message for d in problems)
