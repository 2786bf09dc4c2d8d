"""What a frame draws, read from a project (kzplayer.render.frame): values after bindings,
earlier property names and enum words read as the new ones, blend and sorting per emitter,
mesh particles solid by default, hidden nodes and Node.Opacity, tree order, and problems
reported instead of raised."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import trimesh

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.render.frame import FrameBuilder


def project(tmp_path, emitters: str, extra: str = ""):
    trimesh.creation.icosphere(subdivisions=1, radius=0.1).export(tmp_path / "rock.glb")
    (tmp_path / "p.kzm").write_text(f"""<?xml version="1.0" encoding="utf-8"?>
<Project name="Frame" format="1">
  <Screens><Screen name="Screen"><Scene name="Scene">
    <ParticleSystem name="System">{emitters}</ParticleSystem>{extra}
  </Scene></Screen></Screens>
  <Meshes><Mesh name="Rock"><Property name="Mesh.File">rock.glb</Property></Mesh>
          <Mesh name="Gone"><Property name="Mesh.File">gone.glb</Property></Mesh></Meshes>
</Project>""")
    proj = kzplayer.load(str(tmp_path / "p.kzm"))
    return proj, FrameBuilder(proj, resolve(proj))


def fake_sim(proj, order=None):
    """What FrameBuilder reads of a Simulation: its emitters (in dependency order)."""
    items = [i for i in proj.walk() if i.type == "ParticleEmitter"]
    items = [items[k] for k in order] if order else items
    return SimpleNamespace(emitters=[SimpleNamespace(item=i, particles=None, capacity=10,
                                                     simulation_to_world=np.eye(4)) for i in items])


def by_name(frame):
    return {e.key.rsplit("/", 1)[-1]: e for e in frame.emitters}


def test_blend_mode_and_sorting_come_from_the_binding_graph_with_catalog_defaults(tmp_path):
    proj, builder = project(tmp_path, """
      <ParticleEmitter name="Plain"/>
      <ParticleEmitter name="Source">
        <Property name="Particle.BlendMode">Alpha</Property>
        <Property name="ParticleEmitter.SortingType">Depth</Property>
      </ParticleEmitter>
      <ParticleEmitter name="Bound">
        <Binding target="Particle.BlendMode">{../Source/Particle.BlendMode}</Binding>
        <Binding target="ParticleEmitter.SortingType">{../Source/ParticleEmitter.SortingType}</Binding>
      </ParticleEmitter>""")
    e = by_name(builder.build(fake_sim(proj)))
    assert (e["Plain"].blend, e["Plain"].sorting, e["Plain"].material.name) == ("Additive", "Identity", "ParticlesDefault")
    assert (e["Bound"].blend, e["Bound"].sorting) == ("Alpha", "Depth")


def test_kanzi_names_and_earlier_words_are_read_as_the_catalogs(tmp_path):
    """The catalog's aliases (issue 9's mechanism): Kanzi's ParticlesOverLife material and
    ColorStart are the seed's ParticlesColorOverLife and ColorOverLife.StartColor; the
    earlier SortingType words are Kanzi's."""
    proj, builder = project(tmp_path, """
      <ParticleEmitter name="Kanzi">
        <Property name="ParticleEmitter.ParticleMaterial">ParticlesOverLife</Property>
        <Property name="ParticlesOverLife.ColorStart">Color4(1, 0, 0, 1)</Property>
        <Property name="ParticleEmitter.SortingType">BackToFront</Property>
      </ParticleEmitter>
      <ParticleEmitter name="Seed">
        <Property name="ParticleEmitter.ParticleMaterial">ParticlesColorOverLife</Property>
        <Property name="ColorOverLife.StartColor">Color4(0, 1, 0, 1)</Property>
        <Property name="ParticleEmitter.SortingType">FrontToBack</Property>
      </ParticleEmitter>
      <ParticleEmitter name="Neither"><Property name="ParticleEmitter.SortingType">None</Property></ParticleEmitter>""")
    e = by_name(builder.build(fake_sim(proj)))
    assert e["Kanzi"].material.name == e["Seed"].material.name == "ParticlesColorOverLife"
    assert tuple(e["Kanzi"].values("ColorOverLife.StartColor")) == (1, 0, 0, 1) and e["Kanzi"].sorting == "Depth"
    assert tuple(e["Seed"].values("ColorOverLife.StartColor")) == (0, 1, 0, 1)
    assert e["Seed"].sorting == "ReverseDepth" and e["Neither"].sorting == "Identity"
    assert tuple(e["Neither"].values("ColorOverLife.StartColor")) == (1, 1, 1, 1)   # the default


