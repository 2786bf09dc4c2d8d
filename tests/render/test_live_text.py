"""The live preview's fast path for a one-literal save (kzplayer.render.live_text; GL-free),
against the truth of a full load of the saved file: the same typed value and the same edit
(diff_projects), the same expression, and for a bad literal the same diagnostics at the
same file:line:column; an edit that touches markup, two literals, or an entity is no fast
edit."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import kzplayer
from kzplayer.project.loader import load_project
from kzplayer.render import live_text
from kzplayer.render.live_diff import diff_projects
from kzplayer.resources import samples_dir

FIRE = samples_dir() / "04_fire.kzm"


@pytest.fixture
def fire(tmp_path) -> Path:
    path = tmp_path / "fire.kzm"
    shutil.copy(FIRE, path)
    return path


def edited(path: Path, old: str, new: str, count: int = 1) -> str:
    text = path.read_text()
    assert old in text
    return text.replace(old, new, count)


def nth(text: str, old: str, new: str, n: int) -> str:
    """`text` with the n-th `old` (from 1) replaced."""
    at = -1
    for _ in range(n):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old):]


def fast(path: Path, text: str):
    """(the good load, the fast edit of `text` or None); the file is saved with `text`."""
    good = kzplayer.load(str(path))
    before = live_text.index(good, path.resolve())
    assert before is not None and before.starts
    path.write_text(text)
    return good, live_text.find(before, *live_text.read(path.resolve()))


# each: a property's literal as written, what the save writes instead
VALUE_EDITS = [
    ('"Particle.Size">0.22<', '"Particle.Size">0.3<'),                                   # float
    ('"Particle.FrameRate">14<', '"Particle.FrameRate">  20 <'),                          # spaces kept
    ('"Particle.TextureGrid">(4, 4)<', '"Particle.TextureGrid">(2, 8)<'),                 # vector
    ('"Model3D.Color">Color4(0.8, 0.78, 0.75, 1)<', '"Model3D.Color">Color4(0.8, 0.5, 0.75, 1)<'),   # colour
    ('"ParticleEmitter.CastLight">true<', '"ParticleEmitter.CastLight">false<'),           # bool
    ('"Particle.BlendMode">Additive<', '"Particle.BlendMode">Alpha<'),                     # enum
    ('"Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,0.1,0)<',
     '"Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,0.5,0)<'),                      # srt
    ('"Particle.Size">0.22<', '"Particle.Size">0.220<'),                                 # the same value
]


@pytest.mark.parametrize("old, new", VALUE_EDITS)
def test_a_literal_edit_types_as_a_full_load_does(fire, old, new):
    good, edit = fast(fire, edited(fire, old, new))
    assert edit is not None
    assert edit.text == new.split(">", 1)[1][:-1]
    value, problems = live_text.type_literal(good.catalog, edit.literal.name, edit)
    assert problems == []
    full = kzplayer.load(str(fire))
    diff = diff_projects(good, full)
    assert diff.structural is None
    expected = [(e.path, e.name) for e in diff.edits]
    if expected:                     # the full load's one edit is the fast path's
        assert expected == [(edit.literal.item, edit.literal.name)]
        assert type(value) is type(diff.edits[0].value) and value == diff.edits[0].value
    else:                            # the same value written otherwise: no edit either way
        assert value == good.find(edit.literal.item).properties[edit.literal.name].value
    assert full.find(edit.literal.item).properties[edit.literal.name].text == edit.text
    assert edit.after.text == fire.read_text()
    # the next save is found against this one's text, at the offsets the full load gives
    again = live_text.index(full, fire.resolve())
    assert (again.starts, again.ends, again.owners) == (edit.after.starts, edit.after.ends, edit.after.owners)


BAD_EDITS = [
    ('"Particle.Size">0.22<', '"Particle.Size">0.2x<'),
    ('"Particle.TextureGrid">(4, 4)<', '"Particle.TextureGrid">(4, four)<'),
    ('"ParticleEmitter.CastLight">true<', '"ParticleEmitter.CastLight">yes<'),
    ('"Particle.BlendMode">Additive<', '"Particle.BlendMode">Additiv<'),
    ('"Model3D.Color">Color4(0.8, 0.78, 0.75, 1)<', '"Model3D.Color">Color4(0.8, 0.78)<'),
]


@pytest.mark.parametrize("old, new", BAD_EDITS)
def test_a_bad_literal_is_reported_as_a_full_load_reports_it(fire, old, new):
    good, edit = fast(fire, edited(fire, old, new))
    assert edit is not None
    value, problems = live_text.type_literal(good.catalog, edit.literal.name, edit)
    _, diagnostics = load_project(str(fire))
    errors = [d for d in diagnostics if d.severity.name == "ERROR"]
    assert value is None and errors and problems == errors
    assert [(Path(d.span.file), d.span.line, d.span.column) for d in problems] == \
        [(Path(d.span.file), d.span.line, d.span.column) for d in errors]


def test_a_bad_literal_on_a_long_line_after_an_edit_is_placed_where_the_full_load_places_it(tmp_path):
    """gen200's layout: the whole project on one line, so a column counts every literal
    before it; the second save is found against the first's text."""
    from tests.render.test_live_big import project_text
    path = tmp_path / "big.kzm"
    path.write_text(project_text().replace("\n", ""))
    good = kzplayer.load(str(path))
    before = live_text.index(good, path.resolve())
    text = path.read_text().replace('"Emission.Rate">85<', '"Emission.Rate">850<', 1)
    path.write_text(text)
    first = live_text.find(before, *live_text.read(path.resolve()))
    assert first is not None and first.text == "850"
    path.write_text(text.replace('"Emission.Lifetime">1.5<', '"Emission.Lifetime">1.5.<', 7))
    second = live_text.find(first.after, *live_text.read(path.resolve()))
    assert second is None            # seven literals apart: no fast edit
    path.write_text(nth(text, '"Emission.Lifetime">1.5<', '"Emission.Lifetime">1.5.<', 7))
    second = live_text.find(first.after, *live_text.read(path.resolve()))
    assert second is not None and second.text == "1.5."
    value, problems = live_text.type_literal(good.catalog, second.literal.name, second)
    _, diagnostics = load_project(str(path))
    assert value is None and problems == [d for d in diagnostics if d.severity.name == "ERROR"]
    assert problems[0].span.line == 1 and problems[0].span.column > 3000


