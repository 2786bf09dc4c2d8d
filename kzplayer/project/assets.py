"""Every file a project names, besides its own .kzm files: its assets.

A project names files by paths relative to the project file, and a converted project has to
take them along to play (`kzplayer convert`). `list_assets(project)` finds them all:

* shaders: a custom material's `shader=`, `vertex=`, `fragment=` (MaterialType), and the
  files they `#include` from the project, followed as the shader preprocessor follows them
  (beside the including file first; an include that only kzplayer's shader library has,
  `#include "render/particle_vertex.glsl"`, is the library's and not an asset);
* textures: Particle.Texture, Model3D.Texture, FanLight.Gradient;
* meshes: Mesh.File, with the files a mesh names itself, resolved as the mesh loader
  (trimesh) resolves them, against the mesh file's folder: a glTF's (.gltf or .glb)
  external `buffers[].uri` and `images[].uri`, an OBJ's `mtllib` and the maps of that .mtl;
* any other string property (a custom material's sampler property names its image) or
  PropertyType `default=` whose value names a file inside the project folder.

Only files inside the project folder count (kzplayer.project.files.inside, the one rule):
a name that leads out, or a file that is missing, is `left_out` with the reason; a string
property that names no file is no asset, and no reason is given. Each asset keeps the
relative path it was named by (`Asset.name`, with `/`), which is where it goes beside a
converted project. Nothing here reads more than names: shaders are scanned as text for
`#include "x"` lines, glTF and OBJ files for the names they hold; no GL, no image decoding.
"""
from __future__ import annotations

import json
import os
import posixpath
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from kzplayer.project.files import Outside, inside, is_file, project_folder
from kzplayer.resources import shader_dir
from kzplayer.project.files import read_regular

SHADER_ATTRIBUTES = ("shader", "vertex", "fragment")     # of a MaterialType
TEXTURE_PROPERTIES = ("Particle.Texture", "Model3D.Texture", "FanLight.Gradient")
MESH_PROPERTIES = ("Mesh.File",)
KINDS = ("shader", "texture", "mesh", "file")

# `#include "x"` as the shader preprocessor (kzplayer.gpu.preprocessor) reads it
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*(//.*)?$')

_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tga", ".gif", ".tif", ".tiff", ".webp",
                   ".ktx", ".ktx2", ".dds", ".hdr", ".exr")
_MESH_SUFFIXES = (".glb", ".gltf", ".obj")
_SHADER_SUFFIXES = (".glsl", ".vert", ".frag", ".comp", ".geom")
_MTL_MAPS = ("bump", "disp", "decal", "refl", "norm")     # and every map_* statement
_MAX_DEPTH = 32                  # an #include chain (the preprocessor's limit)
_MAX_SCAN = 64 << 20             # a mesh larger than this is refused by the loader: not scanned


@dataclass(frozen=True)
class Asset:
    kind: str        # "shader", "texture", "mesh" (a mesh file or one it names), "file"
    name: str        # relative to the project folder, '/'-separated, as the project names it
    path: Path       # the real file
    by: str          # what names it, for messages ("Mesh 'Floor': Mesh.File")


@dataclass(frozen=True)
class LeftOut:
    name: str        # as written
    by: str
    why: str         # "missing", "special" (there, but no regular file), or the refusal of files.inside

    @property
    def message(self) -> str:
        if self.why == "special":
            return f"{self.name} ({self.by}) is not a regular file (a pipe, a device, a socket or a folder)"
        return f"{self.name} ({self.by}) is missing" if self.why == "missing" else self.why


@dataclass
class Assets:
    files: list[Asset] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)

    def by_kind(self) -> dict[str, list[Asset]]:
        return {k: [a for a in self.files if a.kind == k] for k in KINDS}


def list_assets(project) -> Assets:
    """Every asset of `project`, in the order the project names them, each file once."""
    return _Lister(project).run()


