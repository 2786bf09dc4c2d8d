"""What compiling a graph's bindings asks of the project again and again, answered once per
build: the catalog's spec and name of a property, a node's type, and the node a clean
reference reads (a fan of 100 emitters reads `{../Hub/Emission.Rate}`: one node).

Only answers that cannot change while a graph is built are kept, and only for one build
(`BindingGraph` makes a new Lookups for each, and for each rebind); where a question has
a problem for its answer (a path that leads nowhere), the caller asks the full way, which
says why with the place.
"""
from __future__ import annotations

from kzplayer.bindings.source_default import reads_type_default
from kzplayer.bindings.sources import OUTPUTS, Unresolved, check_property, find_item, node_type
from kzplayer.project.prefabs import TEMPLATE_SUFFIX


class Lookups:
    def __init__(self, project):
        self.project = project
        self.catalog = cat = project.catalog
        self._components = cat.component_types if cat is not None else frozenset()
        self._specs: dict[str, object] = {}
        self._names: dict[str, str] = {}
        self._plain: dict[str, bool] = {}
        self._targets: dict[str, tuple] = {}
        self._reads: dict[tuple, tuple] = {}
        self._found: dict[tuple, tuple] = {}        # (item, property as written) -> node
        self.nodes: dict[tuple, tuple] = {}         # one tuple per node: targets and reads share it

    def spec(self, name: str):
        try:
            return self._specs[name]
        except KeyError:
            spec = self._specs[name] = self.project.property_spec(name)
            return spec

    def canonical(self, name: str) -> str:
        """The catalog's name of a property written under another name; else `name`."""
        try:
            return self._names[name]
        except KeyError:
            cat = self.catalog
            out = self._names[name] = cat.canonical(name) if cat is not None and name else name
            return out

    def target(self, written: str) -> tuple:
        """(catalog name, its spec, the spec of the name as written) of a binding's Target."""
        try:
            return self._targets[written]
        except KeyError:
            name = self.canonical(written) if written else written
            out = self._targets[written] = (name, self.spec(name), self.project.property_spec(written))
            return out

    def node(self, item, name: str) -> tuple:
        node = (item, name)
        return self.nodes.setdefault(node, node)

    def reads(self, nodes: list) -> tuple:
        """The nodes a binding reads as one tuple, shared by the bindings that read the same."""
        t = tuple(nodes)
        return self._reads.setdefault(t, t)

    def node_type(self, node: tuple) -> str | None:
        """sources.node_type, with the spec looked up once per name."""
        return node_type(self.project, node, self.spec)

    def plain(self, node: tuple) -> bool:
        """An item's property read as it is (never a project property's type default with a
        note, source_default.py): a binding reading only such nodes runs the quick way."""
        item, name = node
        if item is None:
            return False
        try:
            return self._plain[name]
        except KeyError:
            out = self._plain[name] = not reads_type_default(self.spec(name))
            return out

    def reference(self, ref, owner) -> tuple | None:
        """The node a shared tree's reference reads from `owner`, or None: it does not
        resolve (sources.resolve_reference says why) or reads the DataContext."""
        if ref.kind == "datacontext":
            return None
        item = self._item(ref.path, owner)
        if item is None:
            return None
        name = ref.property
        found = self._found.get((item, name))
        if found is None:
            if not self._has(item, name):
                return None
            found = self._found[(item, name)] = self.node(item, self.canonical(name) if name else name)
        return found

    def _item(self, path: str, owner):
        """paths.resolve(project, path, owner) where it finds an item, else None. From a plain
        node (no node component, not a prefab's root, below the project root) `.` is the
        node and `../Name` its parent's child (by the children's name index)."""
        parent = owner.parent
        plain = parent is not None and owner.type not in self._components \
            and not parent.type.endswith(TEMPLATE_SUFFIX)
        if plain:
            if path == ".":
                return owner
            if path.startswith("../"):
                name = path[3:]
                if name and "/" not in name and name != "." and name != ".." and not name[-1].isspace():
                    return parent.child(name)
        return find_item(self.project, path, owner) or None

    def _has(self, item, name) -> bool:
        """sources.check_property passes (the spec asked first: no scan of the aliases)."""
        if name and name not in OUTPUTS and self.spec(name) is not None:
            return True
        try:
            check_property(self.project, item, name, None, "")
        except Unresolved:      # the full way reports it
            return False
        return True
