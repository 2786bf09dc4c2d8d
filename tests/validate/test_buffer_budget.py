"""play.buffer-budget in validate (issue 21): a project that play refuses for its GPU buffers
is an error of validate too (exit 1), with play's figures and breakdown, at the largest
pool's MaximumAmount; within the budget it validates clean."""
from __future__ import annotations

from kzplayer.gpu import limits
from kzplayer.gpu.storage import Layout
from kzplayer.validate import validate_paths
from tests.hardening.test_buffer_budget import eight_systems
from tests.hostile import kzplayer


def test_eight_systems_validate_with_plays_figures(tmp_path):
    (tmp_path / "b.kzm").write_text(eight_systems())
    checked = kzplayer("validate", "b.kzm", cwd=tmp_path, timeout=120).expect(1)
    played = kzplayer("play", "b.kzm", "--frames", 1, "--size", "16x16", "--output", "b.png", cwd=tmp_path,
                      timeout=120).expect(1)
    [said] = [line for line in played.out.splitlines() if "[play.buffer-budget]" in line]
    message = said.split("error: ", 1)[1]
    assert "9.55 GiB" in message and "and 3 more systems" in message     # docs/hardening.md's figure
    assert message in checked.out, checked.out[-3000:]
    # at S0's MaximumAmount (line 3; its value after `...<Property name="ParticleEmitter.MaximumAmount">`)
    line = (tmp_path / "b.kzm").read_text().splitlines()[2]
    column = line.index('MaximumAmount">') + len('MaximumAmount">') + 1
    assert f"b.kzm:3:{column}: error: the project's particle buffers need" in checked.out, checked.out[:600]


def test_the_figures_are_the_layouts(tmp_path):
    """Eight systems of one 100,000-slot pool each, depth-sorted, no trail: within the
    default budget; under a budget of 1 MiB the message's total is eight times system_bytes
    of one system's Layout
    (kzplayer.gpu.storage; tests/hardening checks those against the buffers made)."""
    (tmp_path / "one.kzm").write_text(eight_systems(n=100_000, trail=0).replace("Particles_Ribbon", "ParticlesDefault"))
    result = validate_paths([str(tmp_path / "one.kzm")])
    assert not [d for d in result.diagnostics if d.rule == "play.buffer-budget"]
    with limits.buffer_budget_of(1 << 20):
        result = validate_paths([str(tmp_path / "one.kzm")])
    [d] = [d for d in result.diagnostics if d.rule == "play.buffer-budget"]
    assert (d.code, d.severity.name) == ("KZ913", "ERROR")
    per_system = sum(limits.system_bytes(Layout([100_000], 0, histories=[0]), [1]).values())
    assert f"need {limits._gib(8 * per_system)} of GPU memory" in d.message, d.message
    assert "more than the budget of 1.0 MiB" in d.message and "and 3 more systems" in d.message
