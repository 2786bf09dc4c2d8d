"""A project in the folder layout (one .kzm per item): problems point into the file of the
item they concern, and all files are checked in one pass."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kzplayer.cli import main
from kzplayer.project.convert import convert

CASES = Path(__file__).parent / "cases"
GOTCHA2 = CASES / "binding.push-target" / "gotcha2_push_target_is_source.kzm"


def position(path: Path, marker: str) -> tuple[int, int]:
    """(line, column) just after `marker`, the first time it occurs in the file."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if marker in line:
            return n, line.index(marker) + len(marker) + 1
    raise AssertionError(f"{marker!r} not in {path}")


def validate_json(*args):
    result = CliRunner().invoke(main, ["validate", "--format", "json", *map(str, args)])
    return result.exit_code, json.loads(result.output)


def test_folder_project_problems_point_into_the_item_files(tmp_path):
    folder = tmp_path / "recipe"
    written = convert(str(GOTCHA2), str(folder)).files
    sub = next(Path(f) for f in written if f.endswith("/Subemitter.kzm"))
    source = next(Path(f) for f in written if f.endswith("/Source.kzm"))
    # a second mistake, in another file: a misspelt property on the source
    text = source.read_text(encoding="utf-8")
    marker = '<Property name="Emission.Lifetime">'
    assert marker in text
    source.write_text(text.replace(marker, '<Property name="Emission.Lifetim">', 1), encoding="utf-8")

    code, doc = validate_json(folder)
    assert code == 1
    found = [(d["rule"], Path(d["file"]).name, d["line"], d["column"]) for d in doc["diagnostics"]]
    push = ("binding.push-target", "Subemitter.kzm", *position(sub, 'BindingItem.PushTarget">'))
    typo_line, typo_col = position(source, '<Property name="Emission.Lifetim">')
    typo = ("property.unknown", "Source.kzm", typo_line, typo_col - len('Emission.Lifetim">'))   # under the name
    assert sorted(found) == sorted([push, typo])
    assert [d["file"] for d in doc["diagnostics"]] == sorted(d["file"] for d in doc["diagnostics"])
    assert len(doc["files"]) == len(written)

    # the root file names the same project
    root = next(Path(f) for f in written if f.endswith(".proj.kzm"))
    assert validate_json(root)[1]["diagnostics"] == doc["diagnostics"]


def test_a_file_that_does_not_load_hides_the_paths_into_it(tmp_path):
    folder = tmp_path / "recipe"
    written = convert(str(CASES / "recipe_ok.kzm"), str(folder)).files
    source = next(Path(f) for f in written if f.endswith("/Source.kzm"))
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("</Property>", "</Propery>", 1), encoding="utf-8")

    code, doc = validate_json(folder)
    assert code == 1
    found = [(d["rule"], d["severity"], Path(d["file"]).name) for d in doc["diagnostics"]]
    # the XML error, then one note instead of the bindings' paths to the lost Source emitter
    assert found == [("xml.malformed", "error", "Source.kzm"), ("path.unresolved", "note", "Source.kzm")]
    # each of the two buffer bindings names Source twice: its SourceExpression, its BindingSourceItem
    assert doc["diagnostics"][1]["message"].startswith("4 path problem(s) not shown")


def test_a_missing_item_file(tmp_path):
    folder = tmp_path / "recipe"
    written = convert(str(CASES / "recipe_ok.kzm"), str(folder)).files
    sub = next(Path(f) for f in written if f.endswith("/Subemitter.kzm"))
    sub.unlink()
    parent = sub.parent.with_suffix(".kzm")          # On Death.kzm lists its children
    code, doc = validate_json(folder)
    assert code == 1
    found = [(d["rule"], Path(d["file"]).name) for d in doc["diagnostics"]]
    assert found == [("file.missing", parent.name)]
    line, _ = position(parent, 'name="Subemitter"')
    assert doc["diagnostics"][0]["line"] == line
