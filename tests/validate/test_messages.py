"""The words users read: the messages and hints of the rules whose point is the explanation."""
from __future__ import annotations

from pathlib import Path

from kzplayer.validate import validate_paths

CASES = Path(__file__).parent / "cases"

PROJECT = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Case" format="1"><Screens><Screen name="Screen"><Scene name="Scene">
<ParticleSystem name="Particle System">
{body}
</ParticleSystem></Scene></Screen></Screens></Project>
"""


def diagnostics(tmp_path, body: str):
    path = tmp_path / "case.kzm"
    path.write_text(PROJECT.format(body=body), encoding="utf-8")
    return validate_paths([str(path)]).diagnostics


def only(found, rule):
    hits = [d for d in found if d.rule == rule]
    assert len(hits) == 1, [str(d) for d in found]
    return hits[0]


def test_deprecated_events_material_names_replacement_and_preset(tmp_path):
    d = only(diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="ParticleEmitter.GenerateEventsMaterial">GenerateEvent_OnDeath_Probabilistic</Property>
      <Property name="Events.Probability">0.25</Property>
    </ParticleEmitter>"""), "material.deprecated")
    assert d.message == ("GenerateEvent_OnDeath_Probabilistic is deprecated: use Event_Lifetime with "
                         "LifetimeMin = 1, LifetimeMax = 1")     # Probability carries over as it is
    assert d.hint == ("set ParticleEmitter.GenerateEventsMaterial to Event_Lifetime and add "
                      "Events.LifetimeMin = 1, Events.LifetimeMax = 1 (kzplayer applies this preset meanwhile)")
    assert d.severity.value == "warning"


def test_kanzis_current_count_material_name_is_no_deprecated_one(tmp_path):
    """EmissionCount_PerSecond is a stock name of Kanzi Particles 3.0 (release notes): it
    plays as EmissionCount_Schedule's steady stream, without a warning."""
    found = diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_PerSecond</Property>
    </ParticleEmitter>""")
    assert [d for d in found if d.rule == "material.deprecated"] == []


def test_angle_out_of_range_says_the_player_clamps_it(tmp_path):
    d = only(diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="Emission.InitialVelocityInnerAngle">-0.5</Property>
    </ParticleEmitter>"""), "property.range")
    assert d.severity.value == "warning"
    assert d.message == ("Emission.InitialVelocityInnerAngle = -0.5 is outside [0, π]; "
                         "the player clamps it to 0")


def test_did_you_mean(tmp_path):
    found = diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="Emission.Lifetim">2</Property>
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Discc</Property>
      <Binding target="Emission.Rate">mx(1, 2)</Binding>
    </ParticleEmitter>""")
    assert only(found, "property.unknown").hint == "did you mean 'Emission.Lifetime'?"
    assert only(found, "material.unknown").hint == "did you mean 'Emitter_Disc'?"
    assert "max" in only(found, "expr.unknown-function").hint


def test_unresolved_path_names_what_exists(tmp_path):
    d = only(diagnostics(tmp_path, """<ParticleEmitter name="Nozzle"/>
    <ParticleEmitter name="Follower">
      <Binding target="Emission.Rate">{../Nozle/Emission.Rate}</Binding>
    </ParticleEmitter>"""), "path.unresolved")
    assert "Nozzle" in d.message


def test_material_in_the_wrong_slot_lists_the_right_ones(tmp_path):
    d = only(diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="ParticleEmitter.EmissionMaterial">Gravity</Property>
    </ParticleEmitter>"""), "material.slot")
    assert d.message == "'Gravity' is an Affector material; ParticleEmitter.EmissionMaterial takes an Emission material"
    assert "Emitter_Point" in d.hint and "Gravity" not in d.hint


