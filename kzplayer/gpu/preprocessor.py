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

Programs put together from several files (the generated particle programs) are built by
kzplayer.gpu.program_builder on the same numbering.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.gpu.glsl import map_column
from kzplayer.project.assets import INCLUDE as _INCLUDE       # one reading of the line (convert's too)
from kzplayer.project.files import Outside, inside, is_file, read_regular
from kzplayer.resources import shader_dir

MAX_DEPTH = 32
MAX_SHADER_BYTES = 1 << 20           # one shader file: 1 MiB (10 MB compiled for minutes)
MAX_PROGRAM_BYTES = 4 << 20          # one program after its includes
# a file of MAX_SHADER_BYTES holds at most MAX_SHADER_BYTES + 1 lines, so the stride always
# exceeds a file's line count; K*LINE_STRIDE+N must stay a 32-bit int for the driver
LINE_STRIDE = 2_000_000
MAX_FILES = (2**31 - 1) // LINE_STRIDE - 1
GLSL_VERSION = "#version 430"

VERSION_LINE = re.compile(r"^\s*#\s*version\b")


@dataclass
class Source:
    """Preprocessed GLSL ready for the driver, and the file of each source-string number."""
    text: str
    files: dict[int, str] = field(default_factory=dict)
    lines: dict[int, list[str]] = field(default_factory=dict)    # each file's text as compiled, by number
    # per file number and line index: where the columns of a renamed line came from
    colmaps: dict[int, dict[int, list]] = field(default_factory=dict)
    # every file read into it (resolved): a live save recompiles the programs that hold it
    paths: frozenset = frozenset()

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
        cmap = self.colmaps.get(self._number(source_number, line), {}).get(line % LINE_STRIDE - 1)
        return map_column(cmap, col - 1) + 1 if cmap else col

    @staticmethod
    def _number(source_number: int, line: int) -> int:
        return line // LINE_STRIDE if line >= LINE_STRIDE else source_number


def line_directive(line: int, file_id: int) -> str:
    if not 0 <= line < LINE_STRIDE:
        raise shader_error(f"a shader file of more than {LINE_STRIDE - 1:,} lines", None)
    if file_id > MAX_FILES:
        raise shader_error(f"a program of more than {MAX_FILES:,} files", None)
    return f"#line {file_id * LINE_STRIDE + line} {file_id}"


def check_program_size(text: str, where: Span) -> None:
    """A program after its includes is at most MAX_PROGRAM_BYTES (the compile time grows
    with it); `where`: the material or file it is reported at."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_PROGRAM_BYTES:
        raise shader_error(f"the program is {size / 2**20:,.1f} MiB after its includes, more than "
                           f"the {MAX_PROGRAM_BYTES / 2**20:,.0f} MiB a program may be", where)


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
        main_lines = read_shader(path, None).splitlines()
        version = GLSL_VERSION
        first = 0
        if main_lines and VERSION_LINE.match(main_lines[0]):
            version, first = main_lines[0].strip(), 1
        self.out.append(version)
        for name, value in self.defines.items():
            self.out.append(f"#define {name} {glsl_literal(value)}".rstrip())
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
        text = "\n".join(self.out) + "\n"
        check_program_size(text, Span(self.files[fid], 1, 1))
        return Source(text, dict(self.files), self.lines, paths=frozenset(self.ids))

    def _file_id(self, path: Path, name: str) -> int:
        if path not in self.ids:
            self.ids[path] = len(self.files)
            self.files[self.ids[path]] = name
        return self.ids[path]

    def _lines(self, lines: list[str], path: Path, fid: int, chain: list[Path], start: int = 1):
        for number, line in enumerate(lines, start):
            m = _INCLUDE.match(line)
            if m is None:
                self.out.append("" if (VERSION_LINE.match(line) and chain[1:]) else line)
                continue
            where = Span(self.files[fid], number, line.index("#") + 1, number, len(line) + 1)
            target = self._find(m.group(1), path.parent, where)
            if target in chain:
                cycle = " -> ".join(p.name for p in (*chain, target))
                raise shader_error(f"#include cycle: {cycle}", where)
            if len(chain) >= MAX_DEPTH:
                raise shader_error(f"#include nested deeper than {MAX_DEPTH} files", where)
            if target in self.included:
                # not "#include" in the comment: moderngl expands includes of its own, comments too
                self.out.append(f'// "{m.group(1)}" is already included')
                continue
            self.included.add(target)
            tid = self._file_id(target, library_name(target))
            self.lines[tid] = read_shader(target, where).splitlines()
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
        raise shader_error(f"{refused}, or in kzplayer's shader library", where)
    raise shader_error(f'#include "{name}": no such file beside {where.file} or in the shader library', where)


def library_name(path: Path) -> str:
    """`shaders/Particles/x.glsl` for library files, the full path for others."""
    try:
        return "shaders/" + path.relative_to(shader_dir().resolve()).as_posix()
    except ValueError:
        return str(path)


def read_shader(path: Path, where: Span | None) -> str:
    """A shader file's text: a regular file (a pipe, device or folder refused before it is
    opened) of at most MAX_SHADER_BYTES, read bounded (kzplayer.project.files.read_regular)."""
    try:
        return read_regular(path, MAX_SHADER_BYTES, "the file").decode("utf-8")
    except ValueError as exc:      # UnicodeDecodeError is one too
        reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
        raise shader_error(f"cannot read shader {path}: {reason}", where, fallback_file=str(path)) from None
    except OSError as exc:
        raise shader_error(f"cannot read shader {path}: {exc.__class__.__name__}", where,
                     fallback_file=str(path)) from None


def glsl_literal(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value) if "." in repr(value) or "e" in repr(value) else f"{value}.0"
    return str(value)


def shader_error(message: str, where: Span | None, fallback_file: str = "") -> KzError:
    span = where or Span(fallback_file, 1, 1)
    return KzError(Diagnostic("KZ801", "shader.compile", Severity.ERROR, message, span), exit_code=1)
