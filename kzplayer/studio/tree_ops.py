"""The studio's edits of the item tree, each undoable: add an item (from the catalog: an
item type, or a material and the item type whose slot it fills), remove, rename, duplicate,
move, and wire a subemitter to its source as the events page's recipe says.

Each changes the tree in `Effect.then` and asks for a rebuild (a new Player on the new
tree). Each keeps what it needs to put the tree back exactly (the same Item objects in
the same places). `project.save` splices the tree edits into the file's text (comments and
formatting kept, a moved or duplicated item's own text too: kzplayer/project/splice.py); in
a folder project a rename or a move to another parent moves the item's files.
"""
from __future__ import annotations

from kzplayer.project.model import Alias, Binding, BindingSource, Item, Property
from kzplayer.studio.ops import Effect, EditError, find_item

EVENT_OUTPUTS = (("Emission.SourceEventBuffer", "ParticleEmitter.EventBuffer", "Events"),
                 ("Emission.SourceParticleDataBuffer", "ParticleEmitter.ParticleDataBuffer", "Particle Data"))
MAX_NAME = 200
# The item type a material of each slot is added as (an emitter's own SelfAffect slot is
# set in its panel instead).
HOLDERS = {"Affector": "ParticleAffector", "Collider": "ParticleCollider"}


def _touched(project) -> None:
    """The caches a tree edit makes stale: prefab instances, the custom catalog."""
    project._prefab_instances = None
    project._catalog = False


def check_name(parent, name: str, other=None) -> str:
    if not isinstance(name, str) or not name.strip():
        raise EditError("an item name may not be empty")
    if "/" in name or name in (".", "..") or len(name) > MAX_NAME or any(ord(c) < 32 for c in name):
        raise EditError(f"{name!r} cannot be an item name (no '/', not '.' or '..', at most {MAX_NAME} characters)")
    if any(c.name == name and c is not other for c in parent.children):
        raise EditError(f"{parent.path or 'the project'} has an item named {name!r} already")
    return name


def free_name(parent, base: str) -> str:
    if parent.child(base) is None:
        return base
    k = 2
    while parent.child(f"{base} {k}") is not None:
        k += 1
    return f"{base} {k}"


class _TreeEdit:
    """Keeps the children lists it changes, and puts them back on revert."""
    lists: list | None = None

    def _keep(self, *parents) -> None:
        self.lists = [(p, list(p.children)) for p in parents]

    def revert(self, project) -> Effect:
        kept = self.lists

        def undo():
            for parent, children in kept:
                parent.children[:] = children
                for c in children:
                    c.parent = parent
            self._undo_more(project)
            _touched(project)
        return Effect(rebuild=True, then=[undo])

    def _undo_more(self, project) -> None:
        pass


class AddItem(_TreeEdit):
    """A new item under `parent`: of `type`, or of the type whose slot `material` fills
    (Gravity -> a ParticleAffector with AffectorMaterial Gravity; an emission material ->
    a ParticleEmitter that also emits on a Schedule)."""

    def __init__(self, parent: str, type: str | None = None, material: str | None = None, name: str | None = None):
        self.parent, self.type, self.material, self.name = parent, type, material, name

    @property
    def label(self) -> str:
        return f"add {self.material or self.type} under {self.parent.rsplit('/', 1)[-1]}"

    def apply(self, project) -> Effect:
        parent = find_item(project, self.parent)
        cat = project.catalog
        kind, props = self.type, {}
        if self.material is not None:
            spec = cat.material(self.material)
            if spec is None:
                raise EditError(f"no material {self.material!r} in the catalog")
            kind = kind or HOLDERS.get(spec.slot, "ParticleEmitter")
            slot = next((p for p in cat.properties.values() if p.type == "material" and p.slot == spec.slot
                         and kind in p.item_types), None)
            if slot is None:
                raise EditError(f"{self.material} fills no slot of a {kind}")
            props[slot.name] = spec.name
            if spec.slot == "Emission" and not spec.event_driven:
                props["ParticleEmitter.EmissionCountMaterial"] = "EmissionCount_Schedule"
        spec = cat.item_type(kind or "")
        if spec is None or not spec.is_node:
            raise EditError(f"{kind!r} is not a node type of the catalog")
        name = check_name(parent, self.name or free_name(parent, self.material or kind))
        self._keep(parent)

        def commit():
            item = Item(kind, name)
            parent.add_child(item)
            for key, value in props.items():
                item.set(key, value)
            self.added = item.path
            _touched(project)
        return Effect(rebuild=True, then=[commit])


