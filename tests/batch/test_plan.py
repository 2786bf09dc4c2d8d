"""Planning: sweeps (lists, ranges, products, vectors), variant names, manifests. No GL."""
from __future__ import annotations

import pytest

from kzplayer import batch
from kzplayer.batch.manifest import literal, load_manifest, parse_memory
from kzplayer.batch.plan import PlanError, parse_axis, parse_seeds, split_top_level, variant_name

from .common import FOUNTAIN, NOZZLE


def test_a_list_a_range_and_their_product():
    sweep = batch.sweep([f"{NOZZLE}:Emission.Rate=10,20,40", f"{NOZZLE}:Emission.Lifetime=1..2:0.5"])
    variants = sweep.variants()
    assert len(variants) == 9
    sets = [v[0] for v in variants]
    assert sets[0] == [f"{NOZZLE}:Emission.Rate=10", f"{NOZZLE}:Emission.Lifetime=1"]
    assert sets[-1] == [f"{NOZZLE}:Emission.Rate=40", f"{NOZZLE}:Emission.Lifetime=2"]
    assert len({tuple(s) for s in sets}) == 9


def test_integer_ranges_include_their_stop():
    assert parse_axis("A:Emission.Rate=10..40:10").values == ["10", "20", "30", "40"]
    assert parse_axis("A:Emission.Rate=3..1:-1").values == ["3", "2", "1"]
    assert parse_axis("A:Emission.Rate=0..1:0.25").values == ["0", "0.25", "0.5", "0.75", "1"]
    with pytest.raises(PlanError, match="never reaches"):
        parse_axis("A:Emission.Rate=1..5:-1")


def test_vectors_stay_whole():
    assert split_top_level('(0,1,0),(1,1,0),"a,b"') == ["(0,1,0)", "(1,1,0)", '"a,b"']
    # a bare comma list on a stock vector property is one vector, as play --set reads it
    one = batch.sweep([f"{NOZZLE}:Emission.InitialVelocityDirection=1,0,0"]).axes[0]
    assert one.values == ["1,0,0"]
    two = batch.sweep([f"{NOZZLE}:Emission.InitialVelocityDirection=(1,0,0),(0,1,0)"]).axes[0]
    assert two.values == ["(1,0,0)", "(0,1,0)"]


def test_variant_names_name_the_swept_values_only():
    sweep = batch.sweep([f"{NOZZLE}:Emission.Rate=10,20", "DataContext.theme=3"], seeds=[1, 2])
    names = [variant_name(v[1]) for v in sweep.variants()]
    assert names == ["Emission.Rate=10__seed=1", "Emission.Rate=20__seed=1",
                     "Emission.Rate=10__seed=2", "Emission.Rate=20__seed=2"]
    assert variant_name([]) == "default"
    long = variant_name([("Emission.InitialVelocityDirection", "(0.123456,0.5,0.25)")] * 3)
    assert len(long) <= 80 and long != variant_name([("Emission.InitialVelocityDirection", "(0.123457,0.5,0.25)")] * 3)
    assert "/" not in variant_name([("x", "a/b")])


def test_two_axes_on_one_property_are_told_apart_by_their_item():
    sweep = batch.sweep(["Scene/A:Emission.Rate=1,2", "Scene/B:Emission.Rate=3,4"])
    assert [k for k, _ in sweep.variants()[0][1]] == ["A.Emission.Rate", "B.Emission.Rate"]


def test_plan_is_kind_project_variant_and_keys_follow_what_decides_the_output(tmp_path):
    copy = tmp_path / "fountain.kzm"
    copy.write_bytes(FOUNTAIN.read_bytes())
    jobs = batch.plan(["validate", "render"], [FOUNTAIN, copy], batch.sweep([f"{NOZZLE}:Emission.Rate=1,2"]))
    assert [j.id for j in jobs][:4] == ["validate/demo_fountain/Emission.Rate=1", "validate/demo_fountain/Emission.Rate=2",
                                        "validate/fountain/Emission.Rate=1", "validate/fountain/Emission.Rate=2"]
    assert len(jobs) == 8 and len({j.key() for j in jobs}) == 8
    again = batch.plan(["validate", "render"], [FOUNTAIN, copy], batch.sweep([f"{NOZZLE}:Emission.Rate=1,2"]))
    assert [j.key() for j in again] == [j.key() for j in jobs]
    copy.write_bytes(FOUNTAIN.read_bytes() + b"\n")          # an edited project runs again
    edited = batch.plan(["validate"], [copy], batch.sweep([f"{NOZZLE}:Emission.Rate=1"]))
    assert edited[0].key() != jobs[2].key()


