"""The GPU particle runtime: context, shader library, std430 buffers, the frame pipeline.

    from kzplayer.gpu import Simulation, create_context
    sim = Simulation(create_context(), scene)      # a kzplayer.scene.Scene (or: project, graph, seed=None)
    sim.step_frame(1 / 60)
    check_material_shaders(project) -> [Diagnostic]   # custom shaders compiled, not run
"""
from kzplayer.gpu.check import check_material_shaders  # noqa: F401
from kzplayer.gpu.context import create_context  # noqa: F401
from kzplayer.gpu.nodes import Emitter, EmitterStats  # noqa: F401
from kzplayer.gpu.simulation import Simulation  # noqa: F401
