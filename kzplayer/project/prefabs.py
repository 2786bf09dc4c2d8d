"""Where Kanzi's runtime tree differs from the project tree: node components and prefabs.

* A node component (a trigger, an animation player, a trigger's actions and conditions) is
  attached to a node; its bindings' relative paths start at that node (Kanzi: "Node component
  is an isolated piece of logic which can be attached to any node"; Kanzi Studio writes the
  BindingSourceItem of a Data Trigger's `{@./ActivityProperty.IncomingCall}` as the node
  that holds the trigger).
* A prefab template (`LayerPrefabTemplate`, `ObjectPrefabTemplate`) holds one root node. Each
  placeholder that names the template (its `Node2DPrefabPlaceholderTemplate` or
  `Node3DPrefabPlaceholderTemplate`) is replaced by an instance of that root at runtime: the
  root's parent is then the placeholder's parent, and `..` from the root, or an alias looked
  up above it, continues there (Kanzi Studio writes `{@../../Node.ActualHeight}` in the
  Navigation Item prefab as the Navigation Bar prefab that instantiates it).
* An activity host (`ParallelActivityHostConcept.ParallelActivityHostContent`,
  `{{GaugeView,1,kzb://program_activities/Prefabs/GaugeView,0}}`) instantiates the activity
  prefabs it lists as its own children.
* `##Template` is the root of the prefab a node is in ("Prefab root bindings").
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kzplayer.values import ItemRef

if TYPE_CHECKING:
    from kzplayer.project.model import Item, Project

PLACEHOLDER_PROPERTIES = ("Node2DPrefabPlaceholderTemplate", "Node3DPrefabPlaceholderTemplate")
TEMPLATE_SUFFIX = "PrefabTemplate"
ACTIVITY_CONTENT = "ActivityHostContent"        # the end of an activity host's content property
_KZB_URL = re.compile(r"kzb://[^/,{}]+/([^,{}]+)")


def attachment(project: "Project", item: "Item") -> "Item":
    """The node a binding held by `item` starts its relative paths from: the item itself, or
    for a node component (a trigger and its actions), the node it is attached to."""
    cat = project.catalog if project is not None else None
    components = cat.component_types if cat is not None else frozenset()
    while item.parent is not None and item.type in components:
        item = item.parent
    return item


def is_template(item: "Item | None") -> bool:
    return item is not None and item.type.endswith(TEMPLATE_SUFFIX)


def prefab_root(item: "Item") -> "Item | None":
    """The root node of the prefab `item` is in (None outside prefabs)."""
    node = item
    while node.parent is not None and not is_template(node.parent):
        node = node.parent
    return node if node.parent is not None else None


def instances(project: "Project", template: "Item") -> list["Item"]:
    """Where `template`'s root sits at runtime: the parent of each placeholder that names it,
    and each activity host that lists it, in tree order (found once per project; adding an
    item finds them again)."""
    table = project._prefab_instances
    if table is None:
        table = project._prefab_instances = _instance_table(project)
    return table.get(id(template), [])


def _instance_table(project: "Project") -> dict[int, list["Item"]]:
    from kzplayer.project.paths import resolve
    table: dict[int, list] = {}

    def add(path: str, where: "Item", parent: "Item | None") -> None:
        target = resolve(project, path, where)
        if target and parent is not None:
            table.setdefault(id(target), []).append(parent)
    for it in project.walk():
        for name in PLACEHOLDER_PROPERTIES:
            prop = it.properties.get(name)
            if prop is not None and isinstance(prop.value, ItemRef):
                add(prop.value.path, it, it.parent)      # the placeholder becomes the root
        for name, prop in it.properties.items():
            if name.endswith(ACTIVITY_CONTENT) and isinstance(prop.value, str):
                for url in _KZB_URL.findall(prop.value):
                    add(url.strip(), it, it)             # activities are the host's children
    return table


def runtime_parents(project: "Project", node: "Item") -> list["Item"] | None:
    """Where `..` from a prefab root goes at runtime (see `instances`). None when `node` is no
    prefab root."""
    if not is_template(node.parent):
        return None
    return instances(project, node.parent)
