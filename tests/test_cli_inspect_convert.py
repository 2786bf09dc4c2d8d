"""`kzplayer inspect` and `kzplayer convert` through the command line (cli.md), exit codes 0/1/2."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import kzplayer
from kzplayer.cli import main
from kzplayer.project.convert import model_diff

DATA = Path(__file__).parent / "project" / "data"
NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_inspect_text_shows_values_after_bindings():
    r = run("inspect", DATA / "fountain.kzm")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Fountain")
    assert "        Viewport 2D [Viewport2D]" in lines
    # 500 particles/s for 2 s: the binding {./Emission.Rate} * {./Emission.Lifetime}
    assert "                ParticleEmitter.MaximumAmount = 1000  (bound)" in lines
    assert "                Emission.InitialVelocityDirection = (0, 1, 0)" in lines


def test_inspect_json_matches_cli_md():
    r = run("inspect", "--json", DATA / "fountain.kzm")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["project"] == "Fountain"
    items = {i["path"]: i for i in data["items"]}
    assert [i["path"] for i in data["items"]][:2] == ["Screens", "Screens/Screen"]
    nozzle = items[NOZZLE]
    assert nozzle["type"] == "ParticleEmitter"
    assert nozzle["properties"]["Emission.Rate"] == 500
    assert nozzle["properties"]["ParticleEmitter.MaximumAmount"] == 1000
    assert nozzle["properties"]["Emission.InitialVelocityDirection"] == [0, 1, 0]
    assert nozzle["bound"] == ["ParticleEmitter.MaximumAmount"]
    # MyFx.Heat defaults to 0.5 (its PropertyType); the BindingItem writes 0.5 * 4
    swirl = items[NOZZLE.replace("Nozzle", "Swirl")]
    assert swirl["properties"]["Swirl.Strength"] == 2.0 and swirl["bound"] == ["Swirl.Strength"]
    camera = items["Screens/Screen/RootNode/Viewport 2D/Scene/Camera"]
    assert camera["properties"]["Node3D.RenderTransformation"] == {
        "scale": [1, 1, 1], "rotation": [-15, 0, 0], "translation": [0, 3, 12]}


def test_inspect_json_buffers():
    r = run("inspect", "--json", DATA / "events.kzm")
    assert r.exit_code == 0, r.output
    items = {i["path"]: i for i in json.loads(r.stdout)["items"]}
    sub = items["Screens/Scene/PS/Sub"]
    assert sub["properties"]["Emission.SourceEventBuffer"] == {"buffer": "EventBuffer", "of": "Screens/Scene/PS/Source"}
    assert sub["bound"] == ["Emission.SourceEventBuffer"]


def test_inspect_folder_layout_gives_the_same_json():
    a = json.loads(run("inspect", "--json", DATA / "fountain.kzm").stdout)
    b = json.loads(run("inspect", "--json", DATA / "fountain_folder").stdout)
    assert a == b


def test_inspect_bad_project_is_exit_1_with_position(tmp_path):
    f = tmp_path / "broken.kzm"
    f.write_text('<Project name="B">\n  <Screens>\n    <Scene name="S">\n  </Screens>\n</Project>\n')
    r = run("inspect", f)
    assert r.exit_code == 1
    assert f"{f}:4:" in r.stderr and "xml.malformed" in r.stderr
    assert "Traceback" not in r.output


def test_inspect_unreadable_is_exit_2(tmp_path):
    r = run("inspect", tmp_path / "missing.kzm")
    assert r.exit_code == 2 and "does not exist" in r.stderr


def test_convert_both_ways(tmp_path):
    r = run("convert", DATA / "fountain.kzm", tmp_path / "folder")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "folder" / "Fountain.proj.kzm").is_file()
    assert str(tmp_path / "folder" / "Fountain.proj.kzm") in r.output     # what was written, by name
    assert (tmp_path / "folder" / (NOZZLE + ".kzm")).is_file()
    r = run("convert", tmp_path / "folder", tmp_path / "back.kzm")
    assert r.exit_code == 0, r.output
    original = kzplayer.load(DATA / "fountain.kzm")
    assert model_diff(original, kzplayer.load(tmp_path / "folder")) == []
    assert model_diff(original, kzplayer.load(tmp_path / "back.kzm")) == []


def test_convert_hand_written_folder_to_single(tmp_path):
    r = run("convert", DATA / "fountain_folder" / "Fountain.proj.kzm", tmp_path / "one.kzm")
    assert r.exit_code == 0, r.output
    assert model_diff(kzplayer.load(DATA / "fountain_folder"), kzplayer.load(tmp_path / "one.kzm")) == []


def test_convert_refuses_a_non_empty_folder(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    r = run("convert", DATA / "fountain.kzm", tmp_path / "full")
    assert r.exit_code == 2 and "not empty" in r.stderr
    assert sorted(p.name for p in (tmp_path / "full").iterdir()) == ["keep.txt"]


def test_convert_bad_source_is_exit_1(tmp_path):
    f = tmp_path / "dup.kzm"
    f.write_text('<Project name="D"><Screens><Scene name="A"/><Scene name="A"/></Screens></Project>')
    r = run("convert", f, tmp_path / "out.kzm")
    assert r.exit_code == 1 and "item.duplicate-name" in r.stderr
    assert not (tmp_path / "out.kzm").exists()


def test_convert_to_a_path_that_is_a_file_or_unwritable_is_exit_2(tmp_path):
    (tmp_path / "plain").write_text("x")
    r = run("convert", DATA / "fountain.kzm", tmp_path / "plain")
    assert r.exit_code == 2 and "is a file" in r.stderr
    r = run("convert", DATA / "fountain.kzm", tmp_path / "plain" / "under.kzm")
    assert r.exit_code == 2 and "cannot write" in r.stderr and "Traceback" not in r.output


def test_convert_never_writes_onto_the_projects_own_files(tmp_path):
    import shutil
    shutil.copytree(DATA / "fountain_folder", tmp_path / "proj")
    item_file = tmp_path / "proj" / "Screens.kzm"
    before = {p: p.read_bytes() for p in (tmp_path / "proj").rglob("*")if p.is_file()}
    for dst in (item_file, tmp_path / "proj" / "Fountain.proj.kzm", tmp_path / "proj"):
        r = run("convert", tmp_path / "proj", dst)          # onto an item file broke the project
        assert r.exit_code == 2 and "of the project being converted" in r.stderr, r.output
    assert {p: p.read_bytes() for p in (tmp_path / "proj").rglob("*") if p.is_file()} == before
    assert kzplayer.load(tmp_path / "proj")


def test_convert_onto_an_existing_file_needs_force(tmp_path):
    (tmp_path / "old.kzm").write_text("precious\n")
    r = run("convert", DATA / "fountain.kzm", tmp_path / "old.kzm")   # overwrote silently before
    assert r.exit_code == 2 and "--force" in r.stderr
    assert (tmp_path / "old.kzm").read_text() == "precious\n"
    r = run("convert", "--force", DATA / "fountain.kzm", tmp_path / "old.kzm")
    assert r.exit_code == 0, r.output
    assert model_diff(kzplayer.load(DATA / "fountain.kzm"), kzplayer.load(tmp_path / "old.kzm")) == []


def test_convert_to_a_kzproj_name_is_refused_not_a_folder(tmp_path):
    r = run("convert", DATA / "fountain.kzm", tmp_path / "out.kzproj")   # made a folder out.kzproj
    assert r.exit_code == 2 and "not Kanzi Studio files" in r.stderr and "out.kzm" in r.stderr
    assert not (tmp_path / "out.kzproj").exists()


def test_convert_says_it_does_not_carry_comments_over(tmp_path):
    src = tmp_path / "commented.kzm"
    src.write_text(DATA.joinpath("fountain.kzm").read_text().replace(
        "<Screens>", "<!-- one -->\n  <Screens><!-- two -->", 1))
    r = run("convert", src, tmp_path / "folder")
    assert r.exit_code == 0, r.output
    assert "comments" in r.stderr and str(src) in r.stderr
    n = src.read_text().count("<!--")
    assert f"the {n} XML comments" in r.stderr


def _without_studio_properties(project):
    """The model a .kzm can hold: Kanzi Studio's editor properties left out (writer.studio_only)."""
    from kzplayer.project.writer import studio_only
    for item in project.walk():
        for name in [n for n in item.properties if studio_only(item, n)]:
            del item.properties[name]
    project.format_version = "1"
    return project


