"""A project whose every asset points everywhere (tests/hardening/test_audit.py): absolute
paths, `..` out of the project, symbolic links out (a file and a folder), /etc/passwd,
/dev/zero, `~`, a `file://` URI, a glTF whose buffers and images, an OBJ whose .mtl and maps,
custom shaders whose `shader=` and `#include`s point out. Made in the test, beside a folder
`outside/` of bait files that nothing may open.

    ROOT/outside/         bait: out.png, out.glb, out.bin, out.mtl, out.glsl, dir/a.png
    ROOT/proj/fx.kzm      the project (tests/project/assets_fixture.py's, plus the hostile names)
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.project.assets_fixture import TRIANGLE, gltf, make, png

# a name each asset kind is given, besides the project's own good ones
HOSTILE_NAMES = ["/etc/passwd", "../outside/out.png", "links/out.png", "linkdir/a.png", "/dev/zero",
                 "~/x.png", "~", "file:///etc/passwd", "../../../../../../etc/passwd", "/proc/self/environ",
                 "outside-abs"]


def _bait(outside: Path) -> None:
    outside.mkdir(parents=True)
    png(outside / "out.png")
    png(outside / "dir" / "a.png")
    (outside / "out.bin").write_bytes(TRIANGLE + b"OUTSIDE!")     # unlike the project's own tri.bin
    (outside / "out.glb").write_bytes(b"glTF" + b"\0" * 64)
    (outside / "out.mtl").write_text("newmtl quad\nmap_Kd out.png\n")
    (outside / "out.glsl").write_text("float outside() { return 1.0; }\n")
    (outside / "out.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")


def _links(proj: Path, outside: Path) -> None:
    links = proj / "links"
    links.mkdir()
    for name in ("out.png", "out.glb", "out.bin", "out.mtl", "out.glsl", "out.obj"):
        os.symlink(outside / name, links / name)
    os.symlink(outside / "dir", proj / "linkdir")
    os.symlink("/etc/passwd", proj / "passwd.png")


def _meshes(proj: Path, outside: Path) -> None:
    """glTF and OBJ files inside the project whose side files lie outside it."""
    tree = json.loads(gltf())
    tree["buffers"] = [{"uri": u, "byteLength": len(TRIANGLE)} for u in
                       ("/etc/passwd", "../../outside/out.bin", "../links/out.bin", f"file://{outside}/out.bin")]
    tree["images"] = [{"uri": u} for u in ("/etc/passwd", "../../outside/out.png", "/dev/zero")]
    for i, name in enumerate(("abs", "dotdot", "link", "uri")):
        one = dict(tree, buffers=[tree["buffers"][i]])
        (proj / "meshes" / f"{name}.gltf").write_text(json.dumps(one))
    (proj / "models" / "out.obj").write_text(
        f"mtllib ../../outside/out.mtl\nmtllib /etc/passwd\nmtllib {outside}/out.mtl\n"
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl quad\nf 1 2 3\n")
    (proj / "models" / "maps.mtl").write_text(
        f"newmtl quad\nmap_Kd /etc/passwd\nmap_Ka ../../outside/out.png\nbump {outside}/out.png\n")
    (proj / "models" / "maps.obj").write_text("mtllib maps.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl quad\nf 1 2 3\n")


def _shaders(proj: Path, outside: Path) -> None:
    (proj / "shaders" / "escape.glsl").write_text(
        '#include "/etc/passwd"\n#include "../../outside/out.glsl"\n#include "../links/out.glsl"\n'
        f'#include "{outside}/out.glsl"\n#include "/dev/zero"\n'
        "void affectParticle(uint index) { }\n")
    for name in ("passwd", "dotdot", "link", "abs", "zero"):
        (proj / "shaders" / f"{name}.glsl").write_text(
            {"passwd": '#include "/etc/passwd"\n', "dotdot": '#include "../../outside/out.glsl"\n',
             "link": '#include "../links/out.glsl"\n', "abs": f'#include "{outside}/out.glsl"\n',
             "zero": '#include "/dev/zero"\n'}[name] + "void affectParticle(uint index) { }\n")


def make_everywhere(root: Path, shaders_out: bool = True) -> Path:
    """The project in ROOT/proj (made, with ROOT/outside); returns its .kzm. Without
    `shaders_out` the materials' own shader names stay inside the project (only their
    #includes point out), so that the project loads and convert goes on to copy."""
    outside = root / "outside"
    _bait(outside)
    kzm = make(root / "proj")
    proj = kzm.parent
    _links(proj, outside)
    _meshes(proj, outside)
    _shaders(proj, outside)
    names = [n.replace("outside-abs", str(outside / "out.png")) for n in HOSTILE_NAMES] + ["passwd.png"]
    mesh_names = ["/etc/passwd", "../outside/out.glb", "links/out.glb", "links/out.obj", "/dev/zero", "~/m.obj",
                  str(outside / "out.obj"), "meshes/abs.gltf", "meshes/dotdot.gltf", "meshes/link.gltf",
                  "meshes/uri.gltf", "models/out.obj", "models/maps.obj", "~"]
    shader_names = ["/etc/passwd", "../outside/out.glsl", "links/out.glsl", str(outside / "out.glsl"), "/dev/zero",
                    "~/s.glsl", "shaders/escape.glsl"] + [f"shaders/{n}.glsl" for n in
                                                          ("passwd", "dotdot", "link", "abs", "zero")]
    if not shaders_out:
        shader_names = shader_names[6:]
    models = "".join(
        f'<Model3D name="T{i}"><Property name="Model3D.Mesh">Meshes/Quad</Property>'
        f'<Property name="Model3D.Texture">{n}</Property></Model3D>\n' for i, n in enumerate(names))
    models += "".join(
        f'<Model3D name="M{i}"><Property name="Model3D.Mesh">Meshes/H{i}</Property></Model3D>\n'
        for i in range(len(mesh_names)))
    emitters = "".join(
        f'<ParticleEmitter name="E{i}"><Property name="Particle.Texture">{n}</Property>'
        f'<Property name="ParticleEmitter.ParticleMesh">Meshes/H{i % len(mesh_names)}</Property>'
        '<Property name="Emission.Rate">50</Property></ParticleEmitter>\n' for i, n in enumerate(names))
    affectors = "".join(
        f'<ParticleAffector name="A{i}"><Property name="ParticleAffector.AffectorMaterial">Materials/S{i}</Property>'
        f'<Property name="Swirl.Mask">{names[i % len(names)]}</Property></ParticleAffector>\n'
        for i in range(len(shader_names)))
    meshes = "".join(f'<Mesh name="H{i}"><Property name="Mesh.File">{n}</Property></Mesh>\n'
                     for i, n in enumerate(mesh_names))
    materials = "".join(
        f'<MaterialType name="S{i}" slot="Affector" shader="{n}">'
        f'<PropertyType name="Swirl.Mask" type="string" default="{names[i % len(names)]}"/></MaterialType>\n'
        f'<MaterialType name="R{i}" slot="Particle" vertex="{n}" fragment="{n}" geometry="billboard"/>\n'
        for i, n in enumerate(shader_names))
    draws = "".join(
        f'<ParticleEmitter name="D{i}"><Property name="ParticleEmitter.ParticleMaterial">Materials/R{i}</Property>'
        '</ParticleEmitter>\n' for i in range(len(shader_names)))
    text = kzm.read_text()
    text = text.replace("</ParticleSystem>", f"{emitters}{affectors}{draws}</ParticleSystem>\n{models}", 1)
    text = text.replace("</Meshes>", meshes + "</Meshes>").replace("</Materials>", materials + "</Materials>")
    kzm.write_text(text)
    return kzm
