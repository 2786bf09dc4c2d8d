"""Every catalog entry rests on a page (catalog.toml [pages]) and docs/catalog.md says which,
per entry; the origin marks follow the manual's pages both ways (issue 20)."""
from __future__ import annotations

import pytest

from kzplayer.project.catalog import load_catalog
from kzplayer.project.catalog_docs import render_markdown


@pytest.fixture(scope="module")
def cat():
    return load_catalog()


def test_every_material_and_property_names_a_page_the_catalog_lists(cat):
    entries = [*cat.materials, *cat.legacy_materials, *cat.properties.values()]
    assert entries and all(x.page in cat.pages for x in entries), [x.name for x in entries if x.page not in cat.pages]
    manual = [k for k, v in cat.pages.items() if v.startswith("https://docs.kanzi.com/particles/4.0/3.0.0/")]
    assert len(manual) >= 10


def test_a_nel_entry_rests_on_the_nel_design_and_a_kanzi_one_on_the_manual(cat):
    assert cat.material("Vortex").page == "nel" and cat.material("Collider_Mesh").page == "nel"
    assert cat.material("Gravity").page == "affectors" and cat.material("Collider_Box").page == "colliders"
    assert cat.material("Emitter_MeshVertices").page == "migration-guide"
    assert cat.property("ParticleEmitter.MaximumAmount").page == "sizing"
    assert cat.property("Node3D.RenderTransformation").page == "engine"


def test_the_marks_follow_the_manual_both_ways(cat):
    for name in ("Collider_Rectangle", "Collider_Disc", "Collider_Mesh", "Event_AccelerationRange",
                 "ColorOverLife_ImageUV"):
        assert cat.material(name).origin, name
    assert cat.property("Collider.KillOnHit").origin == "NeL"
    for name in ("Emitter_Mesh", "Emitter_MeshSurface", "Emitter_MeshVertices", "Emitter_MeshEdges", "Collider_Cone",
                 "Collider_Capsule", "EmissionCount_Burst", "ParticlesColorOverLife_Red"):
        assert not cat.material(name).origin, name


def test_the_docs_show_the_page_of_each_entry(cat):
    page = render_markdown(cat)
    gravity = next(line for line in page.splitlines() if line.startswith("| `Gravity` |"))
    assert f"[affectors]({cat.pages['affectors']})" in gravity
    burst = next(line for line in page.splitlines() if line.startswith("| `EmissionCount_Burst` |"))
    assert "*inferred*" in burst and "| yes |" in burst