def test_convert_a_kanzi_project_loads_again_with_the_same_model(kanzi39, tmp_path):
    from kzplayer.project.loader import load_project
    src = kanzi39 / "Gauges.kzproj"
    for dst in (tmp_path / "gauges.kzm", tmp_path / "gauges"):
        r = run("convert", src, dst)
        assert r.exit_code == 0, r.output
        assert "left out" in r.output and "CreationTime" in r.output
        converted, diags = load_project(dst)
        assert [str(d) for d in diags if d.severity.value != "warning"] == []
        assert converted.format_version == "1"
        assert model_diff(_without_studio_properties(kzplayer.load(src)), converted) == []
        # what a .kzm keeps of the Kanzi model: a relative item path, Kanzi's own properties on
        # types kzplayer does not play, and every binding
        trigger = converted.find("Screens/Screen/RootPage/Message Trigger")
        assert trigger.get("OnPropertyChangedTrigger.SourceNode").path == "."
        assert "CreationTime" not in converted.find("Screens/Screen").properties
        assert len(converted.bindings()) == len(kzplayer.load(src).bindings()) > 0


def test_convert_a_kanzi_project_with_material_properties(kanzi39, tmp_path):
    # Kanzi names the property types of its materials without a type prefix (PrimaryColor)
    r = run("convert", kanzi39 / "Indicator.kzproj", tmp_path / "indicator.kzm")
    assert r.exit_code == 0, r.output
    project = kzplayer.load(tmp_path / "indicator.kzm")
    material = project.find("Materials/TileAtlasMaterial")
    assert material.type == "Material"                 # a Kanzi type: kept, not a typo of Materials
    assert {"PrimaryColor", "TileAtlasSize"} <= set(material.properties)
    assert project.find("PropertyTypes/PrimaryColor").type == "PropertyType"


