"""A binding source property with no value in the file reads its property type's default,
as Kanzi does (a prefab template's property, or one a plugin or the application sets at run
time): validate notes it (binding.source-default, KZ111), never an error; inspect and play
go on with that value."""
from __future__ import annotations

import json

from click.testing import CliRunner

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.cli import main
from kzplayer.diagnostics import Severity
from kzplayer.validate import validate_paths

PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="P" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <ParticleSystem name="System">
      <EmptyNode name="Controller">{controller}
      </EmptyNode>
      <ParticleEmitter name="E">
        <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
        <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
        <Binding target="Emission.Rate">{expression}</Binding>
      </ParticleEmitter>
    </ParticleSystem>
  </Scene></Screen></Screens>
  <PropertyTypes>
    <PropertyType name="App.Speed" type="float"/>
    <PropertyType name="App.Boost" type="float" default="2"/>
    <PropertyType name="App.Mode" type="enum" enum="Calm Busy"/>
  </PropertyTypes>
</Project>
"""


def write(tmp_path, expression, controller='<Property name="App.Speed"/>'):
    path = tmp_path / "p.kzm"
    path.write_text(PROJECT.format(controller=controller, expression=expression), encoding="utf-8")
    return path


def rate(path):
    project = kzplayer.load(str(path))
    graph = resolve(project)
    emitter = next(i for i in project.walk() if i.name == "E")
    return graph.value(emitter, "Emission.Rate"), graph.diagnostics


def test_an_unset_source_reads_its_types_default_with_a_note_at_the_reference(tmp_path):
    path = write(tmp_path, "{../Controller/App.Speed} * 10 + {../Controller/App.Boost} + 5")
    value, found = rate(path)
    assert value == 0 * 10 + 2 + 5
    notes = [d for d in found if d.rule == "binding.source-default"]
    assert [(d.code, d.severity) for d in notes] == [("KZ111", Severity.NOTE)] * 2
    text = path.read_text().splitlines()
    line = next(n for n, t in enumerate(text, 1) if "Emission.Rate" in t)
    assert [(d.span.line, d.span.column) for d in notes] == [(line, text[line - 1].index("{../Controller/App.Speed}") + 1),
                                                              (line, text[line - 1].index("{../Controller/App.Boost}") + 1)]
    assert "default, 0" in notes[0].message and "default, 2" in notes[1].message
    result = validate_paths([str(path)])
    assert not [d for d in result.diagnostics if d.severity in (Severity.ERROR, Severity.WARNING)]


def test_an_enum_type_without_a_default_reads_its_first_option(tmp_path):
    path = write(tmp_path, '{../Controller/App.Mode} == "Calm" ? 7 : 3', '<Property name="App.Mode"/>')
    value, found = rate(path)
    assert value == 7 and [d.rule for d in found] == ["binding.source-default"]


def test_a_value_in_the_file_or_a_stock_default_is_read_without_a_note(tmp_path):
    path = write(tmp_path, "{../Controller/App.Speed} * 10 + {./Emission.Lifetime}",
                 '<Property name="App.Speed">4</Property>')
    value, found = rate(path)
    assert value == 4 * 10 + 1.0 and found == []       # Emission.Lifetime's catalog default, 1 s


def test_an_undeclared_empty_property_has_no_type_and_stays_an_error(tmp_path):
    path = write(tmp_path, "{../Controller/App.Unknown} * 10", '<Property name="App.Unknown"/>')
    _, found = rate(path)
    assert [d.rule for d in found] == ["expr.value"]


def test_inspect_and_play_go_on_with_the_default(ctx, tmp_path):
    path = write(tmp_path, "{../Controller/App.Speed} * 10 + 60")
    shown = CliRunner().invoke(main, ["inspect", str(path)])
    assert shown.exit_code == 0 and "Emission.Rate = 60  (bound)" in shown.output and "1 note" in shown.output
    played = CliRunner().invoke(main, ["play", str(path), "--frames", "30", "--stats", str(tmp_path / "s.json")])
    assert played.exit_code == 0, played.output
    assert "Traceback" not in played.output
    rows = json.loads((tmp_path / "s.json").read_text())
    # 60 particles/s (App.Speed read as 0) for 30 frames of 1/60 s: 30 particles
    assert len(rows) == 30 and sum(r["emitted"] for r in rows) == 30
