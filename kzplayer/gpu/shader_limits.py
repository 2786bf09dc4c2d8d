"""What the GL compiler is never handed (docs/hardening.md, "Shaders"): the program shapes
that crash a driver's compiler or keep it busy for minutes, told from the preprocessed text
before the driver sees it, so that a custom shader can neither take kzplayer down nor hang
it. Measured on Mesa's llvmpipe (issue 21):

* a macro bomb (`#define A1 (A0+A0)`, 16 levels) compiles for more than 2 minutes, 24 levels
  crash; what each macro expands to is counted (sizes only, never expanded), so the check
  is linear in the text;
* one long expression: 10,000 terms compile in 18 s, 14,000 (70 KB) crash (SIGSEGV: the
  compiler recurses once per operator);
* a chain of function calls 3,000 deep takes 66 s and 8.7 GB (every call is inlined), a
  function that calls the one before it twice, 15 levels deep (390,000 tokens inlined), 22 s,
  30 levels more than 23 GB;
* a local array of 100,000,000 floats takes 1.6 GB;
* 10,000 nested brackets are the compiler's own error ("memory exhausted").

`check_compilable(source)` raises the preprocessor's `shader.compile` KzError at the file
and line of the user's text (the `#line` numbering, kzplayer.gpu.preprocessor) for the
first limit a program goes past. The library's own programs stay far below every limit.
"""
from __future__ import annotations

import re
import time
from collections import Counter
from contextlib import contextmanager

from kzplayer.diagnostics import Span
from kzplayer.gpu.preprocessor import LINE_STRIDE, Source, shader_error
from kzplayer.gpu.shader_macros import MAX_MACRO_DEPTH, TOKEN as _TOKEN, Macros, TooDeep, evaluate

MAX_STATEMENT_TOKENS = 12_000      # one statement after its macros (2,000 terms compile in 0.7 s)
MAX_PROGRAM_TOKENS = 3_000_000     # the whole program after its macros
MAX_NESTING = 256                  # (, [ and { inside one another
MAX_CALL_DEPTH = 64                # a chain of calls between the program's functions (300: 0.5 s)
MAX_INLINED_TOKENS = 200_000       # a function with every call inlined, as the compiler does
                                   # (the library's largest: 61,000; 390,000 compile in 22 s)
MAX_ARRAY_ELEMENTS = 1 << 20       # one declared array, all its dimensions

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_DEFINE = re.compile(r"\s*#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?(.*)$")
_UNDEF = re.compile(r"\s*#\s*undef\s+([A-Za-z_]\w*)")
_IF = re.compile(r"\s*#\s*(?:el)?if\b(.*)$")
_LINE = re.compile(r"\s*#\s*line\s+(\d+)(?:\s+(\d+))?")
_TYPES = {"float", "double", "int", "uint", "bool", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4",
          "uvec2", "uvec3", "uvec4", "bvec2", "bvec3", "bvec4", "dvec2", "dvec3", "dvec4",
          "mat2", "mat3", "mat4", "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4",
          "mat4x2", "mat4x3", "mat4x4", "dmat2", "dmat3", "dmat4"}
_PUNCT = frozenset("()[]{};")
_KEYWORDS = {"if", "for", "while", "switch", "return", "do", "else", "case"}


class CompileClock:
    """Seconds spent in the GL compiler over the run (`compiling()` around every compile):
    the frame budget leaves them out, so the first frame is bounded as every other."""
    seconds = 0.0


@contextmanager
def compiling():
    start = time.perf_counter()
    try:
        yield
    finally:
        CompileClock.seconds += time.perf_counter() - start


def check_compilable(source: Source) -> None:
    """Raises shader.compile (KzError) at the user's file and line when `source` goes past
    one of the limits above; returns None otherwise."""
    _Scan(source).run()