def test_event_wiring_loop_names_every_member_once(tmp_path):
    found = validate_paths([str(CASES / "events.cycle" / "two_subemitters.kzm")]).diagnostics
    d = only(found, "events.cycle")
    assert "'A' -> 'B' -> 'A'" in d.message
    assert len(d.related) == 1
    assert (d.related[0].line, d.related[0].column) == (d.span.line + 10, d.span.column)   # B's binding


def test_a_value_the_loader_cannot_read_gets_an_example_of_its_type(tmp_path):
    found = [d for d in diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="Emission.Lifetime">(1, 2)</Property>
      <Property name="Emission.InitialVelocityDirection">up</Property>
    </ParticleEmitter>""") if d.rule == "property.type"]
    # under the values, as the loader put them
    assert [(d.span.line, d.span.column, d.hint) for d in found] == [
        (5, 42, "write it like 2.5"), (6, 58, "write it like (0, 1, 0)")]


def test_a_float_bound_into_a_consumer_buffer_says_which_buffer_to_read():
    found = validate_paths([str(CASES / "binding.type-mismatch" / "float_into_buffer.kzm")]).diagnostics
    d = only(found, "binding.type-mismatch")
    assert d.hint == "make it read the source emitter's ParticleEmitter.EventBuffer"


def test_a_buffer_binding_without_push_target_is_an_error():
    # the events page: the PushTarget is load-bearing; without it Kanzi's subemitter never fires
    found = validate_paths([str(CASES / "binding.push-target" / "no_push_target.kzm")]).diagnostics
    d = only(found, "binding.push-target")
    assert d.severity.value == "error"
    assert d.hint.startswith("set BindingItem.PushTarget to ") and d.hint.endswith("/On Death/Subemitter")


def test_a_misspelt_binding_source_property_is_pointed_at_where_it_is_written(tmp_path):
    text = (CASES / "recipe_ok.kzm").read_text(encoding="utf-8")
    typo = '<Property name="BindingSourceItem.Source">ParticleEmitter.ParticleDataBufer</Property>'
    text = text.replace('<Property name="BindingSourceItem.Source">ParticleEmitter.ParticleDataBuffer</Property>', typo)
    path = tmp_path / "recipe.kzm"
    path.write_text(text, encoding="utf-8")
    line = next(n for n, s in enumerate(text.splitlines(), 1) if typo in s)
    column = text.splitlines()[line - 1].index("ParticleEmitter.ParticleDataBufer") + 1
    found = validate_paths([str(path)]).diagnostics
    d = only(found, "property.unknown")
    assert (d.span.line, d.span.column, d.span.end_column) == (line, column, column + 33)
    assert d.hint == "did you mean 'ParticleEmitter.ParticleDataBuffer'?"
    # the source item still names the emitter meant: no stale path, no second report of it
    assert [str(d) for d in found if d.rule.startswith("path.")] == []


def test_an_angle_written_in_degrees_gets_its_value_in_radians(tmp_path):
    d = only(diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="Emission.InitialVelocityOuterAngle">45</Property>
    </ParticleEmitter>"""), "property.range")
    assert d.message.endswith("the player clamps it to π")
    assert d.hint == "angles are in radians: 45° is 0.7854"      # 45 * pi / 180


def test_a_negative_rate_says_the_bound(tmp_path):
    d = only(diagnostics(tmp_path, """<ParticleEmitter name="E">
      <Property name="Emission.Rate">-5</Property>
    </ParticleEmitter>"""), "property.range")
    assert (d.severity.value, d.message, d.hint) == (
        "error", "Emission.Rate = -5 is outside [0, ∞)", "use a value ≥ 0")