def test_inspect_marks_bound_properties_whose_binding_did_not_run(tmp_path):
    f = tmp_path / "broken.kzm"
    f.write_text('<Project name="B"><Screens><Screen name="S"><ParticleSystem name="PS">\n'
                 '<ParticleEmitter name="E"><Property name="Emission.Rate">5</Property>\n'
                 '<Property name="Emission.Lifetime">3</Property>\n'
                 '<Binding target="Emission.Lifetime">int("three")</Binding>\n'
                 '<Binding target="ParticleEmitter.MaximumAmount">{./Emission.Rate} * 2</Binding>\n'
                 '</ParticleEmitter></ParticleSystem></Screen></Screens></Project>\n', encoding="utf-8")
    r = run("inspect", f)
    assert r.exit_code == 1 and "expr.value" in r.stderr, r.output     # why it did not run
    lines = [x.strip() for x in r.stdout.splitlines()]
    assert "Emission.Lifetime = 3  (bound, not evaluated)" in lines, r.stdout
    assert "ParticleEmitter.MaximumAmount = 10  (bound)" in lines
    data = json.loads(run("inspect", "--json", f).stdout)
    e = {i["path"]: i for i in data["items"]}["Screens/S/PS/E"]
    assert e["bound"] == ["Emission.Lifetime", "ParticleEmitter.MaximumAmount"]
    assert e["unevaluated"] == ["Emission.Lifetime"] and e["properties"]["Emission.Lifetime"] == 3


CUSTOM = Path(__file__).parent / "validate" / "cases" / "shader.compile" / "ok.kzm"   # shaders/swirl.glsl


@pytest.mark.parametrize("dst", ["folder", "elsewhere/one.kzm"])
def test_convert_copies_custom_material_shaders_so_the_project_still_plays(tmp_path, dst):
    r = run("convert", CUSTOM, tmp_path / dst)
    assert r.exit_code == 0, r.output
    assert "copied 1 shader file" in r.stdout
    root = tmp_path / Path(dst).parent if dst.endswith(".kzm") else tmp_path / dst
    copied = root / "shaders" / "swirl.glsl"      # shader= is relative to the project file
    assert copied.read_bytes() == (CUSTOM.parent / "shaders" / "swirl.glsl").read_bytes()
    v = run("validate", tmp_path / dst)
    assert v.exit_code == 0, v.output


def test_convert_never_overwrites_another_file_with_a_shader(tmp_path):
    (tmp_path / "shaders").mkdir()
    (tmp_path / "shaders" / "swirl.glsl").write_text("// someone else's\n")
    r = run("convert", CUSTOM, tmp_path / "one.kzm")
    assert r.exit_code == 2 and "swirl.glsl exists" in r.output
    assert (tmp_path / "shaders" / "swirl.glsl").read_text() == "// someone else's\n"
    assert not (tmp_path / "one.kzm").exists()