def test_bad_sweeps_are_plan_errors():
    for text in ("no equals sign", f"{NOZZLE}:Emission.Rate=1,,2", f"{NOZZLE}:Emission.Rate=0..1e9:1"):
        with pytest.raises(PlanError):
            parse_axis(text)
    with pytest.raises(PlanError, match="unknown job kind"):
        batch.plan(["bake"], [FOUNTAIN])
    assert parse_seeds("1..3") == [1, 2, 3] and parse_seeds("7,9") == [7, 9]
    with pytest.raises(PlanError):
        parse_seeds("1.5")


def test_manifest(tmp_path):
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "f.kzm").write_bytes(FOUNTAIN.read_bytes())
    manifest = tmp_path / "batch.toml"
    manifest.write_text(f'''
out = "review"
[defaults]
frames = 12
size = "96x54"
timeout = 30
memory = "1G"
[[job]]
name = "rates"
kinds = ["validate", "render"]
projects = ["fx/f.kzm"]
set = ["DataContext.theme=2"]
[job.sweep]
"{NOZZLE}:Emission.Rate" = [10, 20]
"{NOZZLE}:Emission.InitialVelocityDirection" = [[0, 1, 0], [1, 1, 0]]
[[job]]
kind = "render"
projects = ["fx/f.kzm"]
seeds = [1, 2, 3]
format = "png"
''')
    jobs, settings = load_manifest(str(manifest))
    assert settings == {"out": str(tmp_path / "review")}
    assert len(jobs) == 2 * 4 + 3
    first = jobs[0]
    assert first.id == "validate/rates/Emission.Rate=10__Emission.InitialVelocityDirection=_0_1_0_-" + first.variant[-8:]
    assert first.sets == ("DataContext.theme=2", f"{NOZZLE}:Emission.Rate=10",
                          f"{NOZZLE}:Emission.InitialVelocityDirection=(0,1,0)")
    assert first.timeout == 30 and first.memory == 2**30 and first.option("frames") == 12
    assert [j.id for j in jobs[-3:]] == ["render/f/seed=1", "render/f/seed=2", "render/f/seed=3"]
    assert jobs[-1].option("format") == "png" and jobs[-1].seed == 3


def test_manifest_mistakes_say_where(tmp_path):
    bad = tmp_path / "bad.toml"
    for text, says in (("[[job]]\nprojects = ['nowhere.kzm']\n", "no project at"),
                       ("[[job]]\nprojets = ['a.kzm']\n", "unknown key 'projets'"),
                       ("job = 1 2\n", "not a TOML manifest"),
                       ("out = 'x'\n", r"no \[\[job\]\] tables")):
        bad.write_text(text)
        with pytest.raises(PlanError, match=says):
            load_manifest(str(bad))
    assert literal(True) == "true" and literal([1, 0.5, 0]) == "(1,0.5,0)"
    assert parse_memory("512M") == 512 * 2**20 and parse_memory("2GiB") == 2 * 2**30
    with pytest.raises(PlanError):
        parse_memory("lots")


def test_the_manifest_in_docs_batch_md_plans(tmp_path):
    import re

    from .common import REPO
    text = (REPO / "docs" / "batch.md").read_text(encoding="utf-8")
    manifest = re.search(r"```toml\n(.*?)```", text, re.S).group(1)
    (tmp_path / "batch.toml").write_text(manifest.replace('"sample_projects/', f'"{REPO}/sample_projects/'))
    jobs, settings = load_manifest(str(tmp_path / "batch.toml"))
    assert settings == {"out": str(tmp_path / "review"), "workers": 4, "retries": 1}
    assert len(jobs) == 2 * 3 * 2 + 2 * 3          # validate+render x 3 rates x 2 colours; 2 projects x 3 seeds
    assert {j.name for j in jobs} == {"vortex-looks", "demo_fountain", "11_snow"}
    assert all(j.timeout == 300 and j.memory == 2 * 2**30 for j in jobs)
