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

Where each template's root sits at runtime needs paths resolved (a placeholder names its
template by path): `instances` and `runtime_parents` are in paths.py, which builds on this.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kzplayer.project.model import Item, Project

PLACEHOLDER_PROPERTIES = ("Node2DPrefabPlaceholderTemplate", "Node3DPrefabPlaceholderTemplate")
TEMPLATE_SUFFIX = "PrefabTemplate"
ACTIVITY_CONTENT = "ActivityHostContent"        # the end of an activity host's content property


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