def test_hidden_emitters_are_left_out_and_opacity_multiplies_down_the_tree(tmp_path):
    proj, builder = project(tmp_path, """
      <EmptyNode name="Group"><Property name="Node.Opacity">0.5</Property>
        <ParticleEmitter name="Dim"><Property name="Node.Opacity">0.5</Property></ParticleEmitter>
      </EmptyNode>
      <ParticleEmitter name="Hidden"><Property name="Node.Visible">false</Property></ParticleEmitter>""")
    e = by_name(builder.build(fake_sim(proj)))
    assert set(e) == {"Dim"} and e["Dim"].opacity == pytest.approx(0.25)


def test_emitters_are_drawn_in_tree_order_whatever_the_simulation_runs_first(tmp_path):
    proj, builder = project(tmp_path, '<ParticleEmitter name="A"/><ParticleEmitter name="B"/><ParticleEmitter name="C"/>')
    frame = builder.build(fake_sim(proj, order=[2, 0, 1]))
    assert [e.key.rsplit("/", 1)[-1] for e in frame.emitters] == ["A", "B", "C"]


def test_mesh_particles_are_solid_unless_the_node_sets_a_blend_mode(tmp_path):
    proj, builder = project(tmp_path, """
      <ParticleEmitter name="Rocks"><Property name="ParticleEmitter.ParticleMesh">Meshes/Rock</Property></ParticleEmitter>
      <ParticleEmitter name="Glow">
        <Property name="ParticleEmitter.ParticleMesh">Meshes/Rock</Property>
        <Property name="Particle.BlendMode">Additive</Property>
      </ParticleEmitter>""")
    e = by_name(builder.build(fake_sim(proj)))
    assert e["Rocks"].mesh is not None and e["Rocks"].mesh.triangles == 80 and e["Rocks"].blend == "Opaque"
    assert e["Glow"].blend == "Additive"


def test_an_unreadable_mesh_is_a_problem_and_the_emitter_draws_billboards(tmp_path):
    proj, builder = project(tmp_path, """
      <ParticleEmitter name="A"><Property name="ParticleEmitter.ParticleMesh">Meshes/Gone</Property></ParticleEmitter>
      <ParticleEmitter name="B"><Property name="ParticleEmitter.ParticleMesh">Meshes/Nothing</Property></ParticleEmitter>""")
    e = by_name(builder.build(fake_sim(proj)))
    assert e["A"].mesh is None and e["B"].mesh is None
    assert [d.rule for d in builder.problems] == ["mesh.unreadable", "mesh.unreadable"]
    assert "gone.glb" in builder.problems[0].message and "Nothing" in builder.problems[1].message
    builder.build(fake_sim(proj))
    assert len(builder.problems) == 2             # reported once, not every frame


def test_models_with_their_meshes_and_the_lights_are_in_the_frame(tmp_path):
    proj, builder = project(tmp_path, "", """
    <Model3D name="Ground"><Property name="Model3D.Mesh">Meshes/Rock</Property>
      <Property name="Node3D.RenderTransformation">Srt3D(2,2,2, 0,0,0, 1,2,3)</Property></Model3D>
    <Model3D name="Ghost"><Property name="Model3D.Mesh">Meshes/Rock</Property>
      <Property name="Node.Opacity">0.4</Property></Model3D>
    <Model3D name="Off"><Property name="Model3D.Mesh">Meshes/Rock</Property>
      <Property name="Node.Visible">false</Property></Model3D>
    <DirectionalLight name="Sun"/><PointLight name="Lamp"/><SpotLight name="Spot"/>""")
    frame = builder.build(fake_sim(proj))
    models = {m.key.rsplit("/", 1)[-1]: m for m in frame.models}
    assert set(models) == {"Ground", "Ghost"}
    assert np.allclose(models["Ground"].model[:3, 3], (1, 2, 3)) and models["Ground"].opaque
    assert not models["Ghost"].opaque and models["Ghost"].opacity == pytest.approx(0.4)
    assert (len(frame.lights.directional), len(frame.lights.point), len(frame.lights.spot)) == (1, 1, 1)
    # Kanzi's lights shine along their local -Z
    assert np.allclose(frame.lights.directional[0][0], (0, 0, -1))
