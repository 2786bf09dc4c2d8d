"""`kzplayer validate` as users run it: output formats (cli.md), exit codes, --strict, one pass
over several files, and the shipped samples validating clean."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kzplayer.cli import main
from kzplayer.resources import samples_dir
from kzplayer.validate import all_rules

CASES = Path(__file__).parent / "cases"
RECIPE = CASES / "recipe_ok.kzm"
GOTCHA2 = CASES / "binding.push-target" / "gotcha2_push_target_is_source.kzm"
GOTCHA4 = CASES / "subemitter.no-particle-material" / "gotcha4_no_particle_material.kzm"   # a warning only
STALE = CASES / "path.stale" / "gotcha5_source_renamed.kzm"
MALFORMED = CASES / "xml.malformed" / "mismatched_end_tag.kzm"


def validate(*args):
    result = CliRunner().invoke(main, ["validate", *map(str, args)])
    return result.exit_code, result.output


# -- exit codes ------------------------------------------------------------------------------

def test_clean_project_exits_0_with_a_summary():
    code, out = validate(RECIPE)
    assert code == 0
    assert out.strip() == "1 file checked: no problems."


def test_errors_exit_1():
    assert validate(GOTCHA2)[0] == 1


def test_warnings_pass_unless_strict():
    assert validate(GOTCHA4)[0] == 0
    assert validate("--strict", GOTCHA4)[0] == 1
    assert validate("--strict", RECIPE)[0] == 0


def test_malformed_xml_is_a_project_error_not_an_unreadable_file():
    assert validate(MALFORMED)[0] == 1


def test_missing_file_exits_2_and_says_so(tmp_path):
    missing = tmp_path / "nowhere.kzm"
    code, out = validate(missing)
    assert code == 2
    assert out.splitlines() == [f"{missing}: error: cannot read {missing}: no such file or folder "
                                "[file.unreadable]", "0 files checked: 1 error, 0 warnings, 0 notes."]


def test_folder_without_a_project_exits_2(tmp_path):
    code, out = validate(tmp_path)
    assert code == 2
    assert out.startswith(f"{tmp_path}: error: ") and "[file.unreadable]" in out


def test_missing_file_among_others_still_checks_the_others(tmp_path):
    code, out = validate("--format", "json", tmp_path / "nowhere.kzm", GOTCHA2)
    assert code == 2
    rules = [d["rule"] for d in json.loads(out)["diagnostics"]]
    assert "binding.push-target" in rules and "file.unreadable" in rules


def test_bad_command_line_exits_2():
    assert validate("--format", "yaml", RECIPE)[0] == 2
    assert validate()[0] == 2


# -- text ------------------------------------------------------------------------------------

def test_text_shows_location_source_line_caret_and_hint():
    code, out = validate(GOTCHA2)
    lines = out.splitlines()
    head = lines[0]
    assert re.fullmatch(rf"{re.escape(str(GOTCHA2))}:37:61: error: .* \[binding\.push-target\]", head)
    source = GOTCHA2.read_text().splitlines()[36]
    assert lines[1] == "    " + source
    caret = lines[2]
    value = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/On Death/Source"
    assert caret == "    " + " " * source.index(value) + "^" * len(value)
    assert lines[3].startswith("    hint: set BindingItem.PushTarget to ")
    assert lines[-1] == "1 file checked: 1 error, 0 warnings, 0 notes."


def test_text_is_plain_when_not_a_terminal():
    assert "\x1b[" not in validate(GOTCHA2)[1]


def test_colour_on_a_terminal():
    from kzplayer.commands.validate import run

    class Tty:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s

        def flush(self):
            pass

        def isatty(self):
            return True

    out = Tty()
    assert run([str(GOTCHA2)], stream=out) == 1
    assert "\x1b[1;31merror\x1b[0m" in out.text


# -- JSON (cli.md) -----------------------------------------------------------------------------

def test_json_has_the_contract_fields_and_related():
    code, out = validate("--format", "json", STALE)
    doc = json.loads(out)
    assert code == 1
    assert set(doc) == {"files", "diagnostics", "summary"}
    assert doc["files"] == [str(STALE)]
    assert doc["summary"] == {"errors": 2, "warnings": 0, "notes": 0}
    first = doc["diagnostics"][0]
    assert set(first) == {"code", "rule", "severity", "message", "file", "line", "column",
                          "end_line", "end_column", "hint",
                          "related"}      # an addition to cli.md: the other places

    value = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/On Death/Source"
    assert (first["code"], first["rule"], first["severity"]) == ("KZ102", "path.stale", "error")
    assert (first["file"], first["line"], first["column"]) == (str(STALE), 43, 63)
    assert (first["end_line"], first["end_column"]) == (43, 63 + len(value))
    assert first["hint"].endswith("On Death/Primary")


def test_json_of_a_clean_project():
    doc = json.loads(validate("--format", "json", RECIPE)[1])
    assert doc == {"files": [str(RECIPE)], "diagnostics": [],
                   "summary": {"errors": 0, "warnings": 0, "notes": 0}}


# -- GitHub workflow commands ----------------------------------------------------------------

def test_github_annotations():
    code, out = validate("--format", "github", GOTCHA2, GOTCHA4)
    lines = out.splitlines()
    assert lines[0] == (f"::error file={GOTCHA2},line=37,col=61,endColumn=134,title=binding.push-target::"
                        "the PushTarget of this Emission.SourceEventBuffer binding is 'Source', not the "
                        "subemitter 'Subemitter' that holds it: the binding pulls from the source and pushes "
                        "into the subemitter%0Aset BindingItem.PushTarget to Screens/Screen/RootNode/"
                        "Viewport 2D/Scene/Particle System/On Death/Subemitter")
    assert lines[1].startswith(f"::warning file={GOTCHA4},line=25,col=17,")
    assert "title=subemitter.no-particle-material::" in lines[1]


def test_github_escapes_commas_and_colons_in_properties(tmp_path):
    odd = tmp_path / "a,b:c.kzm"
    shutil.copy(GOTCHA2, odd)
    out = validate("--format", "github", odd)[1]
    assert "file=" + str(odd).replace(":", "%3A").replace(",", "%2C") + ",line=37" in out


# -- one pass --------------------------------------------------------------------------------

def test_one_pass_over_many_files_each_problem_once_sorted():
    files = [STALE, GOTCHA2, RECIPE, GOTCHA4]
    doc = json.loads(validate("--format", "json", *files)[1])
    found = [(d["file"], d["line"], d["column"], d["rule"]) for d in doc["diagnostics"]]
    assert found == sorted(found)
    assert len(found) == len(set(found))
    assert doc["files"] == [str(f) for f in files]
    assert sorted({f for f, *_ in found}) == sorted(str(f) for f in (STALE, GOTCHA2, GOTCHA4))
    assert doc["summary"] == {"errors": 3, "warnings": 1, "notes": 0}


def test_the_same_file_twice_is_checked_once():
    doc = json.loads(validate("--format", "json", GOTCHA2, GOTCHA2)[1])
    assert doc["files"] == [str(GOTCHA2)]
    assert len(doc["diagnostics"]) == 1


# -- rule modules ----------------------------------------------------------------------------

CLI_MD_RULES = {   # shared/design/cli.md: "At least these rules exist, named so"
    "xml.malformed", "schema.invalid", "path.unresolved", "path.stale", "expr.syntax",
    "expr.unknown-function", "expr.arguments", "expr.type", "binding.target-undeclared",
    "binding.push-target", "binding.cycle", "binding.type-mismatch", "binding.source-mismatch",
    "property.unknown", "property.type", "property.range", "material.unknown", "material.slot",
    "material.deprecated", "subemitter.not-event-driven", "subemitter.unbound",
    "subemitter.no-particle-material", "emitter.maximum-amount", "events.cycle", "shader.compile"}
RANGES = {"xml": 0, "schema": 0, "file": 0, "item": 0, "path": 1, "binding": 1, "expr": 2,
          "property": 3, "material": 4, "subemitter": 5, "emitter": 5, "events": 5, "shader": 6, "mesh": 7, "texture": 7,
          "play": 9}     # a budget play checks too keeps play's code (play.buffer-budget)
STRUCTURAL = {"path.outside-project"}     # a file reference, found while loading


def test_every_contract_rule_exists_once_with_a_code_in_its_range():
    modules = all_rules()
    slugs = [m.RULE for m in modules]
    codes = [m.CODE for m in modules]
    assert CLI_MD_RULES <= set(slugs)
    assert len(set(slugs)) == len(slugs) and len(set(codes)) == len(codes)
    for m in modules:
        assert re.fullmatch(r"KZ\d{3}", m.CODE)
        expected = 0 if m.RULE in STRUCTURAL else RANGES[m.RULE.split(".")[0]]
        assert int(m.CODE[2]) == expected, m.RULE


def test_every_rule_documents_how_to_fix_it_and_a_failing_and_a_passing_example():
    for m in all_rules():
        doc = m.__doc__ or ""
        assert doc.splitlines()[0].strip(), m.RULE
        assert re.search(r"^(Failing|Noted)", doc, re.M), m.RULE
        assert re.search(r"^Passing", doc, re.M), m.RULE
        assert re.search(r"^To fix: \S", doc, re.M), m.RULE


# -- the shipped samples ---------------------------------------------------------------------

SAMPLES = sorted(samples_dir().rglob("*.kzm"))


def test_there_are_samples():
    assert SAMPLES, f"no .kzm in {samples_dir()}"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_validates_clean(sample):
    code, out = validate("--strict", sample)
    assert code == 0, out


# -- real Kanzi Studio 3.9 projects ------------------------------------------------------------

@pytest.mark.parametrize("name", ["Gauges.kzproj", "Indicator.kzproj"])
def test_real_kanzi_projects_have_no_errors(kanzi39, name):
    """Working Kanzi projects: nothing kzplayer models is wrong in them. Their material
    bindings use engine functions, which are notes."""
    code, out = validate("--format", "json", kanzi39 / name)
    doc = json.loads(out)
    assert code == 0, [d for d in doc["diagnostics"] if d["severity"] == "error"][:3]
    assert doc["summary"]["errors"] == 0 and doc["summary"]["warnings"] == 0
    assert {d["rule"] for d in doc["diagnostics"]} <= {"expr.not-evaluable"}
    assert len(doc["diagnostics"]) <= 1, "material bindings: one note per file, not one per uniform"


def test_material_bindings_of_a_kanzi_project_are_one_note(kanzi39):
    code, out = validate("--format", "json", kanzi39 / "Indicator.kzproj")
    [note] = json.loads(out)["diagnostics"]
    # Indicator's material types bind nine uniforms, among them the projection matrix
    assert note["severity"] == "note" and "9 material uniforms" in note["message"]
    assert note["message"].startswith("the bindings of 9 material uniforms (Width, ")


# -- the caret (kzplayer/commands/report.py) ---------------------------------------------------

def test_caret_under_a_span_that_goes_on_runs_to_the_end_of_the_line(tmp_path):
    from kzplayer.commands.report import format_diagnostic
    from kzplayer.diagnostics import Diagnostic, Severity, Span
    f = tmp_path / "x.kzm"
    f.write_text("<a>\n  <Binding>one +\n  two</Binding>\n", encoding="utf-8")
    d = Diagnostic("KZ201", "expr.syntax", Severity.ERROR, "m", Span(str(f), 2, 12, 3, 6))
    lines = format_diagnostic(d).splitlines()
    assert lines[1] == "      <Binding>one +"
    assert lines[2] == "    " + " " * 11 + "^" * 5


def test_file_level_problem_names_the_file_without_a_line(tmp_path):
    from kzplayer.commands.report import format_diagnostic
    from kzplayer.diagnostics import Diagnostic, Severity, Span
    d = Diagnostic("KZ001", "file.unreadable", Severity.ERROR, "gone", Span("a.kzm", 0, 0))
    assert format_diagnostic(d) == "a.kzm: error: gone [file.unreadable]"


def test_a_file_named_twice_is_checked_once(monkeypatch):
    monkeypatch.chdir(GOTCHA2.parent)
    code, out = validate("--format", "json", GOTCHA2.name, f"./{GOTCHA2.name}", GOTCHA2)
    doc = json.loads(out)
    assert [d["rule"] for d in doc["diagnostics"]] == ["binding.push-target"]
    assert doc["files"] == [GOTCHA2.name]       # shown as first named


def test_colour_on_a_terminal_unless_no_color(monkeypatch):
    from kzplayer.commands.report import wants_color

    class Terminal:
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_color(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_color(Terminal())


def test_a_utf16_project_shows_its_source_lines_and_columns(tmp_path):
    text = (CASES / "property.unknown" / "typo.kzm").read_text(encoding="utf-8")
    path = tmp_path / "wide.kzm"
    path.write_text(text.replace('encoding="utf-8"', 'encoding="utf-16"'), encoding="utf-16")
    code, out = validate(path)
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith(f"{path}:13:29: error: unknown property 'Emission.Lifetim'")
    assert lines[1] == '                <Property name="Emission.Lifetim">2</Property>'
    assert lines[2] == " " * (4 + 28) + "^" * len("Emission.Lifetim")


def test_the_other_places_of_a_problem_are_shown():
    loop = CASES / "events.cycle" / "two_subemitters.kzm"
    # the loop's second binding: A's events into B, written on line 26
    line = next(n for n, s in enumerate(loop.read_text(encoding="utf-8").splitlines(), 1)
                if "{@../A/ParticleEmitter.EventBuffer}" in s)
    code, out = validate(loop)
    assert f"    see also: {line}:30" in out.splitlines()
    doc = json.loads(validate("--format", "json", loop)[1])
    [d] = doc["diagnostics"]
    assert [(r["file"], r["line"], r["column"]) for r in d["related"]] == [(str(loop), line, 30)]


def test_a_folder_of_single_file_projects_says_how_to_check_them(tmp_path):
    shutil.copy(RECIPE, tmp_path / "recipe.kzm")
    code, out = validate(tmp_path)
    assert code == 2
    assert f"    hint: to check each .kzm file in it, name them: kzplayer validate {tmp_path}/*.kzm" in out.splitlines()


def test_json_gives_no_position_for_a_problem_of_the_whole_file(tmp_path):
    code, out = validate("--format", "json", tmp_path / "nowhere.kzm")
    [d] = json.loads(out)["diagnostics"]
    assert d["file"] == str(tmp_path / "nowhere.kzm")
    assert (d["line"], d["column"], d["end_line"], d["end_column"]) == (None, None, None, None)
