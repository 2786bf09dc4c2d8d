"""kzplayer.project.assets.list_assets: every file a project names, and what it leaves out."""
import json
from pathlib import Path

import kzplayer
from kzplayer.project.assets import list_assets
from kzplayer.resources import samples_dir
from tests.project import assets_fixture as fx


def names(assets):
    return sorted((a.kind, a.name) for a in assets.files)


def test_every_kind_of_asset_is_found_with_the_path_it_was_named_by(tmp_path):
    found = list_assets(kzplayer.load(fx.make(tmp_path)))
    assert names(found) == sorted(fx.ASSETS)
    assert found.left_out == []
    for a in found.files:
        assert a.path == (tmp_path / a.name).resolve()
    by = {a.name: a.by for a in found.files}
    assert by["meshes/tri.bin"] == "meshes/tri.gltf: buffers[0].uri"
    assert by["shaders/lib/strength.glsl"] == "#include in shaders/lib/push.glsl"
    assert by["models/tex/quad.png"] == "quad.mtl: texture map"


def test_an_include_only_the_shader_library_has_is_no_asset(tmp_path):
    fx.make(tmp_path)
    found = list_assets(kzplayer.load(tmp_path / "fx.kzm"))
    assert not any("noise" in a.name for a in found.files)      # #include "Particles/noise.glsl"
    # ... but a file of that name beside the shader is what the preprocessor reads: copied
    (tmp_path / "shaders/Particles").mkdir()
    (tmp_path / "shaders/Particles/noise.glsl").write_text("// the project's own\n")
    found = list_assets(kzplayer.load(tmp_path / "fx.kzm"))
    assert ("shader", "shaders/Particles/noise.glsl") in names(found)


def test_a_file_outside_the_project_or_missing_is_left_out_with_the_reason(tmp_path):
    root = tmp_path / "proj"
    fx.make(root, texture="../outside.png")
    fx.png(tmp_path / "outside.png")
    (root / "shaders/lib/strength.glsl").unlink()            # an include that is missing
    (root / "meshes/tri.gltf").write_text(fx.gltf("../../outside.bin"))   # leaves the mesh's folder
    found = list_assets(kzplayer.load(root / "fx.kzm"))
    assert not any("outside" in a.name or "strength" in a.name for a in found.files)
    why = {x.name: x.message for x in found.left_out}
    assert set(why) == {"../outside.png", "strength.glsl", "../../outside.bin"}
    assert "leads outside the project folder" in why["../outside.png"]
    assert "Model3D.Texture" in why["../outside.png"]
    assert why["strength.glsl"] == "strength.glsl (#include in shaders/lib/push.glsl) is missing"
    assert "buffers[0].uri" in why["../../outside.bin"]


def test_a_string_that_names_no_file_is_no_asset_and_no_complaint(tmp_path):
    fx.make(tmp_path)
    text = (tmp_path / "fx.kzm").read_text().replace("textures/mask.png</Property>", "just words</Property>")
    (tmp_path / "fx.kzm").write_text(text)
    found = list_assets(kzplayer.load(tmp_path / "fx.kzm"))
    assert ("texture", "textures/mask.png") in names(found)          # the PropertyType default still
    assert found.left_out == []


def test_a_gltf_uri_may_escape_its_characters_and_data_uris_are_inline(tmp_path):
    fx.make(tmp_path)
    tree = json.loads(fx.gltf("tri%20data.bin"))
    tree["images"] = [{"uri": "data:image/png;base64,AAAA"}]
    (tmp_path / "meshes/tri.gltf").write_text(json.dumps(tree))
    (tmp_path / "meshes/tri.bin").rename(tmp_path / "meshes/tri data.bin")
    found = list_assets(kzplayer.load(tmp_path / "fx.kzm"))
    assert ("mesh", "meshes/tri data.bin") in names(found)
    assert found.left_out == []


def test_the_samples_name_their_textures_and_meshes():
    found = list_assets(kzplayer.load(samples_dir() / "04_fire.kzm"))
    assert names(found) == [("mesh", "assets/meshes/floor.glb"), ("mesh", "assets/meshes/rock.glb"),
                            ("texture", "assets/textures/fire_sheet.png"), ("texture", "assets/textures/ground.png"),
                            ("texture", "assets/textures/smoke_sheet.png")]
    assert list_assets(kzplayer.load(samples_dir() / "03_firework.kzm")).files == []


def test_a_kanzi_studio_projects_file_names_are_no_false_alarms(kanzi39):
    # its ImageFile items' Name properties say "Gauges.png": no file beside the .kzproj
    found = list_assets(kzplayer.load(kanzi39 / "Gauges.kzproj"))
    assert found.files == [] and found.left_out == []


def test_a_folder_project_names_its_files_from_its_folder(tmp_path):
    from kzplayer.project.convert import convert
    convert(fx.make(tmp_path / "src"), tmp_path / "folder")
    found = list_assets(kzplayer.load(tmp_path / "folder"))
    assert names(found) == sorted(fx.ASSETS)
    assert all(Path(a.path).is_relative_to((tmp_path / "folder").resolve()) for a in found.files)


def test_a_mesh_names_its_files_beside_or_below_it_as_the_mesh_loader_reads_them(tmp_path):
    fx.make(tmp_path)
    (tmp_path / "meshes/tri.gltf").write_text(fx.gltf("../textures/tri.bin"))   # inside the project
    (tmp_path / "meshes/tri.bin").rename(tmp_path / "textures/tri.bin")
    found = list_assets(kzplayer.load(tmp_path / "fx.kzm"))
    assert not any(a.name.endswith("tri.bin") for a in found.files)
    [why] = [x.message for x in found.left_out]
    assert "not beside or below the mesh file" in why and "buffers[0].uri" in why
