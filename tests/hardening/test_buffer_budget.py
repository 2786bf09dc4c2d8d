"""The project-wide GPU buffer budget (issue 21): the pools, position histories, event
channels and sort buffers of every system together are checked against the budget
(kzplayer.gpu.limits.BUFFER_BUDGET, 2 GiB; play --buffer-budget) BEFORE any is made, and a
project past it is play.buffer-budget with the breakdown per system and kind (exit 1),
never gigabytes allocated. The estimate is checked against the buffers really made."""
from __future__ import annotations

import pytest

from kzplayer.diagnostics import KzError
from kzplayer.gpu import limits
from kzplayer.gpu.storage import Layout
from tests.gpu.conftest import make_project, simulate  # noqa: F401 - the fixture
from tests.hostile import kzplayer


def test_the_estimate_is_what_the_storage_makes(ctx, simulate):
    project = make_project(emitters={
        "A": {"ParticleEmitter.MaximumAmount": 1000},
        "B": {"ParticleEmitter.MaximumAmount": 300, "ParticleEmitter.ParticleMaterial": "Particles_Ribbon",
              "Trail.Length": 7}})
    sim = simulate(project)
    runner = sim.runners[0]
    st = runner.storage
    made = {"particles": st.hot.size + st.cold.size, "tracks": st.tracks.size, "events": st.events.size,
            "slots": st.slots.size + st.control.size, "history": st.history.size}
    layout = st.layout
    estimate = limits.system_bytes(Layout(layout.capacities, 0, layout.host_events, layout.histories), [0, 0])
    assert estimate.pop("sort") == 0
    assert estimate["history"] == 7 * 320 * 16 and made["history"] == estimate["history"]
    for kind in made:        # control words hold the derived words too: at most a few hundred bytes
        assert abs(made[kind] - estimate[kind]) <= 1024, (kind, made, estimate)
    sorted_ = limits.system_bytes(layout, [1, 2])
    assert sorted_["sort"] == limits.sort_bytes(1000) + 2 * limits.sort_bytes(300)
    assert limits.sort_bytes(1000) == 16 * 1024 + 5 * 1000 + 64


def test_past_the_budget_is_an_error_before_anything_is_made(ctx, simulate):
    project = make_project(emitters={"Big": {"ParticleEmitter.MaximumAmount": 100_000}})
    with limits.buffer_budget_of(1 << 20):
        with pytest.raises(KzError) as caught:
            simulate(project)
    d = caught.value.diagnostics[0]
    assert d.rule == "play.buffer-budget" and caught.value.exit_code == 1
    assert "Particle System" in d.message and "particles" in d.message and "1.0 MiB" in d.message
    assert limits.buffer_budget() == limits.BUFFER_BUDGET            # the scope is over
    simulate(project)                                                   # within the default budget


def eight_systems(n=10_000_000, trail=64):
    systems = "".join(
        f'<ParticleSystem name="S{i}"><ParticleEmitter name="E">'
        f'<Property name="ParticleEmitter.MaximumAmount">{n}</Property>'
        '<Property name="ParticleEmitter.ParticleMaterial">Particles_Ribbon</Property>'
        f'<Property name="Trail.Length">{trail}</Property>'
        '<Property name="ParticleEmitter.SortingType">Depth</Property></ParticleEmitter></ParticleSystem>\n'
        for i in range(8))
    return ('<?xml version="1.0" encoding="utf-8"?>\n<Project name="Budget" format="1"><Screens><Screen name="Screen">'
            f"<Scene name=\"Scene\">\n{systems}</Scene></Screen></Screens></Project>\n")


def test_eight_systems_within_the_work_limits_are_refused_with_the_breakdown(tmp_path):
    (tmp_path / "b.kzm").write_text(eight_systems())
    ran = kzplayer("play", "b.kzm", "--frames", 2, "--size", "32x32", "--output", "b.png", cwd=tmp_path,
                   timeout=120).expect(1)
    assert "play.buffer-budget" in ran.out and "more than the budget of 2.00 GiB" in ran.out, ran.out[-2000:]
    assert "Screens/Screen/Scene/S0" in ran.out and "history" in ran.out and "sort" in ran.out
    assert "and 3 more systems" in ran.out
    assert not (tmp_path / "b.png").exists()
    assert ran.peak_mib < 800 and ran.seconds < 100, (ran.peak_mib, ran.seconds)


def test_the_budget_option(tmp_path):
    (tmp_path / "b.kzm").write_text(eight_systems(n=20_000, trail=0))
    low = kzplayer("play", "b.kzm", "--frames", 1, "--size", "16x16", "--output", "b.png", "--buffer-budget", 0.01,
                   cwd=tmp_path, timeout=120).expect(1)
    assert "more than the budget of 10.2 MiB" in low.out, low.out[-2000:]
    kzplayer("play", "b.kzm", "--frames", 1, "--size", "16x16", "--output", "b.png", "--buffer-budget", 0.5,
             cwd=tmp_path, timeout=120).expect(0)
    # a bad value is a usage error before anything is read: in this process, no child each
    from click.testing import CliRunner

    from kzplayer.cli import main
    for bad in ("0", "-1", "nan", "inf", "2000"):
        ran = CliRunner().invoke(main, ["play", str(tmp_path / "b.kzm"), "--frames", "1", "--buffer-budget", bad])
        assert ran.exit_code == 2 and isinstance(ran.exception, SystemExit), (bad, ran.output, ran.exception)
        assert "--buffer-budget" in ran.output and "Traceback" not in ran.output, ran.output
    assert limits.buffer_budget() == limits.BUFFER_BUDGET            # no scope left in force
