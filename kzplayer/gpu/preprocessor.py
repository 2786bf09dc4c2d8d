"""The shader preprocessor: `#include` resolved recursively with `#line` mapping.

GLSL has no includes, and a driver reports errors as (source-string number, line). So every
file that goes into a program gets a number K, and the text is framed with `#line` directives
before an included file and after it (to resume the includer). `Source.files[K]` maps the
number back to the file, which is how a driver error is reported at the right line of the
right file (kzplayer.gpu.shader_errors).

The number K is written twice: as the source-string number and inside the line number,
`#line K*LINE_STRIDE+N K`. Mesa drops the source-string number for errors located on
grammar rules (bison's default location merge does not copy it: `0:4(37): error` for an
error in file 7), while every driver keeps line numbers; `Source.locate` decodes the line.

Rules:
* `#version` stays on the first line; a file without one gets `#version 430`. A `#version`
  in an included file is blanked (the line is kept so numbers do not move).
* `#define`s given by the caller come right after `#version`.
* `#include "X"` looks beside the including file first, then in the shader library
  (`shaders/`, so `#include "Particles/accessors.glsl"` works from anywhere). Only the
  shader library and the folders the caller allows (a custom material's project folder)
  are read: an absolute path, a `..` that leaves them or a link that points out is refused
  before the file is opened (kzplayer.project.files), so no message shows what it holds.
* A file is included once per program (a second `#include` of it is a no-op, like an
  include guard); an include cycle or a chain deeper than MAX_DEPTH is an error.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.project.assets import INCLUDE as _INCLUDE       # one reading of the line (convert's too)
from kzplayer.project.files import Outside, inside, is_file
from kzplayer.resources import shader_dir

MAX_DEPTH = 32
LINE_STRIDE = 100000         # files up to 99,999 lines
GLSL_VERSION = "#version 430"

_VERSION = re.compile(r"^\s*#\s*version\b")


@dataclass
class Source:
    """Preprocessed GLSL ready for the driver, and the file of each source-string number."""
    text: str
    files: dict[int, str] = field(default_factory=dict)
    lines: dict[int, list[str]] = field(default_factory=dict)    # each file's text as compiled, by number
    # per file number and line index: where the columns of a renamed line came from
    colmaps: dict[int, dict[int, list]] = field(default_factory=dict)

    def locate(self, source_number: int, line: int) -> tuple[str, int]:
        """(file, line) of a line a driver reported."""
        return self.files.get(self._number(source_number, line), f"<source string {source_number}>"), line % LINE_STRIDE

    def line_text(self, source_number: int, line: int) -> str | None:
        """The text the user wrote on a line a driver reported (None if unknown)."""
        lines = self.lines.get(self._number(source_number, line), [])
        n = line % LINE_STRIDE
        return lines[n - 1] if 1 <= n <= len(lines) else None

    def written_column(self, source_number: int, line: int, col: int) -> int:
        """A 1-based column of a compiled line -> the column in the line as the user wrote
        it (the program generator renames identifiers in material files)."""
        from kzplayer.gpu.glsl import map_column
        cmap = self.colmaps.get(self._number(source_number, line), {}).get(line % LINE_STRIDE - 1)
        return map_column(cmap, col - 1) + 1 if cmap else col

    @staticmethod
    def _number(source_number: int, line: int) -> int:
        return line // LINE_STRIDE if line >= LINE_STRIDE else source_number


def line_directive(line: int, file_id: int) -> str:
    return f"#line {file_id * LINE_STRIDE + line} {file_id}"


def preprocess(path: str | Path, defines: dict[str, object] | None = None,
               display_name: str | None = None, prelude: str = "", roots=None) -> Source:
    """Preprocess the file at `path`. `display_name` is how the file is named in messages
    (a project-relative path for a custom material). `prelude` is GLSL placed after the
    defines, before the file (it may hold #includes; its own number is -1 and it is
    reported as "<prelude>"). `roots`: the folders besides the shader library that
    includes may read (a custom material's project folder); by default the folder of
    `path` and below."""
    roots = (Path(path).resolve().parent,) if roots is None else tuple(roots)
    return _Preprocessor(defines or {}, roots).run(Path(path), display_name, prelude)


class _Preprocessor:
    def __init__(self, defines: dict[str, object], roots=()):
        self.defines = defines
        self.roots = (*roots, shader_dir())
        self.files: dict[int, str] = {}
        self.ids: dict[Path, int] = {}
        self.included: set[Path] = set()
        self.out: list[str] = []
        self.lines: dict[int, list[str]] = {}

    def run(self, path: Path, display_name: str | None, prelude: str) -> Source:
        main_lines = _read(path, None).splitlines()
        version = GLSL_VERSION
        first = 0
        if main_lines and _VERSION.match(main_lines[0]):
            version, first = main_lines[0].strip(), 1
        self.out.append(version)
        for name, value in self.defines.items():
            self.out.append(f"#define {name} {_glsl_literal(value)}".rstrip())
        if prelude:
            self.files[0] = "<prelude>"
            self.lines[0] = prelude.splitlines()
            self.out.append(line_directive(1, 0))
            self._lines(prelude.splitlines(), Path.cwd() / "<prelude>", 0, [])
        main = path.resolve()
        self.included.add(main)
        fid = self._file_id(main, display_name or str(path))
        self.lines[fid] = main_lines
        self.out.append(line_directive(first + 1, fid))
        self._lines(main_lines[first:], main, fid, [main], start=first + 1)
        return Source("\n".join(self.out) + "\n", dict(self.files), self.lines)

    def _file_id(self, path: Path, name: str) -> int:
        if path not in self.ids:
            self.ids[path] = len(self.files)
            self.files[self.ids[path]] = name
        return self.ids[path]

    def _lines(self, lines: list[str], path: Path, fid: int, chain: list[Path], start: int = 1):
        for number, line in enumerate(lines, start):
            m = _INCLUDE.match(line)
            if m is None:
                self.out.append("" if (_VERSION.match(line) and chain[1:]) else line)
                continue
            where = Span(self.files[fid], number, line.index("#") + 1, number, len(line) + 1)
            target = self._find(m.group(1), path.parent, where)
            if target in chain:
                cycle = " -> ".join(p.name for p in (*chain, target))
                raise _error(f"#include cycle: {cycle}", where)
            if len(chain) >= MAX_DEPTH:
                raise _error(f"#include nested deeper than {MAX_DEPTH} files", where)
            if target in self.included:
                # not "#include" in the comment: moderngl expands includes of its own, comments too
                self.out.append(f'// "{m.group(1)}" is already included')
                continue
            self.included.add(target)
            tid = self._file_id(target, _library_name(target))
            self.lines[tid] = _read(target, where).splitlines()
            self.out.append(line_directive(1, tid))
            self._lines(self.lines[tid], target, tid, [*chain, target])
            self.out.append(line_directive(number + 1, fid))

    def _find(self, name: str, here: Path, where: Span) -> Path:
        return find_include(name, here, where, self.roots)


def find_include(name: str, here: Path, where: Span, roots) -> Path:
    """The file `#include "name"` means: beside the including file (`here`), inside one of
    `roots`, then in the shader library; refused (shader.compile at the include, the file
    never opened) when it would lie elsewhere: kzplayer.project.files.inside."""
    refused = None
    for base, allowed in ((here, (*roots, shader_dir())), (shader_dir(), (shader_dir(),))):
        try:
            candidate = inside(base, name, allowed, f'#include "{name}"')
        except Outside as exc:
            refused = refused or exc
            continue
        if is_file(candidate):
            return candidate
    if refused is not None:
        raise _error(f"{refused}, or in kzplayer's shader library", where)
    raise _error(f'#include "{name}": no such file beside {where.file} or in the shader library', where)


def _library_name(path: Path) -> str:
    """`shaders/Particles/x.glsl` for library files, the full path for others."""
    try:
        return "shaders/" + path.relative_to(shader_dir().resolve()).as_posix()
    except ValueError:
        return str(path)


def _read(path: Path, where: Span | None) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _error(f"cannot read shader {path}: {exc.__class__.__name__}", where,
                     fallback_file=str(path)) from None


def _glsl_literal(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value) if "." in repr(value) or "e" in repr(value) else f"{value}.0"
    return str(value)


def _error(message: str, where: Span | None, fallback_file: str = "") -> KzError:
    span = where or Span(fallback_file, 1, 1)
    return KzError(Diagnostic("KZ801", "shader.compile", Severity.ERROR, message, span), exit_code=1)


# -- programs generated from several files -----------------------------------------------------

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
            files.update(self._node_files(head, _library_name(head)))
        files.update(self._node_files(path, display))
        from kzplayer.gpu import glsl
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

    def source(self) -> Source:
        head = [self.version] + [f"#define {k} {_glsl_literal(v)}".rstrip() for k, v in self.defines.items()]
        body = [line for name in self.SECTIONS for line in self.out[name]]
        return Source("\n".join(head + body) + "\n", dict(self.files), dict(self.lines),
                      {k: v for k, v in self.colmaps.items() if v})

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
        lines = _read(target, None).splitlines()
        fid = self._new_id(_library_name(target), lines)
        out = self.out[section]
        out.append(line_directive(1, fid))
        for number, line in enumerate(lines, 1):
            m = _INCLUDE.match(line)
            if m is None:
                out.append("" if _VERSION.match(line) else line)
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
            from kzplayer.gpu import glsl
            shared = False
            try:
                path.relative_to(shader_dir().resolve())
                d = glsl.scan(_read(path, None).splitlines())
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
            lines = _read(file, where).splitlines()
            files[file] = (name, lines)
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
                    visit(inner, _library_name(inner), [*chain, inner], at)
        visit(path, display, [path], None)
        return files

    def _emit_node_file(self, file: Path, files, scans, renames, emitted: set[Path]) -> None:
        from kzplayer.gpu import glsl
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
                out.append("" if _VERSION.match(line) else line)
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
            raise _error(f"#include cycle: {cycle}", where)
        if len(chain) >= MAX_DEPTH:
            raise _error(f"#include nested deeper than {MAX_DEPTH} files", where)

    def _find(self, name: str, here: Path, where: Span) -> Path:
        return find_include(name, here, where, self.roots)