def test_the_version_and_help_name_the_command_and_every_kind_of_project():
    # `python cli.py --version` would otherwise print "cli.py, version ..."
    assert run("--version").output.startswith("kzplayer, version ")
    for command in ("play", "inspect"):
        assert run(command, "--help").exit_code == 0
    assert ".kzproj" in run("play", "--help").output
    # the command list shows each command's whole one-line summary, not a cut sentence
    commands = run("--help").output.split("Commands:")[1]
    assert "..." not in commands and "play " in commands


def test_inspect_defaults_adds_the_unset_properties_in_effect():
    r = run("inspect", "--defaults", DATA / "fountain.kzm")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    nozzle = lines[lines.index("              Nozzle [ParticleEmitter]") + 1:]
    nozzle = nozzle[:next(i for i, line in enumerate(nozzle) if not line.startswith(" " * 16))]
    names = [line.split(" = ")[0].strip() for line in nozzle]
    assert len(names) == len(set(names))                                    # nothing twice
    assert "                ParticleEmitter.MaximumAmount = 1000  (bound)" in nozzle   # set wins
    # Emitter_Point's and EmissionCount_Schedule's unset properties, at the catalog defaults
    # of the Emission page: no variance, a full on-phase stream with no impulse.
    assert "                Emission.LifetimeVariance = 0  (default)" in nozzle
    assert "                Emission.ImpulseAtCycleStart = 0  (default)" in nozzle
    # an empty Particle slot: the default billboard's properties
    assert "                Particle.Size = 0.1  (default)" in nozzle
    # read by no material in the Nozzle's slots: not in effect there
    assert "Emission.ParticlesPerEvent" not in names and "Emission.SourceEventBuffer" not in names
    assert "Accelerate.Direction" not in names and "ParticleEmitter.EventBuffer" not in names
    plain = run("inspect", DATA / "fountain.kzm").stdout
    assert "(default)" not in plain


def test_inspect_json_defaults_lists_them():
    items = {i["path"]: i for i in json.loads(run("inspect", "--json", "--defaults", DATA / "fountain.kzm").stdout)["items"]}
    nozzle = items[NOZZLE]
    assert "Emission.LifetimeVariance" in nozzle["defaults"]
    assert nozzle["properties"]["Emission.LifetimeVariance"] == 0
    assert "ParticleEmitter.MaximumAmount" not in nozzle["defaults"]
    without = json.loads(run("inspect", "--json", DATA / "fountain.kzm").stdout)["items"]
    assert all("defaults" not in i for i in without)


def test_the_checkout_runner_calls_itself_kzplayer():
    import subprocess
    import sys
    repo = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, str(repo / "cli.py"), "play", "--no-such-option"],
                       capture_output=True, text=True, cwd=repo)
    assert r.returncode == 2
    assert "Usage: kzplayer play [OPTIONS] [PROJECT]" in r.stderr and "cli.py" not in r.stderr


def test_inspect_paths_prints_every_item_by_the_path_set_takes():
    r = run("inspect", "--paths", DATA / "fountain.kzm")
    assert r.exit_code == 0, r.output
    assert f"{NOZZLE} [ParticleEmitter]" in r.stdout.splitlines()
    project = kzplayer.load(DATA / "fountain.kzm")
    paths = [line.rsplit(" [", 1)[0] for line in r.stdout.splitlines()[1:] if not line.startswith(" ")]
    assert paths == [item.path for item in project.walk()]
    assert all(project.find(p) is not None for p in paths)


# -- convert takes the project's assets along (kzplayer.project.assets) ---------------------------

def _samples_with_assets():
    from kzplayer.project.assets import list_assets
    from kzplayer.resources import samples_dir
    return [p.name for p in sorted(samples_dir().glob("*.kzm")) if list_assets(kzplayer.load(p)).files]


def _clean(path):
    """The exit code of `validate --strict` and its findings, less the notes that a sample's
    NeL materials do not port to Kanzi (material.kzplayer-only: the samples use them on purpose)."""
    v = run("validate", "--strict", "--format", "json", path)
    return v.exit_code, [(d["rule"], d["message"]) for d in json.loads(v.stdout)["diagnostics"]
                         if (d["rule"], d["severity"]) != ("material.kzplayer-only", "note")]


