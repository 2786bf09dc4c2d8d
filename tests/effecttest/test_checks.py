"""Each kind of check passing and failing on the demo fountain, whose figures follow from
its file: Emission.Rate 400/s (a steady stream: 400 in the first second), Lifetime 1.6 +-
0.2 s (none dies before 1.4 s), a nozzle at the origin throwing 7 +- 0.6 m/s upwards within
0.3 rad under 9.81 m/s^2 gravity (no drop rises above 7.6^2 / 19.62 = 2.95 m, none lies
further out sideways than 7.6 sin(0.3) x 1.8 s = 4.04 m). A failure names the spec's line
of the failing key and the emitter."""
from __future__ import annotations

import numpy as np
import trimesh
import pytest

from kzplayer.effecttest import Options, run_path
from kzplayer.effecttest.checks import Outcome, check_determinism

from tests.effecttest.helpers import NOZZLE, line_of, write_spec

SPEC = f'''
[variants.dense]
set = ["{NOZZLE}:Emission.Rate=800"]

[[count]]                       # passes
emitter = "Nozzle"
window = [0, 1]
emitted = [399, 401]
died = 0
stalled = 0

[[count]]                       # fails: nothing dies in the first second
emitter = "Nozzle"
window = [0, 1]
died = [1, 1000]

[[count]]                       # the dense variant emits twice as many
emitter = "Nozzle"
at = 1
alive = [799, 801]
variant = "dense"

[[bounds]]                      # passes
emitter = "Nozzle"
window = [1.4, 1.5]
box = {{ min = [-4.1, -8, -4.1], max = [4.1, 2.96, 4.1] }}
sphere = {{ center = [0, 0, 0], radius = 13.7 }}

[[bounds]]                      # fails: most drops are below 1 m
emitter = "Nozzle"
at = 1.5
above = {{ point = [0, 1, 0], normal = [0, 1, 0] }}

[[events]]                      # passes: births are the emitted count
emitter = "Nozzle"
kind = "birth"
window = [0, 1]
count = [399, 401]

[[events]]                      # fails
emitter = "Nozzle"
kind = "death"
window = [0, 1]
count = [1, 10]

[[validate]]                    # passes
errors = 0
strict = true

[[determinism]]
at = 0.5

[[value]]                       # passes: MaximumAmount = Rate x (Lifetime + LifetimeVariance)
item = "Nozzle"
property = "ParticleEmitter.MaximumAmount"
equals = 720

[[value]]                       # passes: the binding follows the --set variant
item = "Nozzle"
property = "ParticleEmitter.MaximumAmount"
equals = 1440
variant = "dense"

[[value]]                       # fails
item = "Nozzle"
property = "Emission.Lifetime"
equals = 2.5
'''


@pytest.fixture(scope="module")
def fountain(tmp_path_factory):
    path = write_spec(tmp_path_factory.mktemp("fx"), SPEC)
    return path, run_path(path, Options(artifacts=path.parent / "art"))


def outcome(result, name, nth=0) -> Outcome:
    return [o for o in result.outcomes if o.check.kind == name][nth]


def test_each_kind_passes_where_the_file_says_so(fountain):
    path, result = fountain
    for kind, nth in [("count", 0), ("count", 2), ("bounds", 0), ("events", 0), ("validate", 0),
                      ("determinism", 0), ("value", 0), ("value", 1)]:
        o = outcome(result, kind, nth)
        assert o.passed, (kind, nth, o.message)
    assert not result.bad


def test_each_failure_names_the_line_and_the_emitter(fountain):
    path, result = fountain
    assert result.failed
    failures = {d.message.split(":")[0]: d for d in result.diagnostics()}
    assert set(failures) == {"count[1]", "bounds[1]", "events[1]", "value[2]"}
    assert failures["count[1]"].span.line == line_of(path, "died = [1, 1000]")
    assert failures["count[1]"].span.file == str(path)
    assert "died over 0..1 s is 0" in failures["count[1]"].message
    assert failures["bounds[1]"].span.line == line_of(path, "above =")
    assert "below the plane" in failures["bounds[1]"].message
    assert failures["events[1]"].span.line == line_of(path, "count = [1, 10]")
    assert "0 deaths" in failures["events[1]"].message
    assert failures["value[2]"].span.line == line_of(path, "equals = 2.5")
    assert "is 1.6, expected 2.5" in failures["value[2]"].message
    for name in ("count[1]", "bounds[1]", "events[1]"):
        assert failures[name].hint == f"emitter {NOZZLE}"
        assert "Nozzle" in failures[name].message


