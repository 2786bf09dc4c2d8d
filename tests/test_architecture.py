"""The import graph of `kzplayer/` (issue 24): no circle, no arrow up the pipeline, and an
import inside a function only with a comment saying why it is lazy or optional.

Every module is parsed with `ast` (nothing is imported): module-level imports, imports inside
functions, `from . import x`, `from .. import x`, `import a.b` and `from a import b` where `b`
is a module. An `if TYPE_CHECKING:` block (annotations only) and an `if __name__ ==
"__main__":` block (a module run as a script) never run on import, so their imports are not
edges. `importlib.import_module(...)` with a computed name is not an edge either
(the validator's rule discovery, the package's lazy attributes).

The stages, low to high (an import may point at its own stage or a lower one, never higher):

    rank  stage        modules
    0     shared       kzplayer.diagnostics, codes, values, resources, cycles, transforms, atomic
    1     project      kzplayer.project.*  (files -> model; nothing here knows GL)
    2     meshes       kzplayer.meshes     (a project's mesh files as arrays; no GL)
    3     expr         kzplayer.expr.*     (the expression language)
    4     bindings     kzplayer.bindings.* (a project's bindings, evaluated through expr)
    5     scene        kzplayer.scene.*    (the running scene, between bindings and the GPU)
    6     gpu          kzplayer.gpu.*      (the simulation)
    7     render       kzplayer.render.*   (pictures)
    8     validate     kzplayer.validate.* (the checks)
    9     workflows    kzplayer.effecttest.*, kzplayer.projdiff.* (`kzplayer test`, `diff`)
    10    commands     kzplayer.commands.*, kzplayer.batch.* (each command's work; batches),
                       kzplayer.studio.* (`kzplayer serve`: the browser studio's server)
    11    cli          kzplayer.cli        (option parsing)
    12    facade       kzplayer            (`import kzplayer`: load, sample, the stages)

validate sits above gpu and render because it checks what play will do with the same code:
it compiles the simulation and rendering shaders (gpu.check, render.check) and reads
textures as the renderer does (render.textures); nothing below it imports validate. The
facade (kzplayer/__init__.py) imports down only; the package's own modules never import it.

effecttest (the effect specs of `kzplayer test`) and projdiff (`kzplayer diff`) are workflows
built on validate and render: they load, validate and render a project and compare what comes
out; the commands wrap them in options and exit codes, so they sit between the two. batch
ranks with commands: it orchestrates jobs that are `play` and `test` runs, and reads a job's
frames and size with play's own option parsing (`commands.play.frame_count`, `parse_size`,
`MAX_SIZE`: click parameters whose errors must read as play's do), so one rank holds both;
commands.batch imports batch and batch imports commands.play, never a circle between modules.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kzplayer"

SHARED = ("diagnostics", "codes", "values", "resources", "cycles", "transforms", "atomic")
RANKS: dict[str, int] = {**{f"kzplayer.{m}": 0 for m in SHARED},
                         "kzplayer.project": 1, "kzplayer.meshes": 2, "kzplayer.expr": 3,
                         "kzplayer.bindings": 4, "kzplayer.scene": 5, "kzplayer.gpu": 6,
                         "kzplayer.render": 7, "kzplayer.validate": 8, "kzplayer.effecttest": 9,
                         "kzplayer.projdiff": 9, "kzplayer.commands": 10, "kzplayer.batch": 10,
                         "kzplayer.studio": 10,
                         "kzplayer.cli": 11, "kzplayer": 12}
# Arrows up the table that are by design, each with its reason.
ALLOWED_UP: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Import:
    source: str        # the importing module, dotted
    target: str        # the imported module, dotted (a package's __init__ under its name)
    file: Path
    line: int
    lazy: bool         # inside a function
    explained: bool    # a comment on its lines or the line above

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _never_on_import(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` (annotations only) and `if __name__ == "__main__":` (run as a
    script): blocks that importing the module never runs."""
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return True
    if isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING":
        return True
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and len(test.comparators) == 1
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__")


def _has_comment(lines: list[str], node: ast.stmt) -> bool:
    """A comment (not only `noqa`) on the import's own lines or on the line just above; for
    a run of imports one under another, above the first of them."""
    candidates = lines[node.lineno - 1:node.end_lineno]
    above = node.lineno - 2
    while above >= 0 and lines[above].lstrip().startswith(("from ", "import ")):
        candidates.append(lines[above])
        above -= 1
    if above >= 0 and lines[above].lstrip().startswith("#"):
        candidates.append(lines[above])
    for text in candidates:
        if "#" in text:
            comment = text[text.index("#") + 1:].strip()
            if comment and not comment.lower().startswith(("noqa", "type:")):
                return True
    return False


