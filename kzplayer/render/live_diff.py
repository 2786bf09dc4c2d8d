"""What a live save changed (kzplayer.render.live; GL-free): the property edits and the
bindings whose expressions alone changed between two loads of a project, or why it must be
rebuilt; and which files and folders bear on a running project."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.resources import shader_dir

SHADER_SUFFIXES = (".glsl", ".vert", ".frag", ".comp", ".geom", ".inc")


@dataclass
class Edit:
    """One property whose value a save changed: `path` is the item's path in the project."""
    path: str
    name: str
    value: object


@dataclass
class Diff:
    edits: list[Edit] = field(default_factory=list)
    structural: str | None = None     # why the save must rebuild; None: the edits are enough
    rebound: list[str] = field(default_factory=list)   # the items whose bindings alone changed (the
    # structural reason then): their expressions only, rebound in place where nothing else differs


def diff_projects(old, new) -> Diff:
    """What a save changed between two loads of a project: property edits, or the first
    reason it needs a rebuild (the items walked in tree order side by side)."""
    out = Diff()
    old_items, new_items = list(old.walk()), list(new.walk())
    if len(old_items) != len(new_items):
        return Diff(structural=f"items {len(old_items)} -> {len(new_items)}")
    for a, b in zip(old_items, new_items):
        if (a.path, a.type) != (b.path, b.type):
            return Diff(structural=f"{a.path} ({a.type}) is now {b.path} ({b.type})")
        if [x.key() for x in a.bindings] != [x.key() for x in b.bindings]:
            out.structural = out.structural or f"{b.path}: its bindings changed"
            out.rebound.append(b.path)
            if [_wiring(x) for x in a.bindings] != [_wiring(x) for x in b.bindings]:
                return Diff(structural=out.structural)       # what is bound changed: rebuilt
        if ({k: (v.target) for k, v in a.aliases.items()} != {k: v.target for k, v in b.aliases.items()}
                or a.attributes != b.attributes):
            return Diff(structural=f"{b.path}: its aliases or attributes changed")
        if set(a.properties) - set(b.properties):
            return Diff(structural=f"{b.path}: a property was removed")
        for name, prop in b.properties.items():
            before = a.properties.get(name)
            if before is None or not _same(before.value, prop.value):
                out.edits.append(Edit(b.path, name, prop.value))
    return out


def _wiring(binding) -> tuple:
    """What a binding binds, but its expression: the same, only the values it writes change
    (no program bakes a bound property in)."""
    return (binding.target, binding.name, binding.field, binding.mode, binding.push_target, binding.enabled,
            binding.short)


def _same(x, y) -> bool:
    try:
        return bool(type(x) is type(y) and x == y)
    except (ValueError, TypeError):        # arrays and the like: compare what is written
        return repr(x) == repr(y)


def watched_folders(project, path: str, files=()) -> list[str]:
    """The folders to watch (recursively): the project's folder (a folder project: the folder
    itself), the folder of every file it read and of every other file it plays from (`files`:
    assets, the shaders and includes of its programs, kzplayer's library among them).
    Folders, not files: editors save by writing a new file and renaming it over the old one."""
    root = Path(path).resolve()
    folders = {root if root.is_dir() else root.parent}
    for f in (*project.files, *files):
        folders.add(Path(f).resolve().parent)
    library = shader_dir().resolve()
    if any(library == f or library in f.parents for f in folders):
        folders = {f for f in folders if not (library in f.parents)} | {library}
    # a folder inside another is watched through it
    return sorted(str(f) for f in folders if not any(g in f.parents for g in folders))


def relevant(project, path: str, changed: str, files=()) -> bool:
    """A changed file that bears on the project: one it read or plays from (`files`), a
    shader (or include) under its folder, or a .kzm/.xml of a folder project's folder."""
    p = Path(changed).resolve()
    root = Path(path).resolve()
    if p == root or p in files or str(p) in {str(Path(f).resolve()) for f in project.files}:
        return True
    base = root if root.is_dir() else root.parent
    inside = base in p.parents
    return inside and (root.is_dir() and p.suffix.lower() in (".kzm", ".xml") or p.suffix.lower() in SHADER_SUFFIXES)
