"""ParticleSystem.SortingCamera (the glossary's sorting camera): the Depth and ReverseDepth
sorts of the system's emitters go by the distance to the camera it names; unset, by the
drawing camera's view depth; a reference to no Camera is a warning and the drawing camera
sorts."""
from __future__ import annotations

import numpy as np

from kzplayer.render.camera import camera_from_item
from kzplayer.render.sort import DEPTH
from tests.render.test_frame import by_name, fake_sim, project
from tests.render.test_sort import expected_order
from tests.render.helpers import particles

CAMERA = """<Camera name="Behind"><Property name="Node3D.RenderTransformation">Srt3D(1,1,1, 0,180,0, 0,0,-6)</Property></Camera>"""


def build(tmp_path, system_props: str):
    proj, builder = project(tmp_path, system_props + """
      <ParticleEmitter name="Sorted"><Property name="ParticleEmitter.SortingType">Depth</Property></ParticleEmitter>
      <ParticleEmitter name="Unsorted"/>""", CAMERA)
    return proj, builder, by_name(builder.build(fake_sim(proj)))


def test_a_sorting_camera_gives_its_view_to_the_depth_sort(tmp_path):
    proj, builder, e = build(tmp_path, '<Property name="ParticleSystem.SortingCamera">Screens/Screen/Scene/Behind</Property>')
    behind = next(i for i in proj.walk() if i.name == "Behind")
    assert np.allclose(e["Sorted"].sort_view, camera_from_item(behind, builder.value).view)
    assert e["Unsorted"].sort_view is None            # Identity order: no sort, no view
    assert builder.problems == []


def test_without_a_sorting_camera_the_drawing_camera_sorts(tmp_path):
    _, builder, e = build(tmp_path, "")
    assert e["Sorted"].sort_view is None and builder.problems == []


def test_a_sorting_camera_that_names_no_camera_is_a_warning(tmp_path):
    _, builder, e = build(tmp_path, '<Property name="ParticleSystem.SortingCamera">Screens/Screen/Scene/System</Property>')
    assert e["Sorted"].sort_view is None
    assert [d.rule for d in builder.problems] == ["path.unresolved"] and "names no Camera" in builder.problems[0].message


def _orders(ctx, records, views, cam):
    from kzplayer.gpu.views import RecordBuffers
    from kzplayer.render.frame import Frame
    from kzplayer.render.renderer import Renderer
    from tests.render.helpers import emitter
    r = Renderer(ctx, (32, 18))
    buf = RecordBuffers(ctx, records)
    try:
        orders = []
        for view in views:
            r.draw(Frame(emitters=[emitter(buf, len(records), sorting="Depth", sort_view=view)]), cam)
            orders.append(list(r.sorter("e").read()[1]))
        return orders
    finally:
        buf.release()
        r.release()


def test_the_renderer_sorts_by_the_distance_to_the_sorting_camera(ctx):
    """Particles along Z drawn from +Z: sorted for a sorting camera behind them (at -Z), the
    far-first order is the reverse of the drawing camera's. Particles across X, all at one
    depth for both cameras: the drawing camera keeps their slot order (a tie), the sorting
    camera puts the farthest from it first."""
    from tests.render.helpers import camera
    front, back = camera(8.0), camera(8.0, yaw_deg=180.0)
    along = particles([(0.0, 0.0, z) for z in (-2.0, 1.0, -0.5, 2.5)])
    plain, behind = _orders(ctx, along, (None, back.view), front)
    assert plain == list(expected_order(along, DEPTH, front)) == behind[::-1]
    across = particles([(x, 0.0, 0.0) for x in (0.0, 3.0, -1.0, 2.0)])
    plain, behind = _orders(ctx, across, (None, back.view), front)
    assert plain == [0, 1, 2, 3] and behind == [1, 3, 2, 0]
