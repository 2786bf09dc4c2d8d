"""Hostile input found by fuzzing (issue 8): every case loads into diagnostics, never an
escaping exception, and the API raises only what it documents."""
from __future__ import annotations

import pytest

import kzplayer
from kzplayer.project.loader import load_project
from kzplayer.resources import samples_dir

RECIPE = samples_dir() / "07_death_sparks.kzm"
SOURCE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Death Sparks/Source"


def variant(tmp_path, edit, name="v.kzm"):
    path = tmp_path / name
    path.write_text(edit(RECIPE.read_text(encoding="utf-8")), encoding="utf-8")
    return path


def rules(path):
    project, diags = load_project(path)
    return project, [d.rule for d in diags]


def test_an_escape_past_the_last_unicode_character_is_a_property_type_error(tmp_path):
    path = variant(tmp_path, lambda t: t.replace(
        '<Property name="Particle.Size">0.3</Property>',
        '<Property name="Particle.Size">0.3</Property><Property name="Particle.Texture">"\\U00110000"</Property>'))
    project, found = rules(path)                     # a ValueError from chr() before
    assert "property.type" in found
    d = next(d for d in project.diagnostics if d.rule == "property.type")
    assert "\\U00110000" in d.message and d.span.line == path.read_text().splitlines().index(
        next(l for l in path.read_text().splitlines() if "U00110000" in l)) + 1


@pytest.mark.parametrize("name", ["Foo\ufffd", "Bar\U00010000", "Baz\u203f"])
def test_names_xpath_cannot_spell_with_a_schema_error_are_located(tmp_path, name):
    path = variant(tmp_path, lambda t: t.replace(
        '<EmptyNode name="RootNode">',
        f'<EmptyNode name="RootNode"><{name} name="x"><Property name="A.B" junk="1">1</Property></{name}>'))
    project, found = rules(path)                     # an lxml XPathEvalError before
    bad = [d for d in project.diagnostics if d.rule == "schema.invalid" and "junk" in d.message]
    assert bad and bad[0].span.column > 1            # at the attribute, not at column 1


def test_a_datacontext_source_expression_with_a_source_item_is_a_mismatch(tmp_path):
    from kzplayer.bindings import resolve
    path = variant(tmp_path, lambda t: t.replace(
        "<Property name=\"BindingItem.SourceExpression\">{@../Source/ParticleEmitter.EventBuffer}</Property>",
        "<Property name=\"BindingItem.SourceExpression\">{DataContext}</Property>", 1))
    graph = resolve(kzplayer.load(path))             # an AttributeError before
    assert "binding.source-mismatch" in [d.rule for d in graph.diagnostics]


def test_integer_literals_too_long_for_a_float_read_as_infinite(tmp_path):
    path = variant(tmp_path, lambda t: t.replace(
        "Color4(1, 1, 0.8, 1)", "Color4(1" + "0" * 400 + ", 1, 0.8, 1)").replace(
        '<Property name="ParticleEmitter.MaximumAmount">40</Property>',
        '<Property name="ParticleEmitter.MaximumAmount">' + "9" * 5000 + "</Property>"))
    project, found = rules(path)                     # an OverflowError / ValueError before
    assert found.count("property.type") == 1          # the 5,000-digit int
    from kzplayer.validate import validate_paths
    assert "property.range" in [d.rule for d in validate_paths([str(path)]).diagnostics]


@pytest.mark.parametrize("value, words", [
    (float("nan"), "finite"), (float("inf"), "finite"), ("nan", "finite"), ("1e400", "finite"),
    (10 ** 400, "finite"), (-5, "at least 0"), (1e9, "at most 10,000,000"),
])
def test_item_set_raises_the_documented_value_error(value, words):
    project = kzplayer.load(RECIPE)
    with pytest.raises(ValueError, match=words):      # OverflowError for 10**400 before
        project.find(SOURCE).set("Emission.Rate", value)
    assert project.find(SOURCE).get("Emission.Rate") == 6


def test_ints_past_32_bits_are_refused_by_item_set():
    project = kzplayer.load(RECIPE)
    with pytest.raises(ValueError, match="32-bit"):
        project.find(SOURCE).set("ParticleEmitter.MaximumAmount", 2 ** 31)