def test_xml_slips_get_a_hint_in_words(tmp_path):
    recipe = (CASES / "recipe_ok.kzm").read_text(encoding="utf-8")
    opened = next(n for n, s in enumerate(recipe.splitlines(), 1) if '<ParticleEmitter name="Source">' in s)
    slips = {
        "</ParticleEmiter>": (recipe.replace("</ParticleEmitter>", "</ParticleEmiter>", 1),
                              f"<ParticleEmitter> opened on line {opened} is closed here by </ParticleEmiter>: "
                              "correct the end tag, or close <ParticleEmitter> first"),
        "bare <": (recipe.replace("{./Emission.Rate} * {./Emission.Lifetime}", "{./Emission.Rate} < 2"),
                   "write '<' in text as &lt; (a binding's {a} < {b} is {a} &lt; {b}), or use <![CDATA[ ... ]]>"),
        "bare &": (recipe.replace(">Emitter_Disc<", ">A & B<"),
                   "write '&' in text as &amp; (a binding's && is &amp;&amp;)"),
    }
    for name, (text, hint) in slips.items():
        path = tmp_path / "slip.kzm"
        path.write_text(text, encoding="utf-8")
        d = only(validate_paths([str(path)]).diagnostics, "xml.malformed")
        assert d.hint == hint, name


def test_a_source_expression_error_after_an_entity_is_pointed_at_exactly(tmp_path):
    # `&lt;` is one character of the expression and four of the file: the column after it is
    # the file's column (the full BindingItem's SourceExpression, as the short form's)
    text = (CASES / "recipe_ok.kzm").read_text(encoding="utf-8")
    binding = """<BindingItem name="Count">
                    <Property name="BindingItem.Target">Emission.ParticlesPerEvent</Property>
                    <Property name="BindingItem.SourceExpression">{@../Source/Emission.Rate} &lt; 2 ? 1 : mx(2)</Property>
                    <Property name="BindingItem.RawCode">{0} &lt; 2 ? 1 : mx(2)</Property>
                    <BindingSourceItem name="0">
                      <Property name="BindingSourceItem.Item">Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/On Death/Source</Property>
                      <Property name="BindingSourceItem.Source">Emission.Rate</Property>
                    </BindingSourceItem>
                  </BindingItem>
                  <BindingItem name="Events">"""
    text = text.replace('<BindingItem name="Events">', binding, 1)
    path = tmp_path / "recipe.kzm"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    line = next(n for n, s in enumerate(lines, 1) if "SourceExpression\">{@../Source/Emission.Rate}" in s)
    column = lines[line - 1].index("mx(2)") + 1
    found = [d for d in validate_paths([str(path)]).diagnostics if d.span and d.span.line == line]
    assert [(d.rule, d.span.column, d.span.end_column) for d in found] == [
        ("expr.unknown-function", column, column + 2)]


def test_projects_converted_from_kanzi_studio_have_no_unknown_property_errors(kanzi39, tmp_path):
    # Kanzi's own properties (Window.Width, Node.Locale on the Screen; TextConcept.Text bound
    # on a TextLayer; material uniforms' bindings) are known, not played: no property.unknown
    from kzplayer.project.convert import convert
    for name in ("Gauges", "Indicator"):
        dst = tmp_path / f"{name}.kzm"
        convert(kanzi39 / f"{name}.kzproj", dst)
        found = validate_paths([str(dst)]).diagnostics
        assert [str(d) for d in found if d.rule == "property.unknown"] == []
        assert not [d for d in found if d.severity.value == "error"], [str(d) for d in found]


def test_kanzi_item_types_are_treated_alike_in_a_kzproj_and_its_conversion(kanzi39, tmp_path):
    # ScreenLibrary, TextLayer, MeshNode...: Kanzi's own types, known and not played, in
    # both forms of the same project (no item.unknown-type warning for any of them)
    from kzplayer.project.convert import convert
    for name in ("Gauges", "Indicator"):
        dst = tmp_path / f"{name}.kzm"
        convert(kanzi39 / f"{name}.kzproj", dst)
        for path in (kanzi39 / f"{name}.kzproj", dst):
            found = validate_paths([str(path)]).diagnostics
            assert [str(d) for d in found if d.rule == "item.unknown-type"] == [], path