def imports_of(path: Path, root: Path, modules: set[str]) -> list[Import]:
    """The imports of kzplayer modules in one file, each resolved to the module it loads."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    shown = path.relative_to(root.parent)
    found: list[Import] = []

    def add(target: str, node: ast.stmt, lazy: bool) -> None:
        imp = Import(name, target, shown, node.lineno, lazy, _has_comment(lines, node))
        if target in modules and imp not in found:      # `from m import a, b`: one edge
            found.append(imp)

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _never_on_import(child.test):
                for other in child.orelse:
                    visit_stmt(other, lazy)
                continue
            visit_stmt(child, lazy)

    def visit_stmt(child: ast.AST, lazy: bool) -> None:
        if isinstance(child, ast.Import):
            for alias in child.names:
                add(alias.name, child, lazy)
        elif isinstance(child, ast.ImportFrom):
            if child.level:
                base = package.split(".")
                base = base[:len(base) - (child.level - 1)]
                origin = ".".join(base + ([child.module] if child.module else []))
            else:
                origin = child.module or ""
            for alias in child.names:
                sub = f"{origin}.{alias.name}"
                add(sub if sub in modules else origin, child, lazy)
        inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        visit(child, inner)

    visit(ast.parse(text, filename=str(path)), False)
    return found


def package_imports(root: Path = PACKAGE) -> list[Import]:
    files = sorted(root.rglob("*.py"))
    modules = {module_name(f, root) for f in files}
    return [imp for f in files for imp in imports_of(f, root, modules)]


def graph_of(imports: list[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if imp.target != imp.source:
            graph.setdefault(imp.source, set()).add(imp.target)
            graph.setdefault(imp.target, set())
    return graph


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(v: str) -> None:          # iterative would do too; the graph is ~200 nodes
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(components)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per component, as a path a -> b -> ... -> a (the shortest from its first
    module): breaking it may leave others in the same component, which the message lists."""
    return [_circle_in(graph, set(c)) for c in components(graph)]


