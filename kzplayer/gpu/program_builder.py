"""Programs put together from several parts, keeping `#line` mapping for every part.

The generated particle programs (kzplayer.gpu.generate) are made of generated text, library
files, material files renamed per node and the stage skeletons of `shaders/Particles/`
(`stage_*_main.glsl`), whose splice points the generator fills. Every part gets a file
number of its own, so `Source.locate` (kzplayer.gpu.preprocessor) reports a driver error at
the line of the part it is in, and `Source.written_column` at the column as written.

A splice point is a line of its own in a stage file:

    #splice NAME

It is replaced by the generator's text for NAME (indented as the marker, numbered as a
file of its own, `<generated: ... NAME>`); an empty text leaves a blank line. The stage
file's own lines keep their numbers. A point without text, or text without a point, is an
error: a skeleton and its generator change together.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.diagnostics import Span
from kzplayer.gpu import glsl
from kzplayer.gpu.preprocessor import (GLSL_VERSION, MAX_DEPTH, VERSION_LINE, Source, check_program_size,
                                       find_include, glsl_literal, library_name, line_directive, read_shader, shader_error)
from kzplayer.project.assets import INCLUDE as _INCLUDE
from kzplayer.resources import shader_dir

SPLICE = re.compile(r"^(\s*)#\s*splice\s+([A-Z][A-Z0-9_]*)\s*$")


@dataclass
class Node:
    """One material inlined into a generated program under `prefix` (kzplayer.gpu.generate):
    its parameters (the `uniform`s of its files, now globals `prefix + name`), its per-step
    constants (KZ_PER_STEP globals), the functions it defines and whether it touches the
    particle storage blocks directly (not through the accessors)."""
    prefix: str
    display: str
    uniforms: list = field(default_factory=list)      # glsl.Uniform, in declaration order
    per_step: list = field(default_factory=list)      # (name, type)
    functions: set = field(default_factory=set)
    indexed: set = field(default_factory=set)         # identifiers used as arrays (raw access)
    identifiers: set = field(default_factory=set)

    def name(self, original: str) -> str:
        return self.prefix + original


class ProgramBuilder:
    """Builds one program from generated text, library includes and material files, keeping
    `#line` mapping for all of them (Source.files / lines / colmaps).

    Library files without parameters (random, noise, accessors, velocity...) are included
    once per program, like `#include`. A material (`node`) is included once per node: its
    own file and every include of it that declares parameters or hooks (emitter_common,
    collider_solid, a custom helper beside it) are renamed with the node's prefix, their
    `uniform` and `KZ_PER_STEP` declarations blanked and declared again as plain globals,
    and the library files they include are hoisted in front of all nodes. Sections keep the
    order prelude, library, nodes, main whatever order the parts are added in."""

    SECTIONS = ("prelude", "shared", "nodes", "main")

    def __init__(self, defines: dict[str, object] | None = None, version: str = GLSL_VERSION):
        self.roots: list[Path] = []      # besides the library: the folders the nodes' includes may read
        self.out = {name: [] for name in self.SECTIONS}
        self.files: dict[int, str] = {}
        self.lines: dict[int, list[str]] = {}
        self.colmaps: dict[int, dict[int, list]] = {}
        self.included: set[Path] = set()
        self.paths: set[Path] = set()   # every file read (Source.paths: what a shader save recompiles)
        self.version = version
        self.defines = dict(defines or {})
        self._shared_cache: dict[Path, bool] = {}

    # -- parts ---------------------------------------------------------------------------

    def text(self, section: str, text: str, name: str) -> None:
        """Generated GLSL (its own file number; errors in it are kzplayer's)."""
        lines = text.splitlines()
        fid = self._new_id(name, lines)
        self.out[section].append(line_directive(1, fid))
        self.out[section].extend(lines)

    def include(self, section: str, name: str) -> None:
        """`#include "name"` from the shader library, once per program."""
        where = Span("<generated>", 1, 1)
        target = self._find(name, shader_dir(), where)
        self._shared(target, section, [target])

    def node(self, path: str | Path, display: str, prefix: str, before=(), root=None) -> Node:
        """Inline a material file (and its own includes) under `prefix`; `before`: library
        files of the slot (Particles/collider_stage.glsl) inlined with it, first. `root`: the
        folder its includes may read besides the library (a custom material's project
        folder; default the file's own folder)."""
        path = Path(path).resolve()
        allowed = Path(root).resolve() if root is not None else path.parent
        if allowed not in self.roots:
            self.roots.append(allowed)
        heads = [self._find(name, shader_dir(), Span(display, 1, 1)) for name in before]
        files = {}
        for head in heads:
            files.update(self._node_files(head, library_name(head)))
        files.update(self._node_files(path, display))
        node = Node(prefix, display)
        scans = {}
        for file, (_, lines) in files.items():
            d = glsl.scan(lines)
            scans[file] = d
            node.uniforms.extend(d.uniforms)
            node.per_step.extend((name, type_) for name, type_, _ in d.per_step)
            node.functions |= d.functions | d.prototypes
            node.indexed |= d.indexed
            node.identifiers |= d.identifiers
        names = set().union(*(d.names for d in scans.values())) | \
            {n for d in scans.values() for n in d.opaque_uniforms}
        renames = {n: prefix + n for n in names}
        # the parameters and per-step constants become plain globals of this node
        decls = [f"{u.type} {prefix}{u.name};" for u in node.uniforms]
        decls += [f"{type_} {prefix}{name};" for name, type_ in node.per_step]
        if decls:
            self.text("nodes", "\n".join(decls), f"<parameters of {display}>")
        emitted: set[Path] = set()
        for file in (*heads, path):
            if file not in emitted:
                self._emit_node_file(file, files, scans, renames, emitted)
        return node

    def skeleton(self, section: str, name: str, splices: dict[str, str], label: str) -> None:
        """A stage file of the shader library with its splice points filled (see the module
        docstring); `label` names the generated parts in messages (`<generated: label NAME>`)."""
        target = self._find(name, shader_dir(), Span("<generated>", 1, 1))
        lines = read_shader(target, None).splitlines()
        self.paths.add(target)
        fid = self._new_id(library_name(target), lines)
        out = self.out[section]
        out.append(line_directive(1, fid))
        used = set()
        for number, line in enumerate(lines, 1):
            where = Span(self.files[fid], number, 1, number, len(line) + 1)
            if _INCLUDE.match(line):
                raise shader_error("a stage skeleton includes nothing itself: its program's parts are the generator's", where)
            m = SPLICE.match(line)
            if m is None:
                out.append("" if VERSION_LINE.match(line) else line)
                continue
            indent, point = m.groups()
            if point not in splices:
                raise shader_error(f"splice point {point}: the generator has no text for it", where)
            used.add(point)
            text = [indent + s if s else s for s in splices[point].splitlines()]
            if not text:
                out.append("")
                continue
            gid = self._new_id(f"<generated: {label} {point}>", text)
            out.append(line_directive(1, gid))
            out.extend(text)
            out.append(line_directive(number + 1, fid))
        if set(splices) - used:
            raise shader_error(f"{', '.join(sorted(set(splices) - used))}: no such splice point in {name}",
                         Span(self.files[fid], 1, 1))

    def source(self) -> Source:
        head = [self.version] + [f"#define {k} {glsl_literal(v)}".rstrip() for k, v in self.defines.items()]
        body = [line for name in self.SECTIONS for line in self.out[name]]
        text = "\n".join(head + body) + "\n"
        # reported at the file that holds most of it (a material's, as a rule)
        biggest = max(self.lines, key=lambda k: sum(map(len, self.lines[k])), default=None)
        check_program_size(text, Span(self.files.get(biggest, "<program>"), 1, 1))
        return Source(text, dict(self.files), dict(self.lines),
                      {k: v for k, v in self.colmaps.items() if v}, paths=frozenset(self.paths))

    # -- internals -----------------------------------------------------------------------

    def _new_id(self, name: str, lines: list[str], colmaps: dict | None = None) -> int:
        fid = len(self.files)
        self.files[fid] = name
        self.lines[fid] = lines
        if colmaps:
            self.colmaps[fid] = colmaps
        return fid

    def _shared(self, target: Path, section: str, chain: list[Path]) -> None:
        """Emit a library file once, its own includes first-come (as `preprocess` does)."""
        if target in self.included:
            return
        self.included.add(target)
        self.paths.add(target)
        lines = read_shader(target, None).splitlines()
        fid = self._new_id(library_name(target), lines)
        out = self.out[section]
        out.append(line_directive(1, fid))
        for number, line in enumerate(lines, 1):
            m = _INCLUDE.match(line)
            if m is None:
                out.append("" if VERSION_LINE.match(line) else line)
                continue
            where = Span(self.files[fid], number, line.index("#") + 1, number, len(line) + 1)
            inner = self._find(m.group(1), target.parent, where)
            self._check_chain(inner, chain, where)
            if inner in self.included:
                out.append(f'// "{m.group(1)}" is already included')
                continue
            self._shared(inner, section, [*chain, inner])
            out.append(line_directive(number + 1, fid))

    def _is_library(self, path: Path) -> bool:
        """A file of the shader library that can be shared by every node: it declares no
        parameter, per-step constant or function prototype (a hook a material fills in)."""
        if path not in self._shared_cache:
            shared = False
            try:
                path.relative_to(shader_dir().resolve())
                d = glsl.scan(read_shader(path, None).splitlines())
                shared = not (d.uniforms or d.per_step or d.prototypes)
            except ValueError:
                shared = False          # a user's file: always the node's own
            self._shared_cache[path] = shared
        return self._shared_cache[path]

    def _node_files(self, path: Path, display: str) -> dict[Path, tuple[str, list[str]]]:
        """The node's own files (material first, then its node-scoped includes) as
        {path: (name for messages, lines)}; library includes are hoisted on the way."""
        files: dict[Path, tuple[str, list[str]]] = {}

        def visit(file: Path, name: str, chain: list[Path], where: Span | None):
            if file in files:
                return
            lines = read_shader(file, where).splitlines()
            files[file] = (name, lines)
            self.paths.add(file)
            for number, line in enumerate(lines, 1):
                m = _INCLUDE.match(line)
                if m is None:
                    continue
                at = Span(name, number, line.index("#") + 1, number, len(line) + 1)
                inner = self._find(m.group(1), file.parent, at)
                self._check_chain(inner, chain, at)
                if self._is_library(inner):
                    self._shared(inner, "shared", [inner])
                else:
                    visit(inner, library_name(inner), [*chain, inner], at)
        visit(path, display, [path], None)
        return files

    def _emit_node_file(self, file: Path, files, scans, renames, emitted: set[Path]) -> None:
        emitted.add(file)
        name, lines = files[file]
        d = scans[file]
        blank = [u.span for u in d.uniforms] + [span for _, _, span in d.per_step]
        text = glsl.rewrite(lines, renames, blank)
        fid = self._new_id(name, text.lines, text.colmaps)
        out = self.out["nodes"]
        out.append(line_directive(1, fid))
        for number, line in enumerate(text.lines, 1):
            m = _INCLUDE.match(lines[number - 1])
            if m is None:
                out.append("" if VERSION_LINE.match(line) else line)
                continue
            inner = self._find(m.group(1), file.parent, Span(name, number, 1))
            if inner in files and inner not in emitted:
                self._emit_node_file(inner, files, scans, renames, emitted)
                out.append(line_directive(number + 1, fid))
            else:
                out.append(f'// "{m.group(1)}" is a library file, included once above')

    @staticmethod
    def _check_chain(target: Path, chain: list[Path], where: Span) -> None:
        if target in chain:
            cycle = " -> ".join(p.name for p in (*chain, target))
            raise shader_error(f"#include cycle: {cycle}", where)
        if len(chain) >= MAX_DEPTH:
            raise shader_error(f"#include nested deeper than {MAX_DEPTH} files", where)

    def _find(self, name: str, here: Path, where: Span) -> Path:
        return find_include(name, here, where, self.roots)
