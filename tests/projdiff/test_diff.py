"""`kzplayer diff` on pairs of projects whose every change is known: a reformatted file and
the other layout give no change; each edit below is reported once, of its kind, with the
line in both versions."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from kzplayer.cli import main
from kzplayer.projdiff import diff_projects, open_side

DATA = Path(__file__).parents[1] / "project" / "data"
SOURCE = (DATA / "fountain.kzm").read_text()
SYSTEM = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System"


def diff(a, b):
    old, new = open_side(str(a)), open_side(str(b))
    try:
        return diff_projects(old, new)
    finally:
        old.close()
        new.close()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_a_reformatted_file_and_the_other_layout_give_no_change(tmp_path):
    old = write(tmp_path, "old.kzm", SOURCE)
    text = SOURCE.replace('<Project name="Fountain" format="1">', '<Project format="1"   name="Fountain">')
    text = text.replace("  ", "\t")                                          # indentation
    text = text.replace(">500<", "> 500.0 <").replace("(0, 1, 0)", "(0,1,0)")  # the same numbers
    text = text.replace("<Screens>", "<!-- a comment -->\n<Screens>\n\n")
    assert text != SOURCE
    assert diff(old, write(tmp_path, "new.kzm", text)) == []
    assert diff(old, DATA / "fountain_folder") == []
    from kzplayer.project.convert import convert
    convert(str(old), str(tmp_path / "as_folder"))
    assert diff(old, tmp_path / "as_folder") == []


EDITS = [   # (old text, new text): each one change of a known kind
    ('<Property name="Emission.Rate">500</Property>', '<Property name="Emission.Rate">650</Property>'),
    ("{#Nozzle/MyFx.Heat} * 4</Property>", "{#Nozzle/MyFx.Heat} * 5</Property>"),
    ('<Camera name="Camera">', '<Camera name="Main Camera">'),
    ('<PropertyType name="Swirl.Strength" type="float" default="1"/>',
     '<PropertyType name="Swirl.Strength" type="float" default="2"/>'),
]


def edited() -> str:
    text = SOURCE
    for a, b in EDITS:
        assert a in text
        text = text.replace(a, b)
    # Gravity after Swirl (affector order), a Drag added after them
    gravity = '              <ParticleAffector name="Gravity">\n                <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>\n              </ParticleAffector>\n'
    assert gravity in text
    text = text.replace(gravity, "")
    drag = '              <ParticleAffector name="Drag">\n                <Property name="ParticleAffector.AffectorMaterial">Drag</Property>\n              </ParticleAffector>\n'
    text = text.replace("            </ParticleSystem>", gravity + drag + "            </ParticleSystem>")
    return text


def test_every_kind_of_change_is_reported_with_both_lines(tmp_path):
    old = write(tmp_path, "old.kzm", SOURCE)
    new_text = edited()
    new = write(tmp_path, "new.kzm", new_text)
    changes = diff(old, new)
    kinds = sorted((c.kind, c.path.rsplit("/", 1)[-1], c.what) for c in changes)
    assert kinds == sorted([
        ("property", "Nozzle", "Emission.Rate"),
        ("bound", "Nozzle", "ParticleEmitter.MaximumAmount"),      # Rate x Lifetime follows
        ("binding", "Swirl", "Swirl.Strength"),
        ("renamed", "Main Camera", ""),
        ("attribute", "Swirl.Strength", "default"),
        ("reordered", "Gravity", ""),                              # one move explains the new order
        ("added", "Drag", "ParticleAffector"),
    ])
    by = {c.kind: c for c in changes}
    rate = by["property"]
    assert (rate.old, rate.new, rate.unit) == ("500", "650", "particles/s")
    assert rate.old_at.line == line_of(SOURCE, '"Emission.Rate">500') and rate.new_at.line == line_of(new_text, '"Emission.Rate">650')
    assert (by["bound"].old, by["bound"].new) == ("1000", "1300")        # 500 x 2 -> 650 x 2
    binding = by["binding"]
    assert binding.old.endswith("* 4") and binding.new.endswith("* 5")
    assert "evaluates to" in binding.note
    assert by["renamed"].old == "Camera" and by["renamed"].new_at.line == line_of(new_text, "Main Camera")
    assert by["attribute"].material and (by["attribute"].old, by["attribute"].new) == ("1", "2")
    assert by["reordered"].old == "2" and by["reordered"].new == "3"
    assert by["reordered"].new_at.line == line_of(new_text, '<ParticleAffector name="Gravity">')
    assert by["added"].path == f"{SYSTEM}/Drag"


def test_removed_and_moved_to_another_parent(tmp_path):
    old = write(tmp_path, "old.kzm", SOURCE)
    camera_start = SOURCE.index("            <Camera name=\"Camera\">")
    camera_end = SOURCE.index("</Camera>", camera_start) + len("</Camera>\n")
    camera = SOURCE[camera_start:camera_end]
    text = SOURCE.replace(camera, "").replace("        <Viewport2D", camera.replace("            <", "        <", 1)
                                                    .replace("            </Camera>", "        </Camera>") + "        <Viewport2D", 1)
    text = text.replace('<Property name="ParticleSystem.IntegrationMethod">Verlet</Property>', "")
    changes = diff(old, write(tmp_path, "new.kzm", text))
    assert sorted((c.kind, c.path, c.what) for c in changes) == [
        ("moved", "Screens/Screen/RootNode/Camera", ""),
        ("property", SYSTEM, "ParticleSystem.IntegrationMethod"),
    ]
    moved = next(c for c in changes if c.kind == "moved")
    assert moved.old == "Screens/Screen/RootNode/Viewport 2D/Scene/Camera"
    prop = next(c for c in changes if c.kind == "property")
    assert prop.new is None and prop.old == "Verlet" and prop.new_at is None


def test_formats_and_a_git_revision(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    effect = write(repo, "effect.kzm", SOURCE)
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "effect.kzm"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    effect.write_text(SOURCE.replace(">500<", ">650<"))
    runner = CliRunner()
    monkeypatch.chdir(repo)
    r = runner.invoke(main, ["diff", "HEAD:effect.kzm", "effect.kzm", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    (rate, bound) = data["changes"]
    assert rate["kind"] == "property" and rate["old_at"]["file"] == "HEAD:effect.kzm"
    assert rate["new_at"] == {"file": "effect.kzm", "line": line_of(SOURCE, ">500<")}
    r = runner.invoke(main, ["diff", "HEAD:effect.kzm", "effect.kzm", "--format", "github"])
    assert r.output.startswith(f"::notice file=effect.kzm,line={line_of(SOURCE, '>500<')},title=kzplayer diff%3A property::")
    r = runner.invoke(main, ["diff", "HEAD:effect.kzm", "effect.kzm", "--format", "markdown"])
    assert "| property | `" in r.output and "500 particles/s -> 650 particles/s" in r.output
    r = runner.invoke(main, ["diff", "HEAD:nothing.kzm", "effect.kzm"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    r = runner.invoke(main, ["diff", "missing.kzm", "effect.kzm"])
    assert r.exit_code == 2


def test_render_writes_before_and_after_side_by_side(tmp_path):
    import imageio.v3 as iio
    old = write(tmp_path, "old.kzm", SOURCE)
    new = write(tmp_path, "new.kzm", SOURCE.replace("(0, 1, 0)", "(1, 1, 0)"))
    out = tmp_path / "side.png"
    r = CliRunner().invoke(main, ["diff", str(old), str(new), "--render", "1", "--render-output", str(out),
                                  "--size", "64x48"])
    assert r.exit_code == 0, r.output
    image = iio.imread(out)
    assert image.shape[:2] == (48, 64 * 2 + 4)
    left, right = image[:, :64].astype(int), image[:, 68:].astype(int)
    assert left.max() > 64 and right.max() > 64 and abs(left - right).mean() > 1     # both drawn, different


def test_a_shader_file_and_an_alias_that_changed(tmp_path):
    for side, body in (("a", "// one\n"), ("b", "// two\n")):
        (tmp_path / side / "shaders").mkdir(parents=True)
        (tmp_path / side / "shaders" / "swirl.glsl").write_text(body)
    old = write(tmp_path / "a", "fx.kzm", SOURCE)
    text = SOURCE.replace('<Alias name="Nozzle" target="./Particle System/Nozzle"/>',
                          '<Alias name="Nozzle" target="Particle System/Nozzle"/>')
    assert text != SOURCE
    changes = diff(old, write(tmp_path / "b", "fx.kzm", text))
    assert sorted((c.kind, c.path.rsplit("/", 1)[-1], c.what) for c in changes) == [
        ("alias", "Scene", "Nozzle"), ("shader", "Swirl", "shaders/swirl.glsl")]
    shader = next(c for c in changes if c.kind == "shader")
    assert shader.material and shader.new_at.line == line_of(text, '<MaterialType name="Swirl"')
