"""A small project that names every kind of asset (tests of list_assets and of convert):

    proj/fx.kzm                    the project
    proj/shaders/main.glsl         custom affector: #include "lib/push.glsl", "Particles/noise.glsl" (library)
    proj/shaders/lib/push.glsl     #include "strength.glsl" (beside it: shaders/lib/strength.glsl)
    proj/meshes/tri.gltf           a triangle, its buffer outside the file: meshes/tri.bin
    proj/models/quad.obj           mtllib quad.mtl; quad.mtl maps tex/quad.png (relative to the .obj)
    proj/textures/ground.png       Model3D.Texture
    proj/textures/mask.png         a custom string property (Swirl.Mask) and a PropertyType default
"""
import json
import struct
from pathlib import Path

from PIL import Image

TRIANGLE = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<3H", 0, 1, 2) + b"\0\0"

SHADERS = {
    "shaders/main.glsl": '// the affector\n#include "lib/push.glsl"\n#include "Particles/noise.glsl"\n\n'
                         "void affectParticle(uint index) {\n"
                         "    addParticleAcceleration(index, vec3(0.0, pushStrength(), 0.0));\n}\n",
    "shaders/lib/push.glsl": '#include "strength.glsl"  // beside this file\n',
    "shaders/lib/strength.glsl": "uniform float Swirl_Strength;\nfloat pushStrength() { return Swirl_Strength; }\n",
}


def gltf(buffer_uri: str = "tri.bin") -> str:
    return json.dumps({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"uri": buffer_uri, "byteLength": len(TRIANGLE)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                        {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]})


OBJ = "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n" \
      "usemtl quad\nf 1/1 2/2 3/3\nf 1/1 3/3 4/4\n"
MTL = "newmtl quad\nKd 1 1 1\nmap_Kd tex/quad.png\n"


def project_text(texture: str = "textures/ground.png") -> str:
    return f"""<?xml version="1.0" encoding="utf-8"?>
<Project name="Assets" format="1">
  <Screens>
    <Screen name="Screen">
      <Scene name="Scene">
        <Model3D name="Floor">
          <Property name="Model3D.Mesh">Meshes/Quad</Property>
          <Property name="Model3D.Texture">{texture}</Property>
        </Model3D>
        <Model3D name="Tri"><Property name="Model3D.Mesh">Meshes/Tri</Property></Model3D>
        <ParticleSystem name="Particle System">
          <ParticleAffector name="Swirl">
            <Property name="ParticleAffector.AffectorMaterial">Materials/Swirl</Property>
            <Property name="Swirl.Mask">textures/mask.png</Property>
          </ParticleAffector>
        </ParticleSystem>
      </Scene>
    </Screen>
  </Screens>
  <Meshes>
    <Mesh name="Tri"><Property name="Mesh.File">meshes/tri.gltf</Property></Mesh>
    <Mesh name="Quad"><Property name="Mesh.File">models/quad.obj</Property></Mesh>
  </Meshes>
  <Materials>
    <MaterialType name="Swirl" slot="Affector" shader="shaders/main.glsl">
      <PropertyType name="Swirl.Strength" type="float" default="1"/>
      <PropertyType name="Swirl.Mask" type="string" default="textures/mask.png"/>
    </MaterialType>
  </Materials>
</Project>
"""


# every asset: (kind, name)
ASSETS = [("shader", "shaders/main.glsl"), ("shader", "shaders/lib/push.glsl"),
          ("shader", "shaders/lib/strength.glsl"), ("texture", "textures/mask.png"),
          ("texture", "textures/ground.png"), ("mesh", "meshes/tri.gltf"), ("mesh", "meshes/tri.bin"),
          ("mesh", "models/quad.obj"), ("mesh", "models/quad.mtl"), ("texture", "models/tex/quad.png")]


def png(path: Path, colour=(200, 120, 40, 255)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGBA", (4, 4), colour).save(path)


def make(root: Path, texture: str = "textures/ground.png") -> Path:
    """The project in `root` (made); returns its .kzm."""
    for name, text in SHADERS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / "meshes").mkdir(parents=True, exist_ok=True)
    (root / "meshes/tri.gltf").write_text(gltf(), encoding="utf-8")
    (root / "meshes/tri.bin").write_bytes(TRIANGLE)
    (root / "models").mkdir(parents=True, exist_ok=True)
    (root / "models/quad.obj").write_text(OBJ, encoding="utf-8")
    (root / "models/quad.mtl").write_text(MTL, encoding="utf-8")
    png(root / "models/tex/quad.png", (40, 200, 90, 255))
    png(root / "textures/ground.png")
    png(root / "textures/mask.png", (255, 255, 255, 128))
    (root / "fx.kzm").write_text(project_text(texture), encoding="utf-8")
    return root / "fx.kzm"
