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