def test_an_unknown_emitter_is_bad_input_with_the_emitters_listed(tmp_path):
    path = write_spec(tmp_path, '[[count]]\nemitter = "Hose"\nat = 0.1\nalive = 1\n')
    result = run_path(path)
    assert result.bad
    (d,) = result.diagnostics()
    assert d.span.line == line_of(path, "emitter =") and "emitters: Nozzle" in d.message


def test_determinism_reports_the_field_and_emitter_that_differ():
    a = {f"{NOZZLE}/position": np.zeros((3, 3), np.float32), f"{NOZZLE}/age": np.zeros(3, np.float32)}
    b = {k: v.copy() for k, v in a.items()}
    check = type("C", (), {"data": {"at": 1}})()
    assert check_determinism(check, a, b).passed
    b[f"{NOZZLE}/position"][1, 2] = 1e-7
    o = check_determinism(check, a, b)
    assert not o.passed and o.emitter == NOZZLE and "position (1 particles differ)" in o.message


def test_validate_expects_exactly_these_rules_at_these_positions(tmp_path):
    project = tmp_path / "typo.kzm"
    from tests.effecttest.helpers import FOUNTAIN
    source = FOUNTAIN.read_text().replace('name="Emission.Lifetime"', 'name="Emission.Lifetme"')
    project.write_text(source)
    line = next(i for i, l in enumerate(source.splitlines(), 1) if "Emission.Lifetme" in l)
    column = source.splitlines()[line - 1].index("Emission.Lifetme") + 1
    good = write_spec(tmp_path, f'[[validate]]\nexpect = [{{ rule = "property.unknown", line = {line}, column = {column} }}]\n',
                      name="good", project=project)
    wrong = write_spec(tmp_path, f'[[validate]]\nexpect = [{{ rule = "property.unknown", line = {line + 1} }}]\n'
                       '[[validate]]\nerrors = 0\n', name="wrong", project=project)
    assert run_path(good).outcomes[0].passed, run_path(good).outcomes[0].message
    result = run_path(wrong)
    assert [o.passed for o in result.outcomes] == [False, False]
    assert f"found: property.unknown at {line}:{column}" in result.outcomes[0].message
    assert result.diagnostics()[0].span.line == line_of(wrong, "expect =")
    assert result.diagnostics()[1].span.line == line_of(wrong, "errors = 0")


def test_a_count_relative_to_another_emitters_figure(tmp_path):
    path = write_spec(tmp_path, '[[count]]\nemitter = "Nozzle"\nwindow = [0, 1]\nemitted = { of = "Nozzle", figure = "emitted" }\n'
                                '[[count]]\nemitter = "Nozzle"\nwindow = [0, 1]\nemitted = { of = "Nozzle", figure = "emitted", times = 2 }\n')
    result = run_path(path)
    assert [o.passed for o in result.outcomes] == [True, False]
    assert "expected 2 x Nozzle's emitted (400) = 800" in result.outcomes[1].message
    assert result.diagnostics()[0].span.line == line_of(path, "times = 2")