class RemoveItem(_TreeEdit):
    def __init__(self, path: str):
        self.path = path

    @property
    def label(self) -> str:
        return f"remove {self.path.rsplit('/', 1)[-1]}"

    def apply(self, project) -> Effect:
        item = find_item(project, self.path)
        if item.parent is None or item.parent.parent is None:
            raise EditError(f"{self.path} is a library: it cannot be removed")
        parent = item.parent
        self._keep(parent)

        def commit():
            parent.children[:] = [c for c in parent.children if c is not item]
            _touched(project)
        return Effect(rebuild=True, then=[commit])


class RenameItem(_TreeEdit):
    def __init__(self, path: str, name: str):
        self.path, self.name = path, name

    @property
    def label(self) -> str:
        return f"rename {self.path.rsplit('/', 1)[-1]} to {self.name}"

    def apply(self, project) -> Effect:
        item = find_item(project, self.path)
        if item.parent is None or item.parent.parent is None:
            raise EditError(f"{self.path} is a library: it keeps its name")
        check_name(item.parent, self.name, other=item)
        self._keep()
        self.item, self.old = item, item.name

        def commit():
            before = item.path
            item.name = self.name
            self.repathed = _repath(project.bindings(), {before: item.path})
            _touched(project)
        return Effect(rebuild=True, then=[commit])

    def _undo_more(self, project) -> None:
        self.item.name = self.old
        _put_back(self.repathed)


class MoveItem(_TreeEdit):
    """`path` to position `index` among the children of `parent` (its own parent: a move up
    or down, which is affector order)."""

    def __init__(self, path: str, parent: str, index: int):
        self.path, self.to, self.index = path, parent, index

    @property
    def label(self) -> str:
        return f"move {self.path.rsplit('/', 1)[-1]}"

    def apply(self, project) -> Effect:
        item = find_item(project, self.path)
        target = find_item(project, self.to)
        if item.parent is None or item.parent.parent is None:
            raise EditError(f"{self.path} is a library: it stays where it is")
        node = target
        while node is not None:
            if node is item:
                raise EditError(f"{item.name} cannot go inside itself")
            node = node.parent
        if target is not item.parent:
            check_name(target, item.name)
        old = item.parent
        self._keep(*([old] if old is target else [old, target]))
        index = max(0, min(int(self.index), len(target.children) - (1 if old is target else 0)))

        def commit():
            before = item.path
            old.children[:] = [c for c in old.children if c is not item]
            target.add_child(item, index)
            self.repathed = _repath(project.bindings(), {before: item.path})
            _touched(project)
        return Effect(rebuild=True, then=[commit])

    def _undo_more(self, project) -> None:
        _put_back(self.repathed)


def clone(item: Item, name: str) -> Item:
    """A copy of `item` and everything under it (paths in its bindings as they are). Each
    copy's `copied_from` is its original, so that a save writes the original's text (with
    its comments and formatting) for it (kzplayer/project/splice_tree.py)."""
    out = Item(item.type, name, attributes=dict(item.attributes))
    out.copied_from = item
    for key, a in item.aliases.items():
        out.aliases[key] = Alias(a.name, a.target)
    for key, p in item.properties.items():
        out.properties[key] = Property(p.name, p.value, p.text)
    for b in item.bindings:
        out.bindings.append(Binding(b.target, b.expression, b.name, b.field, b.mode, b.push_target, b.enabled,
                                    b.raw_code, [BindingSource(s.name, s.item, s.source, s.field) for s in b.sources],
                                    b.short, owner=out))
    for child in item.children:
        c = clone(child, child.name)
        c.parent = out
        out.children.append(c)
    return out


def _repath(bindings, moved: dict[str, str]) -> list:
    """Absolute paths (PushTarget, BindingSourceItem.Item) into a renamed, moved or copied
    subtree pointed at its new place; returns what to put back on undo."""
    undo = []

    def new(path):
        for old, to in moved.items():
            if path == old or (path or "").startswith(old + "/"):
                return to + path[len(old):]
        return None
    for b in bindings:
        if b.push_target and (to := new(b.push_target)):
            undo.append((b, "push_target", b.push_target))
            b.push_target = to
        for src in b.sources:
            if (to := new(src.item)):
                undo.append((src, "item", src.item))
                src.item = to
    return undo


def _put_back(undo) -> None:
    for obj, attr, value in reversed(undo):
        setattr(obj, attr, value)