class _Scan:
    def __init__(self, source: Source):
        self.source = source
        self.macros = Macros(MAX_PROGRAM_TOKENS)
        self.file, self.line = 0, 0
        self.depth = 0
        self.total = 0
        self.statement: list[str] = []
        self.start: tuple[int, int, int] | None = None        # where an #if is
        self.chunk: tuple[int, int, str] = (0, 1, "")         # the code lines being scanned
        self.pending = None                                   # (chunk, token) a statement began at
        self.function: str | None = None                     # the function whose body is open
        self.own: dict[str, int] = {}                         # tokens of each function's body
        self.calls: dict[str, Counter] = {}                   # every name a body uses, how often
        self.where: dict[str, tuple] = {}                     # (chunk, token) of each function
        self.consts: dict[str, int] = {}
        self.structs: set[str] = set()

    def size(self, tokens: list) -> int:
        try:
            return self.macros.size(tokens)
        except TooDeep:
            self.fail(f"macros expanding inside one another more than {MAX_MACRO_DEPTH} deep", self.start)

    def fail(self, message: str, at: tuple[int, int, int] | None) -> None:
        file_id, line, col = at or (self.file, self.line, 1)
        encoded = file_id * LINE_STRIDE + line
        name, n = self.source.locate(file_id, encoded)
        col = self.source.written_column(file_id, encoded, col)
        raise shader_error(f"{message}; kzplayer does not hand it to the GL compiler, whose crash or "
                           "minutes of work it would be", Span(name, max(n, 1), max(col, 1)))

    def at(self, k: int) -> tuple[int, int, int]:
        """(file, line, column) of token `k` of the chunk of code lines being scanned (found
        again only for a message)."""
        file_id, first, text = self.chunk
        for i, m in enumerate(_TOKEN.finditer(text)):
            if i == k:
                before = text[:m.start()]
                return file_id, first + before.count("\n"), m.start() - before.rfind("\n")
        return file_id, first, 1

    def run(self) -> None:
        text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n") + " ", self.source.text)
        lines = text.split("\n")
        n, code = 0, []
        while n < len(lines):
            line = lines[n]
            if not line.lstrip().startswith("#"):
                code.append(line)
                n += 1
                continue
            self.code(code)
            code = []
            joined = 0
            while line.endswith("\\") and n + 1 < len(lines):      # a directive's continuation
                n += 1
                joined += 1
                line = line[:-1] + lines[n]
            self.line += 1
            self.directive(line)
            self.line += joined
            n += 1
        self.code(code)
        self.graph()

    def directive(self, line: str) -> None:
        if m := _LINE.match(line):
            number = int(m.group(1))
            self.file = number // LINE_STRIDE if number >= LINE_STRIDE else int(m.group(2) or self.file)
            self.line = number % LINE_STRIDE - 1
        elif m := _DEFINE.match(line):
            self.macros.define(m.group(1), m.group(3) if m.group(2) else None, m.group(4))
        elif m := _UNDEF.match(line):
            self.macros.undef(m.group(1))
        elif m := _IF.match(line):
            self.start = (self.file, self.line, 1)
            if self.size(_TOKEN.findall(m.group(1))) > MAX_STATEMENT_TOKENS:
                self.fail(f"an #if of more than {MAX_STATEMENT_TOKENS:,} tokens after its macros", None)

    def code(self, lines: list[str]) -> None:
        """A run of code lines (no directive among them), as one token list."""
        if not lines:
            return
        text = "\n".join(lines)
        self.chunk = (self.file, self.line + 1, text)
        self.line += len(lines)
        tokens = _TOKEN.findall(text)
        first = 0                       # where the open statement starts in `tokens`
        depth = self.depth
        for k, tok in enumerate(tokens):
            if tok not in _PUNCT:
                continue
            if tok in "([{":
                depth += 1
                if depth > MAX_NESTING:
                    self.fail(f"brackets nested more than {MAX_NESTING} deep", self.at(k))
            elif tok in ")]}":
                depth = max(depth - 1, 0)
            if tok in ";{}":
                self.depth = depth
                self.statement.extend(tokens[first:k])
                self.end(tok, first)
                first = k + 1
        self.depth = depth
        if first < len(tokens):
            if not self.statement:
                self.pending = (self.chunk, first)
            self.statement.extend(tokens[first:])

    def end(self, tok: str, first: int) -> None:
        """The statement ends at `tok`; it began at token `first` of this chunk, or where
        `pending` says."""
        stmt = self.statement
        size = len(stmt) if self.macros.names.isdisjoint(stmt) else self.size(stmt)
        if size > MAX_STATEMENT_TOKENS:
            self.fail(f"a statement of more than {MAX_STATEMENT_TOKENS:,} tokens after its macros "
                      "(one expression too long, or a macro that expands too far)", self.where_statement(first))
        self.total += size
        if self.total > MAX_PROGRAM_TOKENS:
            self.fail(f"a program of more than {MAX_PROGRAM_TOKENS:,} tokens after its macros",
                      self.where_statement(first))
        if "[" in stmt or (stmt and stmt[0] == "const"):
            self.arrays(stmt, first)
        if tok == "{" and self.depth == 1 and self.function is None:
            self.open_function(stmt, first)
        elif self.function is not None:
            self.own[self.function] += size + 1
            self.calls[self.function].update(stmt)
            if tok == "}" and self.depth == 0:
                self.function = None
        self.statement = []
        self.pending = None

    def where_statement(self, first: int, began=None) -> tuple[int, int, int]:
        """Where the statement that just ended starts (it may have begun in an earlier chunk);
        `began`: a (chunk, token) kept from before."""
        if (began or self.pending) is not None:
            chunk, k = began or self.pending
            now, self.chunk = self.chunk, chunk
            try:
                return self.at(k)
            finally:
                self.chunk = now
        return self.at(first)

    def open_function(self, stmt: list[str], first: int) -> None:
        if len(stmt) >= 2 and stmt[0] == "struct":
            self.structs.add(stmt[1])
            return
        if not stmt or stmt[-1] != ")":
            return                             # a buffer or uniform block, an initializer
        depth, j = 0, len(stmt) - 1
        for j in range(len(stmt) - 1, -1, -1):
            depth += (stmt[j] == ")") - (stmt[j] == "(")
            if depth == 0:
                break
        if j == 0:
            return
        name = stmt[j - 1]
        self.function = name
        self.own.setdefault(name, 0)
        self.calls.setdefault(name, Counter())
        self.where.setdefault(name, self.pending or (self.chunk, first))     # found again only to fail

    def arrays(self, stmt: list[str], first: int) -> None:
        if len(stmt) >= 4 and stmt[0] == "const" and stmt[1] in ("int", "uint") and stmt[3] == "=":
            value = evaluate(self.macros.constant(stmt[4:], self.consts))
            if value is not None:
                self.consts[stmt[2]] = value
        for i, tok in enumerate(stmt):
            if tok != "[" or i == 0:
                continue
            before = stmt[i - 1]
            declared = before in _TYPES or before in self.structs or (
                i >= 2 and (stmt[i - 2] in _TYPES or stmt[i - 2] in self.structs) and before not in _KEYWORDS)
            if not declared:
                continue
            count, j = 1, i
            while j < len(stmt) and stmt[j] == "[":
                close = _closing(stmt, j)
                value = evaluate(self.macros.constant(stmt[j + 1:close], self.consts)) if close > j + 1 else None
                count *= value if value and value > 0 else 1
                j = close + 1
            if count > MAX_ARRAY_ELEMENTS:
                self.fail(f"an array of {count:,} elements, more than {MAX_ARRAY_ELEMENTS:,}",
                          self.where_statement(first))

    def graph(self) -> None:
        """The longest chain of calls and the size of each function with its calls inlined,
        without recursion (a chain may be thousands of functions long)."""
        self.depths = depth = {}                 # kept for the figures of docs/hardening.md
        self.inlined = inlined = {}
        for root in self.own:
            if root in depth:
                continue
            stack = [(root, iter(sorted(self.calls[root].keys() & self.own.keys())))]
            seen = {root}
            while stack:
                name, callees = stack[-1]
                callee = next(callees, None)
                if callee is None:
                    stack.pop()
                    seen.discard(name)
                    done = [c for c in self.calls[name] if c in depth and c != name]
                    depth[name] = 1 + max((depth[c] for c in done), default=0)
                    calls = self.calls[name]
                    inlined[name] = min(self.own[name] + sum(calls[c] * inlined[c] for c in done),
                                        MAX_INLINED_TOKENS + 1)
                    if depth[name] > MAX_CALL_DEPTH:
                        self.fail(f"function {_written(name)} starts a chain of {depth[name]:,} calls, more than "
                                  f"{MAX_CALL_DEPTH}", self.where_statement(0, self.where[name]))
                    if inlined[name] > MAX_INLINED_TOKENS:
                        self.fail(f"function {_written(name)} is more than {MAX_INLINED_TOKENS:,} tokens with its calls "
                                  "inlined (as the compiler inlines them)", self.where_statement(0, self.where[name]))
                elif callee not in depth and callee not in seen:       # a cycle: the compiler's error
                    seen.add(callee)
                    stack.append((callee, iter(sorted(self.calls[callee].keys() & self.own.keys()))))


def _written(name: str) -> str:
    """A function's name as its material's file has it (kzplayer.gpu.variants prefixes the
    names of each material inlined into a program: kz_a0_f is f)."""
    return re.sub(r"^kz_[a-z]\d+_", "", name)


def _closing(tokens: list[str], i: int) -> int:
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j] == "["
        depth -= tokens[j] == "]"
        if depth == 0:
            return j
    return len(tokens)