@pytest.mark.parametrize("shape, size, inside", [
    ("Collider_Sphere", '<Property name="Collider.Radius">0.5</Property>', True),
    ("Collider_Box", '<Property name="Collider.BoxExtents">(0.5, 0.5, 0.5)</Property>', True),
    ("Collider_Cylinder", '<Property name="Collider.Radius">0.5</Property>', True),
    ("Collider_Capsule", '<Property name="Collider.Radius">0.4</Property><Property name="Collider.Height">0.4</Property>', True),
    ("Collider_Cone", '<Property name="Collider.Radius">1.0</Property><Property name="Collider.Height">1.0</Property>', True),
    ("Collider_Mesh", '<Property name="Collider.Mesh">Meshes/Ball</Property>', True),
    ("Collider_Plane", "", False),
])
def test_outside_a_collider_knows_its_solid(tmp_path, shape, size, inside):
    """A collider 2 m above the nozzle, which the drops ignore (IgnoreColliders): at 0.4 s
    drops are in the solids (a 0.5 m sphere, box, cylinder around the height the fastest
    drops reach: 7 x 0.4 - 4.9 x 0.16 = 2.0 m), and at 0.1 s every drop (below 0.7 m) is on
    the plane's solid side, below it; outside = fails for each. The collider 30 m away (the
    plane 30 m down) holds no drop: outside = passes."""
    from tests.effecttest.helpers import FOUNTAIN
    def project(y):
        collider = (f'<ParticleCollider name="Wall"><Property name="ParticleCollider.ColliderMaterial">{shape}</Property>'
                    f'{size}<Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,0,0, 0,{y},0)</Property>'
                    '</ParticleCollider>')
        text = FOUNTAIN.read_text().replace("<ParticleEmitter name=\"Nozzle\">",
                                            "<ParticleEmitter name=\"Nozzle\">\n<Property name=\"ParticleEmitter.IgnoreColliders\">true</Property>")
        if shape == "Collider_Mesh":      # a ball of 0.5 m as a closed triangle mesh
            trimesh.creation.icosphere(subdivisions=2, radius=0.5).export(tmp_path / "ball.glb")
            text = text.replace("</Project>", '<Meshes><Mesh name="Ball"><Property name="Mesh.File">ball.glb'
                                              "</Property></Mesh></Meshes></Project>")
        path = tmp_path / f"wall_{y}.kzm"
        path.write_text(text.replace("</ParticleSystem>", collider + "</ParticleSystem>"))
        return path
    at = "0.1" if not inside else "0.4"
    near = run_path(write_spec(tmp_path, f'[[bounds]]\nemitter = "Nozzle"\nat = {at}\noutside = "Wall"\n', name="near",
                               project=project(2.0)))
    assert not near.outcomes[0].passed and "inside the collider" in near.outcomes[0].message
    far = run_path(write_spec(tmp_path, f'[[bounds]]\nemitter = "Nozzle"\nat = {at}\noutside = "Wall"\n', name="far",
                              project=project(-30.0 if not inside else 30.0)))
    assert far.outcomes[0].passed, far.outcomes[0].message


@pytest.mark.parametrize("ignored", [False, True])
def test_outside_a_keep_inside_collider_is_its_outside(tmp_path, ignored):
    """A KeepInside sphere of 1.5 m around the nozzle is a jar: its solid side is all that is
    outside it. It holds the drops (thrown up to 2.5 m) in, so `outside` passes; drops that
    ignore it fly out of it by 0.5 s, and the check fails, naming the KeepInside side."""
    from tests.effecttest.helpers import FOUNTAIN
    ignore = '\n<Property name="ParticleEmitter.IgnoreColliders">true</Property>' if ignored else ""
    collider = ('<ParticleCollider name="Jar"><Property name="ParticleCollider.ColliderMaterial">Collider_Sphere</Property>'
                '<Property name="Collider.Radius">1.5</Property><Property name="Collider.KeepInside">true</Property>'
                '</ParticleCollider>')
    text = FOUNTAIN.read_text().replace('<ParticleEmitter name="Nozzle">', '<ParticleEmitter name="Nozzle">' + ignore)
    project = tmp_path / "jar.kzm"
    project.write_text(text.replace("</ParticleSystem>", collider + "</ParticleSystem>"))
    result = run_path(write_spec(tmp_path, '[[bounds]]\nemitter = "Nozzle"\nat = 0.5\noutside = "Jar"\n', project=project))
    outcome = result.outcomes[0]
    assert outcome.passed != ignored, outcome.message
    if ignored:
        assert "outside the KeepInside collider" in outcome.message


def test_outside_a_two_sided_surface_is_refused_with_its_position(tmp_path):
    """A Collider_Disc has no inside: the check cannot be judged (bad input, at `outside`)."""
    from tests.effecttest.helpers import FOUNTAIN
    collider = ('<ParticleCollider name="Lid"><Property name="ParticleCollider.ColliderMaterial">Collider_Disc'
                '</Property></ParticleCollider>')
    project = tmp_path / "lid.kzm"
    project.write_text(FOUNTAIN.read_text().replace("</ParticleSystem>", collider + "</ParticleSystem>"))
    spec = write_spec(tmp_path, '[[bounds]]\nat = 0.2\noutside = "Lid"\n', project=project)
    result = run_path(spec)
    outcome = result.outcomes[0]
    assert outcome.bad and "two-sided surface" in outcome.message
    assert result.diagnostics()[0].span.line == line_of(spec, 'outside = "Lid"')