class _Lister:
    def __init__(self, project):
        self.project = project
        self.root = project_folder(project).resolve()
        self.own = {Path(f).resolve() for f in (getattr(project, "files", None) or [project.path]) if f}
        self.out = Assets()
        self.seen: set[str] = set()
        self.catalog = getattr(project, "catalog", None)

    def run(self) -> Assets:
        for item in self.project.walk():
            what = f"{item.type} '{item.name}'"
            if item.type == "MaterialType":
                for attribute in SHADER_ATTRIBUTES:
                    if item.attributes.get(attribute):
                        self.named(item.attributes[attribute], f"{what}: {attribute}=", "shader")
            if item.type == "PropertyType" and item.attributes.get("default"):
                self.named(item.attributes["default"], f"{what}: default=", None)
            for name, prop in item.properties.items():
                value = prop.value if prop.value is not None else (prop.text or "").strip()
                if not isinstance(value, str) or not value.strip():
                    continue
                known = self.catalog.canonical(name) if self.catalog is not None else name
                kind = ("texture" if known in TEXTURE_PROPERTIES else
                        "mesh" if known in MESH_PROPERTIES else None)
                self.named(value, f"{what}: {name}", kind)
        return self.out

    def named(self, text: str, by: str, kind: str | None) -> None:
        """A name the project wrote, relative to the project folder. `kind` None: any string,
        an asset only when it names a file (no reason given when it does not)."""
        text = text.strip()
        if kind is None and ("\n" in text or len(text) > 1024):
            return                   # a long text, an expression: no file name
        self.add(text, self.root, "", [self.root], by, kind)

    def add(self, text: str, base: Path, base_name: str, roots, by: str, kind: str | None,
            depth: int = 0) -> None:
        """`text` named relative to `base` (known to the project as `base_name`), allowed in
        `roots`."""
        try:
            real = inside(base, text, roots, f"{text} ({by})")
        except Outside as exc:
            if kind is not None:
                self.out.left_out.append(LeftOut(text, by, str(exc)))
            return
        if not is_file(real) or real in self.own:
            if kind is not None and not is_file(real):     # a stat, never an open: a pipe cannot hang it
                self.out.left_out.append(LeftOut(text, by, "special" if os.path.exists(real) else "missing"))
            return
        name = posixpath.normpath(posixpath.join(base_name, text.replace("\\", "/")))
        if name == ".." or name.startswith("../"):
            if kind is not None:        # inside only through a link: no relative path to keep
                self.out.left_out.append(LeftOut(text, by, "refused: it lies inside the project "
                                                 "folder only through a link"))
            return
        if kind is None:
            kind = _kind_of(name)
        if name in self.seen:
            return
        self.seen.add(name)
        self.out.files.append(Asset(kind, name, real, by))
        if kind == "shader" and depth < _MAX_DEPTH:
            self.includes(real, name, depth)
        elif real.suffix.lower() in _MESH_SUFFIXES:
            self.mesh_files(real, name)

    def includes(self, shader: Path, name: str, depth: int) -> None:
        """The files `#include`d from the project (beside the shader first, as the
        preprocessor looks); what only the shader library has is the library's."""
        text = _text(shader)
        here = posixpath.dirname(name)
        library = shader_dir().resolve()
        for line in text.splitlines():
            m = INCLUDE.match(line)
            if m is None:
                continue
            include = m.group(1)
            try:
                beside = inside(shader.parent, include, [self.root, library])
            except Outside:
                beside = None
            if beside is not None and is_file(beside):
                if self.root in beside.parents:
                    self.add(include, shader.parent, here, [self.root], f"#include in {name}", "shader", depth + 1)
                continue                     # (beside, in the library: the library's)
            try:
                if is_file(inside(library, include, [library])):
                    continue                 # kzplayer's own shader library
            except Outside:
                pass
            self.add(include, shader.parent, here, [self.root], f"#include in {name}", "shader", depth + 1)

    def mesh_files(self, mesh: Path, name: str) -> None:
        """What a mesh file names itself, relative to its folder, which the mesh loader
        (trimesh's resolver) never leaves."""
        here, folder = posixpath.dirname(name), mesh.parent
        suffix = mesh.suffix.lower()
        if suffix in (".gltf", ".glb"):
            tree = _gltf_json(mesh)
            for key, kind in (("buffers", "mesh"), ("images", "texture")):
                entries = tree.get(key) if isinstance(tree, dict) else None
                for i, entry in enumerate(entries if isinstance(entries, list) else []):
                    uri = entry.get("uri") if isinstance(entry, dict) else None
                    if isinstance(uri, str) and uri.strip() and not uri.startswith("data:"):
                        uri = uri.strip()
                        if not is_file(folder / uri) and is_file(folder / unquote(uri)):
                            uri = unquote(uri)       # a URI may escape its characters
                        self.side(uri, folder, here, f"{name}: {key}[{i}].uri", kind)
        elif suffix == ".obj":
            for mtl in _statements(_text(mesh), ("mtllib",)):
                self.side(mtl, folder, here, f"{name}: mtllib", "mesh")
                try:
                    real = inside(folder, mtl, [folder])
                except Outside:
                    continue
                # trimesh reads a .mtl's maps relative to the .obj's folder, as here
                for texture in _statements(_text(real) if is_file(real) else "", None):
                    self.side(texture, folder, here, f"{mtl}: texture map", "texture")

    def side(self, text: str, folder: Path, here: str, by: str, kind: str) -> None:
        """A file a mesh names: beside or below the mesh file, where the mesh loader looks."""
        try:
            inside(folder, text, [folder])
        except Outside:
            try:
                inside(folder, text, [self.root])
            except Outside:
                pass                          # out of the project: add says so
            else:
                self.out.left_out.append(LeftOut(text, by, f"refused: {text} ({by}) is not beside or below "
                                                 "the mesh file, where the mesh loader looks"))
                return
        self.add(text, folder, here, [folder], by, kind)


