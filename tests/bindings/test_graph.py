"""Dependency order, cycles reported once with the whole loop, incremental re-evaluation."""

from kzplayer.bindings import resolve

from .conftest import where


def emitter(name: str, *lines: str) -> str:
    return f'<ParticleEmitter name="{name}">\n' + "\n".join(lines) + "\n</ParticleEmitter>"


def prop(name, value):
    return f'<Property name="{name}">{value}</Property>'


def bind(target, expr, **attrs):
    extra = "".join(f' {k}="{v}"' for k, v in attrs.items())
    return f'<Binding target="{target}"{extra}>{expr}</Binding>'


def test_maximum_amount_follows_rate_and_lifetime(project_of):
    p = project_of(emitter("Nozzle", prop("Emission.Rate", 500), prop("Emission.Lifetime", 2),
                           bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * {./Emission.Lifetime}")))
    nozzle = p.find("Screens/Screen/Nozzle")
    graph = resolve(p)
    assert graph.value(nozzle, "ParticleEmitter.MaximumAmount") == 1000
    assert type(graph.value(nozzle, "ParticleEmitter.MaximumAmount")) is int      # the catalog's type
    assert graph.evaluations == 1
    changed = graph.set_value(nozzle, "Emission.Rate", 800)
    assert changed == {(nozzle, "Emission.Rate"), (nozzle, "ParticleEmitter.MaximumAmount")}
    assert graph.value(nozzle, "ParticleEmitter.MaximumAmount") == 1600
    assert graph.set_value(nozzle, "Emission.Lifetime", 0.5) == {(nozzle, "Emission.Lifetime"),
                                                                 (nozzle, "ParticleEmitter.MaximumAmount")}
    assert graph.value(nozzle, "ParticleEmitter.MaximumAmount") == 400
    assert graph.evaluations == 3
    assert nozzle.get("ParticleEmitter.MaximumAmount") == 1000      # the file's model is untouched


def test_float_into_int_truncates_toward_zero(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 333), prop("Emission.Lifetime", 1.5),
                           bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * {./Emission.Lifetime}")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    assert graph.value(e, "ParticleEmitter.MaximumAmount") == 499      # 499.5
    graph.set_value(e, "Emission.Lifetime", 2.999)
    assert graph.value(e, "ParticleEmitter.MaximumAmount") == 998      # 998.667


CHAIN = emitter(
    "A", prop("Emission.Rate", 1),
    bind("Emission.Lifetime", "{./Emission.Rate} + 1"),                       # 2
    bind("Emission.Scale", "Vector3({../B/Emission.Lifetime}, 0, 0)"),         # reads B below
) + emitter(
    "B",
    bind("Emission.Rate", "{../A/Emission.Lifetime} * 10"),                    # 20
    bind("Emission.Lifetime", "{./Emission.Rate} / 4"),                        # 5
) + emitter(
    "C", prop("Emission.Rate", 7),
    bind("Emission.Lifetime", "{./Emission.Rate} * 2"),                        # unrelated
    bind("ParticleEmitter.MaximumAmount", "{./Emission.Lifetime} * 100"),      # unrelated
)


def test_order_follows_dependencies_not_the_file(project_of):
    p = project_of(CHAIN)
    graph = resolve(p)
    a, b = p.find("Screens/Screen/A"), p.find("Screens/Screen/B")
    labels = [(x.item.name, x.name) for x in graph.order]
    assert labels.index(("B", "Emission.Lifetime")) < labels.index(("A", "Emission.Scale"))
    assert labels.index(("A", "Emission.Lifetime")) < labels.index(("B", "Emission.Rate"))
    assert tuple(graph.value(a, "Emission.Scale")) == (5.0, 0.0, 0.0)
    assert graph.evaluations == 6
    assert graph.dependents(a, "Emission.Rate") == [(a, "Emission.Lifetime"), (b, "Emission.Rate"),
                                                    (b, "Emission.Lifetime"), (a, "Emission.Scale")]


def test_a_change_reruns_exactly_its_dependents(project_of):
    p = project_of(CHAIN)
    graph = resolve(p)
    a = p.find("Screens/Screen/A")
    before = graph.evaluations
    changed = graph.set_value(a, "Emission.Rate", 3)
    assert graph.evaluations - before == 4            # A.Lifetime, B.Rate, B.Lifetime, A.Scale; not C
    assert len(changed) == 5
    assert tuple(graph.value(a, "Emission.Scale")) == (10.0, 0.0, 0.0)   # (3+1)*10/4


def test_setting_the_same_value_runs_nothing(project_of):
    p = project_of(CHAIN)
    graph = resolve(p)
    before = graph.evaluations
    assert graph.set_value(p.find("Screens/Screen/A"), "Emission.Rate", 1) == set()
    assert graph.evaluations == before


def test_propagation_stops_where_a_value_does_not_change(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 100),
                           bind("Emission.Lifetime", "clamp(1, 2, {./Emission.Rate})"),
                           bind("ParticleEmitter.MaximumAmount", "{./Emission.Lifetime} * 10")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    before = graph.evaluations
    assert graph.set_value(e, "Emission.Rate", 50) == {(e, "Emission.Rate")}   # clamp still gives 2
    assert graph.evaluations - before == 1
    assert graph.value(e, "ParticleEmitter.MaximumAmount") == 20


LOOP = emitter("A", bind("Emission.Rate", "{../C/Emission.Rate} + 1")) \
    + emitter("B", bind("Emission.Rate", "{../A/Emission.Rate} + 1")) \
    + emitter("C", bind("Emission.Rate", "{../B/Emission.Rate} + 1"),
              bind("Emission.Lifetime", "{./Emission.Rate} * 2")) \
    + emitter("D", prop("Emission.Rate", 4), bind("Emission.Lifetime", "{./Emission.Rate} / 2"))


def test_cycle_reported_once_with_the_whole_loop(project_of):
    p = project_of(LOOP)
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "binding.cycle" and d.code
    assert d.message == ("binding cycle: Screens/Screen/A:Emission.Rate -> Screens/Screen/B:Emission.Rate"
                         " -> Screens/Screen/C:Emission.Rate -> Screens/Screen/A:Emission.Rate")
    assert (d.span.line, d.span.column) == where(p.path, 'Emission.Rate">{../C')   # A's target attribute
    assert len(d.related) == 2
    # the loop does not run; what reads it runs once with the loop's own values; D is untouched
    c, dd = p.find("Screens/Screen/C"), p.find("Screens/Screen/D")
    assert graph.value(c, "Emission.Lifetime") == 2 * c.get("Emission.Rate")
    assert graph.value(dd, "Emission.Lifetime") == 2
    assert graph.evaluations == 2


def test_two_loops_two_reports(project_of):
    p = project_of(LOOP + emitter("X", bind("Emission.Rate", "{../Y/Emission.Rate}"))
                   + emitter("Y", bind("Emission.Rate", "{../X/Emission.Rate}")))
    cycles = [d for d in resolve(p).diagnostics if d.rule == "binding.cycle"]
    assert len(cycles) == 2
    assert "Screens/Screen/X:Emission.Rate -> Screens/Screen/Y:Emission.Rate -> Screens/Screen/X" in cycles[1].message


def test_binding_reading_its_own_target(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 5), bind("Emission.Rate", "{./Emission.Rate} * 2")))
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "expr.self-reference" and "getCurrentValue()" in d.hint
    assert (d.span.line, d.span.column) == where(p.path, "{./Emission.Rate} * 2")
    assert graph.value(p.find("Screens/Screen/E"), "Emission.Rate") == 5


