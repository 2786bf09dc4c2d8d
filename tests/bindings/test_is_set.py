"""graph.is_set: a value of the property's own (file, binding, set_value) versus the catalog
default that value() falls back to. The player asks it so that `--set` of a value equal to
the catalog default still beats a legacy material's preset."""
from kzplayer.bindings import resolve
from kzplayer.project.catalog import catalog

from .test_graph import bind, emitter, prop

DEFAULT_RATE = catalog().property("Emission.Rate").default


def test_an_unwritten_property_falls_back_to_the_default(project_of):
    p = project_of(emitter("E", prop("Emission.Lifetime", 2)))
    e, graph = p.find("Screens/Screen/E"), resolve(p)
    assert graph.value(e, "Emission.Rate") == DEFAULT_RATE
    assert not graph.is_set(e, "Emission.Rate")
    assert graph.is_set(e, "Emission.Lifetime")


def test_a_value_written_equal_to_the_default_is_set(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", DEFAULT_RATE)))
    assert resolve(p).is_set(p.find("Screens/Screen/E"), "Emission.Rate")


def test_an_empty_property_element_is_not_a_value(project_of):
    p = project_of(emitter("E", '<Property name="Emission.SourceEventBuffer"/>'))
    assert not resolve(p).is_set(p.find("Screens/Screen/E"), "Emission.SourceEventBuffer")


def test_set_value_equal_to_the_default_changes_nothing_but_is_set(project_of):
    p = project_of(emitter("E"))
    e, graph = p.find("Screens/Screen/E"), resolve(p)
    assert graph.set_value(e, "Emission.Rate", DEFAULT_RATE) == set()      # no value changed
    assert graph.is_set(e, "Emission.Rate")
    assert not graph.is_set(e, "Emission.RateVariance")


def test_a_binding_that_ran_sets_its_target_even_to_the_default(project_of):
    p = project_of(emitter("E", prop("Emission.Lifetime", DEFAULT_RATE),
                           bind("Emission.Rate", "{./Emission.Lifetime}")))
    e, graph = p.find("Screens/Screen/E"), resolve(p)
    assert graph.value(e, "Emission.Rate") == DEFAULT_RATE
    assert graph.is_set(e, "Emission.Rate")


def test_a_binding_waiting_for_its_data_context_does_not_set_until_it_runs(project_of):
    p = project_of(emitter("E", bind("Emission.Rate", "{DataContext.gauges.battery} * 2")))
    e, graph = p.find("Screens/Screen/E"), resolve(p)
    assert graph.is_bound(e, "Emission.Rate") and not graph.is_set(e, "Emission.Rate")
    assert not graph.is_set(None, "DataContext.gauges.battery")
    graph.set_data_context("gauges.battery", 5)
    assert graph.is_set(None, "DataContext.gauges.battery")
    assert graph.is_set(e, "Emission.Rate") and graph.value(e, "Emission.Rate") == 10


def test_an_emitter_output_is_its_own_buffer(project_of):
    p = project_of(emitter("E"))
    assert resolve(p).is_set(p.find("Screens/Screen/E"), "ParticleEmitter.EventBuffer")