def test_a_short_binding_expression_edit_is_found_and_rebound_as_read(tmp_path):
    project = tmp_path / "fountain.kzm"
    shutil.copy(samples_dir() / "demo_fountain.kzm", project)
    good, edit = fast(project, edited(project, "* ({./Emission.Lifetime}", "* 2 * ({./Emission.Lifetime}"))
    assert edit is not None and edit.literal.name is None
    item = good.find(edit.literal.item)
    binding = live_text.rebound(item.bindings[edit.literal.binding], edit)
    full = kzplayer.load(str(project)).find(edit.literal.item).bindings[edit.literal.binding]
    assert binding.key() == full.key() and binding.owner is None
    assert (binding.expression_span.line, binding.expression_span.column) == \
        (full.expression_span.line, full.expression_span.column)
    assert binding.expression_span == full.expression_span


@pytest.mark.parametrize("old, new", [
    ('<Property name="Particle.Size">0.22</Property>', '<Property name="Particle.Size">0.22</Property><!-- x -->'),
    ('"Particle.Size">0.22<', '"Particle.Size">0.22 &lt; 1<'),                 # an entity
    ('"Particle.Size">0.22<', '"Particle.Size"><![CDATA[0.3]]><'),             # CDATA
    ('"Particle.Size">0.22<', '"Particle.Sizes">0.22<'),                       # an attribute
    ('"Particle.Size">0.22</Property>', '"Particle.Size">0.3</Property><Property name="Particle.Size">0.3</Property>'),
])
def test_an_edit_that_touches_markup_is_no_fast_edit(fire, old, new):
    _, edit = fast(fire, edited(fire, old, new))
    assert edit is None


def test_two_literals_apart_or_no_change_is_no_fast_edit(fire):
    text = edited(fire, '"Particle.Size">0.22<', '"Particle.Size">0.3<')
    text = text.replace('"Particle.FrameRate">14<', '"Particle.FrameRate">15<', 1)
    _, edit = fast(fire, text)
    assert edit is None
    _, edit = fast(fire, fire.read_text())
    assert edit is None