def test_get_current_value_modifies_instead(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 5), prop("Emission.Lifetime", 3),
                           bind("Emission.Rate", "getCurrentValue() * {./Emission.Lifetime}")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(e, "Emission.Rate") == 15
    graph.set_value(e, "Emission.Lifetime", 2)
    assert graph.value(e, "Emission.Rate") == 30          # modifies the current value again


def test_continue_if_false_leaves_the_target(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 0), prop("Emission.Lifetime", 3),
                           bind("Emission.Lifetime", "A = {./Emission.Rate}\ncontinueIf(A &gt; 0)\nA * 2")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    assert graph.value(e, "Emission.Lifetime") == 3
    assert graph.set_value(e, "Emission.Rate", 4) == {(e, "Emission.Rate"), (e, "Emission.Lifetime")}
    assert graph.value(e, "Emission.Lifetime") == 8
    assert graph.set_value(e, "Emission.Rate", -1) == {(e, "Emission.Rate")}
    assert graph.value(e, "Emission.Lifetime") == 8


def test_cycle_on_one_item_names_the_item_once(project_of):
    p = project_of(emitter("N", bind("Emission.Rate", "{./Emission.Lifetime} * 2"),
                           bind("Emission.Lifetime", "{./ParticleEmitter.MaximumAmount} / 100"),
                           bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} + 1")))
    [d] = resolve(p).diagnostics
    assert d.message == ("binding cycle on Screens/Screen/N: Emission.Rate -> ParticleEmitter.MaximumAmount"
                         " -> Emission.Lifetime -> Emission.Rate")
