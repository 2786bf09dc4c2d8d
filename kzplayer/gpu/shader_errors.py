"""Driver compile/link logs -> Diagnostics at the file and line the user wrote.

Each vendor formats its log differently; one regex per vendor reads (source string, line,
column?, message); `Source.locate` turns the reported (source string, line) back into the
stock or custom .glsl file and its line (see kzplayer.gpu.preprocessor).
"""
from __future__ import annotations

import re
from dataclasses import replace

import moderngl

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.gpu.preprocessor import Source
from kzplayer.gpu.shader_limits import check_compilable, compiling

_VENDOR_PATTERNS = (
    # Mesa: "0:12(3): error: `foo' undeclared"
    re.compile(r"^\s*(?P<file>\d+):(?P<line>\d+)\((?P<col>\d+)\):\s*(?P<sev>error|warning)\s*:?\s*(?P<msg>.*)$"),
    # NVIDIA: "0(12) : error C1008: undefined variable "foo""
    re.compile(r"^\s*(?P<file>\d+)\((?P<line>\d+)\)\s*:\s*(?P<sev>error|warning)\s*(?:C\d+)?\s*:?\s*(?P<msg>.*)$"),
    # AMD, Intel (Windows), ANGLE, glslang: "ERROR: 0:12: 'foo' : undeclared identifier"
    re.compile(r"^\s*(?P<sev>ERROR|WARNING):\s*(?P<file>\d+):(?P<line>\d+):\s*(?P<msg>.*)$"),
)


def parse_log(log: str, source: Source) -> list[Diagnostic]:
    """Every error of a driver log as a `shader.compile` Diagnostic; lines that no
    pattern reads are kept in one diagnostic so nothing the driver said is lost."""
    found: list[Diagnostic] = []
    unread: list[str] = []
    for raw in log.splitlines():
        for pattern in _VENDOR_PATTERNS:
            m = pattern.match(raw)
            if m:
                if m.group("sev").lower() != "error":
                    pass
                elif found and "candidates are:" in found[-1].message and re.search(r"error:\s{2,}", raw):
                    # Mesa lists the candidates of a call on lines of their own
                    found[-1] = replace(found[-1], message=f"{found[-1].message} {m.group('msg').strip()}")
                else:
                    found.append(_diagnostic(m, source))
                break
        else:
            if raw.strip() and not set(raw.strip()) <= {"="} and raw.strip() not in _NOISE:
                unread.append(raw.strip())
    if not found:
        main = source.files.get(max(source.files, default=0), "<shader>")
        found.append(Diagnostic("KZ801", "shader.compile", Severity.ERROR,
                                "shader failed to compile: " + " ".join(unread)[:500], Span(main, 1, 1)))
    return found          # driver order: the first error is usually the cause of the rest


_NOISE = {"GLSL Compiler failed", "compute_shader", "GLSL Linker failed", "vertex_shader",
          "fragment_shader", "geometry_shader"}


def _diagnostic(m: re.Match, source: Source) -> Diagnostic:
    number, reported = int(m.group("file")), int(m.group("line"))
    name, line = source.locate(number, reported)
    col = int(m.groupdict().get("col") or 1) or 1
    text = source.line_text(number, reported)
    if text is not None:      # a driver without columns: the line's first character
        col = column_in_written_line(text, col) if m.groupdict().get("col") else len(text) - len(text.lstrip()) + 1
        col = source.written_column(number, reported, col)      # back through a generator's renames
    return Diagnostic("KZ801", "shader.compile", Severity.ERROR, m.group("msg").strip(),
                      Span(name, line, col))


def column_in_written_line(text: str, col: int) -> int:
    """Mesa counts columns after its preprocessor has folded every run of blanks and
    comments into one space; map such a column (1-based) back to the line as written."""
    origin, i = [], 0
    while i < len(text):
        if text[i] in " \t" or text.startswith(("/*", "//"), i):
            start = i
            while i < len(text) and (text[i] in " \t" or text.startswith(("/*", "//"), i)):
                if text.startswith("//", i):
                    i = len(text)
                elif text.startswith("/*", i):
                    end = text.find("*/", i + 2)
                    i = len(text) if end < 0 else end + 2
                else:
                    i += 1
            origin.append(start)
        else:
            origin.append(i)
            i += 1
    return origin[col - 1] + 1 if 1 <= col <= len(origin) else min(col, len(text) + 1)


def compile_compute(ctx: moderngl.Context, source: Source) -> moderngl.ComputeShader:
    """Compile a preprocessed compute shader; a driver error becomes a KzError whose
    diagnostics point into the right files. What would crash or hang the compiler is
    refused first (kzplayer.gpu.shader_limits)."""
    check_compilable(source)
    try:
        with compiling():
            return ctx.compute_shader(source.text)
    except Exception as exc:  # moderngl raises a bare Error carrying the driver log
        raise KzError(parse_log(str(exc), source), exit_code=1) from None