@pytest.mark.parametrize("dst", ["folder", "elsewhere/one.kzm"])
@pytest.mark.parametrize("sample", _samples_with_assets())
def test_a_converted_sample_validates_clean_with_its_textures_and_meshes(tmp_path, sample, dst):
    from kzplayer.project.assets import list_assets
    from kzplayer.resources import samples_dir
    src = samples_dir() / sample
    assets = list_assets(kzplayer.load(src)).files
    r = run("convert", src, tmp_path / dst)
    assert r.exit_code == 0, r.output
    textures = sum(a.kind == "texture" for a in assets)
    assert f"copied {textures} texture" in r.stdout and "mesh file" in r.stdout, r.stdout
    root = tmp_path / Path(dst).parent if dst.endswith(".kzm") else tmp_path / dst
    for a in assets:
        assert (root / a.name).read_bytes() == a.path.read_bytes(), a.name
    assert _clean(tmp_path / dst) == (0, [])       # texture.unreadable, mesh.unreadable before


@pytest.mark.parametrize("dst", ["folder", "elsewhere/one.kzm"])
def test_convert_copies_includes_gltf_buffers_obj_materials_and_their_maps(tmp_path, dst):
    from tests.project import assets_fixture as fx
    src = fx.make(tmp_path / "src")
    assert _clean(src) == (0, [])
    r = run("convert", src, tmp_path / dst)
    assert r.exit_code == 0, r.output
    assert "copied 3 shader files, 3 textures and 4 mesh files beside it" in r.stdout, r.stdout
    root = tmp_path / Path(dst).parent if dst.endswith(".kzm") else tmp_path / dst
    for _, name in fx.ASSETS:
        assert (root / name).read_bytes() == (tmp_path / "src" / name).read_bytes(), name
    assert _clean(tmp_path / dst) == (0, [])
    # the converted meshes are the source's, the .obj's material map included
    from kzplayer.meshes import load_mesh
    for mesh in ("meshes/tri.gltf", "models/quad.obj"):
        a, b = load_mesh(tmp_path / "src" / mesh), load_mesh(root / mesh)
        assert (a.positions == b.positions).all() and (a.indices == b.indices).all()


def test_convert_leaves_an_asset_outside_the_project_and_says_so(tmp_path):
    from tests.project import assets_fixture as fx
    src = fx.make(tmp_path / "src", texture="../outside.png")
    fx.png(tmp_path / "outside.png")
    r = run("convert", src, tmp_path / "out" / "one.kzm")
    assert r.exit_code == 0, r.output
    assert "note: not copied: refused: ../outside.png (Model3D 'Floor': Model3D.Texture) leads outside " \
           "the project folder" in r.stderr, r.stderr
    assert "2 textures" in r.stdout
    assert sorted(p.name for p in (tmp_path / "out").rglob("*.png")) == ["mask.png", "quad.png"]


def test_convert_never_overwrites_another_file_with_an_asset_and_writes_nothing(tmp_path):
    from kzplayer.resources import samples_dir
    sample = samples_dir() / "04_fire.kzm"
    mine = tmp_path / "assets" / "textures" / "ground.png"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"someone else's ground")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    r = run("convert", sample, tmp_path / "fire.kzm")
    assert r.exit_code == 2, r.output
    assert "ground.png exists and is not the texture file that Model3D 'Ground': Model3D.Texture names" \
        in r.stderr, r.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before      # nothing written
    assert mine.read_bytes() == b"someone else's ground"
    # the same bytes there already are fine: left as they are
    mine.write_bytes((samples_dir() / "assets" / "textures" / "ground.png").read_bytes())
    r = run("convert", sample, tmp_path / "fire.kzm")
    assert r.exit_code == 0, r.output
    assert "copied 2 textures and 2 mesh files beside it (1 asset file already there, unchanged)" in r.stdout
    assert _clean(tmp_path / "fire.kzm") == (0, [])


def test_convert_beside_the_source_copies_nothing(tmp_path):
    from tests.project import assets_fixture as fx
    src = fx.make(tmp_path)
    r = run("convert", src, tmp_path / "again.kzm")
    assert r.exit_code == 0, r.output
    assert "copied" not in r.stdout and "10 asset files already there" in r.stdout, r.stdout