def _kind_of(name: str) -> str:
    suffix = posixpath.splitext(name)[1].lower()
    return ("texture" if suffix in _IMAGE_SUFFIXES else "mesh" if suffix in _MESH_SUFFIXES else
            "shader" if suffix in _SHADER_SUFFIXES else "file")


def _text(path: Path) -> str:
    try:
        return read_regular(path, _MAX_SCAN).decode("utf-8", errors="replace")
    except (OSError, ValueError):     # missing, a pipe or folder, too large: nothing to scan
        return ""


def _statements(text: str, keys) -> list[str]:
    """The file names of an OBJ's `mtllib` lines (keys), or of an .mtl's texture maps (keys
    None): the rest of the line, as trimesh reads it; with map options (`-s 1 1 1 x.png`),
    the last word."""
    names = []
    for line in text.splitlines():
        words = line.split()
        if len(words) < 2:
            continue
        key = words[0].lower()
        if (key in keys) if keys else (key.startswith("map_") or key in _MTL_MAPS):
            rest = line.strip()[len(words[0]):].strip()
            names.append(words[-1] if rest.startswith("-") else rest)
    return names


def _gltf_json(path: Path):
    """The JSON of a .gltf, or of a .glb's first chunk; None when it is neither."""
    try:
        data = read_regular(path, _MAX_SCAN)
        if path.suffix.lower() == ".glb":
            if len(data) < 20 or data[:4] != b"glTF":
                return None
            length, kind = struct.unpack_from("<II", data, 12)
            if kind != 0x4E4F534A:           # "JSON"
                return None
            data = data[20:20 + length]
        return json.loads(data.decode("utf-8"))
    except (OSError, ValueError, struct.error, RecursionError):     # RecursionError: deeply nested JSON
        return None
