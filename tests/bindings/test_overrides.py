"""`--set 'ITEM-PATH:Prop=VALUE'`: parsed against the project, applied through the graph."""
import pytest

import kzplayer
from kzplayer.bindings import parse_override, resolve
from kzplayer.diagnostics import KzError
from kzplayer.values import Vector

from .conftest import DATA
from .test_graph import bind, emitter, prop

BODY = '<EmptyNode name="Root Node">' + emitter(
    "Nozzle", prop("Emission.Rate", 500), prop("Emission.Lifetime", 2),
    bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * {./Emission.Lifetime}")) + "</EmptyNode>"
NOZZLE = "Screens/Screen/Root Node/Nozzle"


def test_set_reruns_the_dependents(project_of):
    p = project_of(BODY)
    graph = resolve(p)
    item, name, value = parse_override(f"{NOZZLE}:Emission.Rate=800", p)
    assert (item, name, value) == (p.find(NOZZLE), "Emission.Rate", 800.0)
    graph.set_value(item, name, value)
    assert graph.value(item, "ParticleEmitter.MaximumAmount") == 1600


@pytest.mark.parametrize("text, want", [
    (f"{NOZZLE}:Emission.InitialVelocityDirection=(0, 0, 1)", Vector((0, 0, 1))),
    (f"  {NOZZLE}:Emission.Lifetime = 2.5 ", 2.5),                 # spaces around the value
    (f"Test/{NOZZLE}:Emission.Seed=7", 7),                        # with the project name
    (f"{NOZZLE}:Emission.InitialVelocityOrientToNormal=True", True),
])
def test_literals_by_the_property_type(project_of, text, want):
    _, _, value = parse_override(text, project_of(BODY))
    assert value == want and type(value) is type(want)


def test_data_context(project_of):
    assert parse_override("DataContext.gauges.battery=39", project_of(BODY)) == (None, "DataContext.gauges.battery", 39)


@pytest.mark.parametrize("text, says", [
    ("Nozzle=5", "expected ITEM-PATH:Type.Property=VALUE"),
    (f"{NOZZLE}:Emission.Rat=5", "did you mean 'Emission.Rate'?"),
    ("Screens/Screen/Root Node/Nozle:Emission.Rate=5", "Screens/Screen/Root Node has no child 'Nozle'"),
    ("Screens/Screen/Root Node/Nozle:Emission.Rate=5", "did you mean 'Nozzle'?"),
    ("Screens/Screen/Root Node/Nozzle/Deeper/Still:Emission.Rate=5", "no child 'Deeper'"),
    (f"{NOZZLE}:Emission.Rate=fast", "Emission.Rate"),
    (f"{NOZZLE}:Emission.InitialVelocityDirection=(0, 1)", "Emission.InitialVelocityDirection"),
    (f"{NOZZLE}:ParticleEmitter.EventBuffer=1", "output"),
])
def test_mistakes_say_what_is_wrong(project_of, text, says):
    with pytest.raises(KzError) as err:
        parse_override(text, project_of(BODY))
    assert err.value.exit_code == 2
    [d] = err.value.diagnostics
    assert says in d.message and d.rule == "cli.override"


def test_set_value_refuses_what_the_property_cannot_hold(project_of):
    p = project_of(BODY)
    graph = resolve(p)
    with pytest.raises(KzError) as err:
        graph.set_value(p.find(NOZZLE), "Emission.Rate", Vector((1, 2, 3)))
    assert err.value.diagnostics[0].rule == "binding.type-mismatch"


def test_set_an_emitter_buffer_in_the_recipe():
    # overriding a consumer buffer by hand is refused: a buffer only comes from a binding
    project = kzplayer.load(DATA / "subemitter_recipe.kzm")
    path = "Screens/Screen/RootNode/Viewport 2D/Scene/Exhibit 6/Particle System/On Hit/Subemitter"
    with pytest.raises(KzError):
        parse_override(f"{path}:Emission.SourceEventBuffer=1", project)


def test_a_bare_item_name_is_answered_with_its_full_path(project_of):
    with pytest.raises(KzError) as err:
        parse_override("Nozzle:Emission.Rate=5", project_of(BODY))
    [d] = err.value.diagnostics
    assert "no child 'Nozzle'" in d.message and d.rule == "cli.override"
    assert d.hint == f"the item named 'Nozzle' is {NOZZLE}: write --set '{NOZZLE}:Emission.Rate=5'"


def test_a_name_several_items_have_lists_their_paths(project_of):
    body = BODY + '<EmptyNode name="Other">' + emitter("Nozzle", prop("Emission.Rate", 1)) + "</EmptyNode>"
    with pytest.raises(KzError) as err:
        parse_override("Nozzle:Emission.Rate=5", project_of(body))
    [d] = err.value.diagnostics
    assert d.hint == f"2 items are named 'Nozzle': {NOZZLE}, Screens/Screen/Other/Nozzle"


def test_a_path_that_leads_nowhere_gets_no_name_hint(project_of):
    with pytest.raises(KzError) as err:
        parse_override("Screens/Screen/Root Node/Nozle:Emission.Rate=5", project_of(BODY))
    assert err.value.diagnostics[0].hint is None


@pytest.mark.parametrize("raw, want", [("1,0,0", Vector((1, 0, 0))), (" 0, 0.5 ,1 ", Vector((0, 0.5, 1)))])
def test_a_vector_may_be_written_without_parentheses(project_of, raw, want):
    # one declared vector type reads the comma list one way only
    _, _, value = parse_override(f"{NOZZLE}:Emission.InitialVelocityDirection={raw}", project_of(BODY))
    assert value == want and type(value) is type(want)


def test_a_color_may_be_written_without_parentheses(project_of):
    from kzplayer.values import Color4
    _, _, value = parse_override(f"{NOZZLE}:Particle.Color=1,0.5,0,1", project_of(BODY))
    assert value == Color4(1, 0.5, 0, 1)


def test_a_comma_list_where_no_vector_fits_says_how_to_write_one(project_of):
    with pytest.raises(KzError) as err:
        parse_override(f"{NOZZLE}:Emission.InitialVelocityDirection=1,0", project_of(BODY))
    [d] = err.value.diagnostics
    assert "Emission.InitialVelocityDirection" in d.message
    with pytest.raises(KzError) as err:
        parse_override(f"{NOZZLE}:Emission.Rate=1,5", project_of(BODY))
    [d] = err.value.diagnostics
    assert d.hint == "a decimal number is written with a '.' (1.5); a vector in parentheses: (1, 0, 0)"


@pytest.mark.parametrize("text", ["nan", "inf", "1e400", "-inf"])
def test_overrides_refuse_numbers_no_property_holds(text):
    import kzplayer
    from kzplayer.bindings import parse_override
    from kzplayer.diagnostics import KzError
    from kzplayer.resources import samples_dir
    project = kzplayer.load(samples_dir() / "demo_fountain.kzm")
    nozzle = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"
    for override in (f"{nozzle}:Emission.Rate={text}", f"DataContext.x={text}"):
        with pytest.raises(KzError) as e:
            parse_override(override, project)
        assert e.value.exit_code == 2 and "finite" in str(e.value)
