"""Prefab instances that play: a placeholder whose template holds a ParticleEmitter.

Kanzi replaces each placeholder (`ObjectPrefabPlaceholder` naming a template in its
`Node3DPrefabPlaceholderTemplate`) with an instance of the template's root at run time: the
instance takes the placeholder's place and name, and the placeholder's own properties
override the root's (per-instance values: a rate, a transform). `instance(project, item)`
builds that instance as the player runs it: a copy of the root's subtree whose root sits
where the placeholder is (its parent is the placeholder's parent; the project tree is not
changed, so validate, save and convert see the file as written). A nested placeholder in the
template is an instance in turn.

The stock shape-emitter prefabs (`ParticlesAssetPackage/Prefabs/BoxEmitter`, SphereEmitter,
DiscEmitter, TorusEmitter, PointEmitter; catalog.toml [prefab.*]) are templates the project
need not hold: a ParticleEmitter with its emission material, `EmissionCount_Schedule` and
every property both read lifted to the root at the catalog default.

A property the placeholder sets (or binds) reads as the placeholder has it, its binding
applied; any other as the template's node reads it, its bindings applied (evaluated once,
for the template: a template binding that reads a property the placeholder overrides still
sees the template's value).
"""
from __future__ import annotations

from kzplayer.project import prefabs
from kzplayer.project.model import Item, Property
from kzplayer.values import MaterialRef

_DEPTH = 8          # nested prefabs deeper than this are cut (a template holding itself)


def template_reference(item: Item) -> str | None:
    """The template path a placeholder names, or None when `item` is none."""
    for name in prefabs.PLACEHOLDER_PROPERTIES:
        prop = item.properties.get(name)
        if prop is not None and prop.value is not None:
            return str(getattr(prop.value, "path", prop.value)).strip() or None
    return None


def template_root(project, item: Item) -> Item | None:
    """The root node of the template a placeholder names: the project's own template (a
    `*PrefabTemplate` item, or its root node named directly), or a stock prefab."""
    path = template_reference(item)
    if not path:
        return None
    cat = project.catalog
    if cat.prefab_prefix and path.startswith(cat.prefab_prefix):
        return stock_template(cat, path[len(cat.prefab_prefix):].strip("/"))
    found = project.find(path, relative_to=item)
    if found is None:
        return None
    if prefabs.is_template(found):
        nodes = [c for c in found.children if c.type not in ("BindingItem",)]
        return nodes[0] if nodes else None
    return found if prefabs.is_template(found.parent) else None


def stock_template(cat, name: str) -> Item | None:
    """A stock shape-emitter prefab's root: its materials and published properties."""
    if name not in cat.prefabs:
        return None
    emission, count = cat.prefabs[name]
    root = Item("ParticleEmitter", name)
    slots = {"ParticleEmitter.EmissionMaterial": emission, "ParticleEmitter.EmissionCountMaterial": count}
    for prop, material in slots.items():
        root.properties[prop] = Property(prop, MaterialRef(material), material)
    for material in (emission, count):
        for pname in cat.material(material).properties:
            spec = cat.property(pname)
            if spec is not None and spec.default is not None and pname not in root.properties:
                root.properties[pname] = Property(pname, spec.default, "")
    return root


def holds_emitter(project, root: Item, depth: int = 0) -> bool:
    """Whether the subtree holds a ParticleEmitter, itself or through a nested placeholder."""
    for i in root.walk():
        if i.type == "ParticleEmitter":
            return True
        inner = template_root(project, i) if depth < _DEPTH and is_placeholder(i) else None
        if inner is not None and holds_emitter(project, inner, depth + 1):
            return True
    return False


def instance(project, placeholder: Item, depth: int = 0) -> Item | None:
    """The instance a placeholder plays (see the module doc), None when the placeholder names
    no template or the template holds no ParticleEmitter."""
    root = template_root(project, placeholder) if depth < _DEPTH else None
    if root is None or not holds_emitter(project, root, depth):
        return None
    own = {k: v for k, v in placeholder.properties.items() if k not in prefabs.PLACEHOLDER_PROPERTIES}
    made = _copy(root, placeholder.parent, name=placeholder.name, overrides=own)
    made.own |= {b.target for b in placeholder.bindings}     # what the placeholder's bindings write
    made.placeholder = placeholder
    made.span = placeholder.span
    return made


def value_holder(item: Item, name: str, is_set=None) -> Item:
    """The item of the project whose value (after bindings) a node of an instance has for
    `name`: the placeholder for what it overrides (its value, its binding's, or one set at run
    time: `is_set(placeholder, name)`), else the template's node; `item` itself for anything
    else."""
    while isinstance(item, InstanceItem):
        if item.overrides(name) or (item.placeholder is not None and is_set is not None
                                    and is_set(item.placeholder, name)):
            if item.placeholder is None:
                return item
            item = item.placeholder
        elif item.template is not None:
            item = item.template
        else:
            return item
    return item


def origins(item: Item) -> list[Item]:
    """The project items a node of an instance stands for: itself, the template nodes it and
    its instance ancestors copy, and their placeholders (a change to any reaches it)."""
    out, node = [item], item
    while node is not None:
        if isinstance(node, InstanceItem):
            out += [x for x in (node.template, node.placeholder) if x is not None]
        node = node.parent
    return out


class InstanceItem(Item):
    """A node of a prefab instance: a copy of the template's node (`template`), in the
    instance's place. A property the placeholder does not override reads as the template's
    node reads it, its bindings applied (kzplayer.scene.values)."""
    template: Item | None = None
    placeholder: Item | None = None     # the root's: the placeholder it stands for
    own: frozenset = frozenset()

    def overrides(self, name: str) -> bool:
        return name in self.own or any(s in self.own for s in _spellings(self, name))


def _spellings(item: Item, name: str) -> tuple:
    project = item.project
    return project.catalog.spellings(name) if project is not None else (name,)


def _copy(item: Item, parent: Item | None, name: str | None = None, overrides: dict | None = None) -> Item:
    made = InstanceItem(item.type, name or item.name, parent=parent,
                        properties={**item.properties, **(overrides or {})}, attributes=dict(item.attributes),
                        span=item.span, element=item.element, aliases=dict(item.aliases))
    # a stock prefab's root is in no project: its values are its own (the catalog defaults)
    made.template = item if item.parent is not None else None
    made.own = frozenset(overrides or ())
    for child in item.children:
        if child.type not in ("BindingItem", "BindingSourceItem"):
            made.children.append(_copy(child, made))
    return made


def is_placeholder(item: Item) -> bool:
    return template_reference(item) is not None