class DuplicateItem(_TreeEdit):
    def __init__(self, path: str):
        self.path = path

    @property
    def label(self) -> str:
        return f"duplicate {self.path.rsplit('/', 1)[-1]}"

    def apply(self, project) -> Effect:
        item = find_item(project, self.path)
        if item.parent is None or item.parent.parent is None:
            raise EditError(f"{self.path} is a library: it cannot be duplicated")
        parent = item.parent
        name = free_name(parent, f"{item.name} copy")
        self._keep(parent)

        def commit():
            copy = clone(item, name)
            parent.add_child(copy, parent.children.index(item) + 1)
            moved = {a.path: b.path for a, b in zip(item.walk(), copy.walk())}
            _repath([b for node in copy.walk() for b in node.bindings], moved)   # the copy's own: no undo needed
            _touched(project)
        return Effect(rebuild=True, then=[commit])


def relative_path(frm: str, to: str) -> str:
    """A ProjectItemPath from item `frm` to item `to` (`../Source` for a sibling)."""
    a, b = frm.split("/"), to.split("/")
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    ups = len(a) - common
    rest = "/".join(b[common:])
    if ups == 0:
        return "./" + rest if rest else "."
    return "/".join([".."] * ups + ([rest] if rest else []))


class WireSubemitter:
    """Make `path` a subemitter of `source` (the events page's recipe): its two consumer
    properties declared, the two BindingItems (target, ONE_WAY, PushTarget itself,
    SourceExpression {@REL/ParticleEmitter.EventBuffer}, RawCode {0} over one source item),
    event-driven emission materials where its own are not, one particle per event where
    it sets none; the source gets Event_Lifetime (one event on each death) where it has no
    event material."""

    def __init__(self, path: str, source: str):
        self.path, self.source = path, source

    @property
    def label(self) -> str:
        return f"wire {self.path.rsplit('/', 1)[-1]} to {self.source.rsplit('/', 1)[-1]}"

    def apply(self, project) -> Effect:
        sub, src = find_item(project, self.path), find_item(project, self.source)
        if sub.type != "ParticleEmitter" or src.type != "ParticleEmitter":
            raise EditError("a subemitter and its source are both ParticleEmitters")
        if sub is src:
            raise EditError("an emitter cannot be its own subemitter")
        if sub.parent is None or src.parent is None:
            raise EditError("both emitters must be in the tree")
        cat = project.catalog
        self.kept = [_keep_item(sub), _keep_item(src)]
        self.changed = list(project.changed)
        sets = []
        for key, fallback in (("ParticleEmitter.EmissionMaterial", "Emitter_FromEvents"),
                              ("ParticleEmitter.EmissionCountMaterial", "EmissionCount_FromEvents")):
            spec = cat.material(str(sub.get(key) or ""))
            if spec is None or not spec.event_driven:
                sets.append((sub, key, fallback))
        if sub.own_property("Emission.ParticlesPerEvent") is None:
            sets.append((sub, "Emission.ParticlesPerEvent", "1"))
        if not str(src.get("ParticleEmitter.GenerateEventsMaterial") or ""):
            sets.append((src, "ParticleEmitter.GenerateEventsMaterial", "Event_Lifetime"))
        rel = relative_path(sub.path, src.path)

        def commit():
            for item, key, value in sets:
                item.set(key, value)
            targets = {t for t, _, _ in EVENT_OUTPUTS}
            sub.bindings[:] = [b for b in sub.bindings if cat.canonical(b.target) not in targets]
            for target, output, name in EVENT_OUTPUTS:
                if sub.own_property(target) is None:
                    sub.set(target, None)
                sub.bindings.append(Binding(
                    target, f"{{@{rel}/{output}}}", name=name, mode="ONE_WAY", push_target=sub.path,
                    enabled=True, raw_code="{0}", sources=[BindingSource("0", src.path, output)], owner=sub))
        return Effect(rebuild=True, then=[commit])

    def revert(self, project) -> Effect:
        kept, changed = self.kept, self.changed

        def undo():
            for item, props, bindings in kept:
                item.properties = {n: p for n, (p, _, _) in props.items()}
                for p, value, text in props.values():
                    p.value, p.text = value, text
                item.bindings[:] = bindings
            project.changed[:] = changed
        return Effect(rebuild=True, then=[undo])


def _keep_item(item) -> tuple:
    """An item's properties (objects, values, texts) and bindings as they are: what
    WireSubemitter puts back."""
    props = {n: (p, p.value, p.text) for n, p in item.properties.items()}
    return item, props, list(item.bindings)
