"""GL object lifetime: every buffer and program a Simulation creates (pool resizes
included) is released exactly once by `release()`, which is safe to call twice. Leaks
go unnoticed on llvmpipe's system memory; on a GPU they are VRAM."""
from __future__ import annotations

import moderngl
import pytest

from .test_barriers import _frame_project


@pytest.fixture
def gl_objects(monkeypatch):
    """{'made': [objects], 'released': [objects]} for buffers and compute programs."""
    log = {"made": [], "released": []}
    for maker in ("buffer", "compute_shader"):
        original = getattr(moderngl.Context, maker)

        def made(self, *args, _original=original, **kwargs):
            obj = _original(self, *args, **kwargs)
            log["made"].append(obj)
            return obj
        monkeypatch.setattr(moderngl.Context, maker, made)
    for cls in (moderngl.Buffer, moderngl.ComputeShader):
        original = cls.release

        def released(self, _original=original):
            log["released"].append(self)
            return _original(self)
        monkeypatch.setattr(cls, "release", released)
    return log


def test_release_frees_every_buffer_and_program_once_resizes_included(ctx, gl_objects):
    from kzplayer.gpu import Simulation
    sim = Simulation(ctx, _frame_project())
    for amount in (50, 10, 400, 400, 0, 30):             # grow, shrink, same, empty
        sim.step_frame(1 / 30)
        sim.set_value(sim.emitters[0].item, "ParticleEmitter.MaximumAmount", amount)
    sim.step()
    sim.release()
    sim.release()
    made, released = gl_objects["made"], gl_objects["released"]
    assert len(made) > 20
    assert sorted(map(id, released)) == sorted(map(id, made))     # each exactly once
    assert ctx.error == "GL_NO_ERROR"