def _circle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """The shortest path from the component's first module back to itself (breadth first)."""
    start = min(component)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if v != start else [start, start]
                if w not in previous:
                    previous[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no circle in {component}")


def rank_of(module: str, ranks: dict[str, int] = RANKS) -> int | None:
    """The rank of the longest prefix of `module` in the table (None: not in the table)."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in ranks:
            return ranks[prefix]
    return None


def upward(imports: list[Import], ranks: dict[str, int] = RANKS,
           allowed: dict[tuple[str, str], str] = ALLOWED_UP) -> list[str]:
    out = []
    for imp in imports:
        a, b = rank_of(imp.source, ranks), rank_of(imp.target, ranks)
        if a is not None and b is not None and b > a and (imp.source, imp.target) not in allowed:
            out.append(f"{imp.where()}: {imp.source} (rank {a}) imports {imp.target} (rank {b})")
    return out


def unexplained(imports: list[Import]) -> list[str]:
    return [f"{imp.where()}: {imp.source} imports {imp.target} inside a function without a "
            f"comment saying why it is lazy or optional" for imp in imports
            if imp.lazy and not imp.explained]


# -- the package ------------------------------------------------------------------------------

def test_every_module_has_a_rank():
    modules = {imp.source for imp in package_imports()} | {
        module_name(f, PACKAGE) for f in PACKAGE.rglob("*.py")}
    assert [m for m in sorted(modules) if rank_of(m) is None] == []


def test_no_import_circle():
    graph = graph_of(package_imports())
    found = [f"{' -> '.join(circle)}   (in the circle: {', '.join(members)})"
             for circle, members in zip(cycles(graph), components(graph))]
    assert not found, "import circles:\n" + "\n".join(found)


def test_no_import_up_the_pipeline():
    found = upward(package_imports())
    assert not found, "imports up the pipeline:\n" + "\n".join(found)


def test_imports_inside_functions_say_why():
    found = unexplained(package_imports())
    assert not found, f"{len(found)} unexplained imports inside functions:\n" + "\n".join(found)


# -- the checker itself, on a fake package ----------------------------------------------------

def _fake(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "kzplayer"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_checker_finds_a_circle_through_relative_and_lazy_imports(tmp_path):
    root = _fake(tmp_path, {
        "__init__.py": "",
        "project/__init__.py": "",
        "project/a.py": "from . import b\n",
        "project/b.py": "def f():\n    from kzplayer.project.c import x\n",
        "project/c.py": "import kzplayer.project.a\n",
        "project/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kzplayer.project.a import A\n"
                        "if __name__ == '__main__':\n    from kzplayer.project.b import f\n",
    })
    imports = package_imports(root)
    assert cycles(graph_of(imports)) == [["kzplayer.project.a", "kzplayer.project.b",
                                          "kzplayer.project.c", "kzplayer.project.a"]]
    # the TYPE_CHECKING and __main__ imports are no edges; the lazy one has no comment
    assert not any(i.source == "kzplayer.project.d" for i in imports)
    assert unexplained(imports) == [
        "kzplayer/project/b.py:2: kzplayer.project.b imports kzplayer.project.c inside a "
        "function without a comment saying why it is lazy or optional"]


def test_checker_finds_an_upward_edge_and_accepts_an_explained_lazy_import(tmp_path):
    root = _fake(tmp_path, {
        "__init__.py": "",
        "validate/__init__.py": "",
        "validate/formats.py": "from kzplayer.commands.report import fmt\n",
        "commands/__init__.py": "",
        "commands/report.py": "def fmt():\n    # optional: rich is only needed here\n"
                              "    from kzplayer.validate import formats\n"
                              "    import kzplayer.commands\n",
    })
    imports = package_imports(root)
    assert upward(imports) == ["kzplayer/validate/formats.py:1: kzplayer.validate.formats "
                               "(rank 8) imports kzplayer.commands.report (rank 10)"]
    assert unexplained(imports) == []
    assert cycles(graph_of(imports)) == [["kzplayer.commands.report", "kzplayer.validate.formats",
                                          "kzplayer.commands.report"]]
    assert upward(imports, allowed={("kzplayer.validate.formats", "kzplayer.commands.report"): "x"}) == []


@pytest.mark.parametrize("text, expected", [
    ("from kzplayer.project import model\n", "kzplayer.project.model"),     # a module
    ("from kzplayer.project import load\n", "kzplayer.project"),            # a name in __init__
    ("from .model import Item\n", "kzplayer.project.model"),
    ("from .. import values\n", "kzplayer.values"),
    ("import kzplayer.values as v\n", "kzplayer.values"),
])
def test_checker_resolves_each_form_of_import(tmp_path, text, expected):
    root = _fake(tmp_path, {"__init__.py": "", "values.py": "", "project/__init__.py": "",
                            "project/model.py": "", "project/x.py": text})
    assert [i.target for i in package_imports(root) if i.source == "kzplayer.project.x"] == [expected]


# -- docs/architecture.md names every module; no module over 400 lines ------------------------

DOC = PACKAGE.parent / "docs" / "architecture.md"
MAX_LINES = 400


def unnamed_modules(doc: str, root: Path = PACKAGE) -> list[str]:
    """The modules of `root` the doc does not name: `dir/name.py` (or `kzplayer/dir/name.py`)
    anywhere, or `name.py` in a table row of `kzplayer/dir/`; a top-level module by `name.py`.
    A package's __init__ is named by its row; the rules under validate/rules/ by
    docs/validate.md (generated from them, kept current by tests/validate/test_docs.py)."""
    rows = [line for line in doc.splitlines() if line.startswith("|")]
    missing = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        folder, _, name = rel.rpartition("/")
        if name == "__init__.py" or folder.startswith("validate/rules"):
            continue
        if not folder:
            named = f"`{name}`" in doc or f"`kzplayer/{name}`" in doc
        else:
            named = (f"`{rel}`" in doc or f"`kzplayer/{rel}`" in doc
                     or any(f"`kzplayer/{folder}/`" in row and f"`{name}`" in row for row in rows))
        if not named:
            missing.append(rel)
    return missing


def stale_names(doc: str, root: Path = PACKAGE) -> list[str]:
    """`name.py` in a package's table row where that package has no such module."""
    stale = []
    for row in (line for line in doc.splitlines() if line.startswith("|")):
        folders = re.findall(r"`kzplayer/([\w/]+)/`", row)
        if len(folders) != 1:
            continue
        for name in re.findall(r"`(\w+\.py)`", row):
            if not (root / folders[0] / name).exists() and not (root / name).exists():
                stale.append(f"{folders[0]}/{name}")
    return stale


def test_the_architecture_doc_names_every_module():
    doc = DOC.read_text(encoding="utf-8")
    assert unnamed_modules(doc) == [], "modules docs/architecture.md does not name"
    assert stale_names(doc) == [], "modules docs/architecture.md names that are gone"


def test_the_doc_check_finds_an_unnamed_and_a_stale_module(tmp_path):
    root = _fake(tmp_path, {"__init__.py": "", "codes.py": "", "gpu/__init__.py": "",
                            "gpu/runner.py": "", "gpu/views.py": "", "validate/rules/x.py": ""})
    doc = "`codes.py`\n| gpu | `kzplayer/gpu/` | `runner.py`, `frame.py` |\n"
    assert unnamed_modules(doc, root) == ["gpu/views.py"]
    assert stale_names(doc, root) == ["gpu/frame.py"]
    assert unnamed_modules(doc + "see `gpu/views.py`", root) == []


def test_no_module_over_400_lines():
    over = [f"{p.relative_to(PACKAGE.parent)}: {n} lines" for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert over == [], f"modules over {MAX_LINES} lines"
