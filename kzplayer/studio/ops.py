"""The studio's edits, each undoable: `apply(project)` and `revert(project)` change the
model in place and return what the running Player must do about it, an `Effect`.

An edit checks everything first and changes nothing; the model changes in `Effect.then`,
which the session runs after the values went to the running graph (the graph sees a change
only against the value it holds: set the model first and it would see none). Values go
through `Item.set` (so `project.save` writes only their text, formatting kept);
a revert puts the property back exactly as it was loaded (its text too, and off the
project's list of changed properties), so that undoing every edit and saving writes
nothing new. A binding's expression edit, an added or removed property, any structural
change: the Player is rebuilt (the binding graph resolved again).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kzplayer.project.literals import check_value
from kzplayer.project.model import Binding


class EditError(ValueError):
    """An edit that cannot be made (unknown item, a value that does not fit): said to the page."""


@dataclass
class Effect:
    """What the running Player must do after an edit: `values` [(item, name, value)] go to
    Simulation.set_value (no recompile); `rebuild`: a new Player, re-run to the same time."""
    values: list = field(default_factory=list)
    rebuild: bool = False
    then: list = field(default_factory=list)      # the model's changes, run in order

    def merge(self, other: "Effect") -> "Effect":
        return Effect(self.values + other.values, self.rebuild or other.rebuild, self.then + other.then)


def find_item(project, path: str):
    item = next((i for i in project.walk() if i.path == path), None)
    if item is None:
        raise EditError(f"no item at {path!r}")
    return item


@dataclass
class _Was:
    """A property as it was before an edit: absent, or its value, text and changed mark."""
    present: bool
    value: object = None
    text: str = ""
    changed: bool = False


def _snapshot(project, item, name: str) -> _Was:
    prop = item.properties.get(name)
    if prop is None:
        return _Was(False)
    return _Was(True, prop.value, prop.text, any(p is prop for p in project.changed))


def _restore(project, item, name: str, was: _Was) -> None:
    """The property as `was` says. It stays on the project's changed list (the file must be
    written again) unless the file still has the text it is put back to: it is on the list
    now (no save since the edit) and was not before the edit."""
    prop = item.properties.get(name)
    listed = any(p is prop for p in project.changed)
    if not was.present:
        item.properties.pop(name, None)
        project.changed[:] = [p for p in project.changed if p is not prop]
        return
    prop.value, prop.text = was.value, was.text
    if listed and not was.changed:
        project.changed[:] = [p for p in project.changed if p is not prop]
    elif not listed:
        project.changed.append(prop)


@dataclass
class SetValue:
    """One property's value, as the literal text the page sent (`(0, 1, 0)`, `400`, `Gravity`)."""
    path: str
    name: str
    text: str
    was: _Was | None = None

    @property
    def label(self) -> str:
        return f"{self.path.rsplit('/', 1)[-1]}.{self.name} = {self.text}"

    def apply(self, project) -> Effect:
        item = find_item(project, self.path)
        spec = project.property_spec(self.name)
        if spec is None and self.name not in item.properties:
            raise EditError(f"{self.path} has no property {self.name!r}")
        if spec is not None and spec.output:
            raise EditError(f"{self.name} is computed by the engine: it cannot be set")
        try:
            value = check_value(self.text, spec, self.name)
        except (ValueError, TypeError) as exc:
            raise EditError(str(exc)) from None
        was = _snapshot(project, item, self.name)

        def commit():
            self.was = was
            item.set(self.name, value)
        if value is None or (spec is not None and spec.type == "material"):
            return Effect(rebuild=True, then=[commit])     # another material: other programs
        return Effect([(item, self.name, value)], then=[commit])

    def revert(self, project) -> Effect:
        item = find_item(project, self.path)
        spec = project.property_spec(self.name)
        undo = [lambda: _restore(project, item, self.name, self.was)]
        if not self.was.present or self.was.value is None or (spec is not None and spec.type == "material"):
            return Effect(rebuild=True, then=undo)     # the graph holds the value given: start afresh
        return Effect([(item, self.name, self.was.value)], then=undo)


@dataclass
class SetBinding:
    """The expression of one of an item's bindings (by its index on the item). A binding
    with RawCode runs, after the edit, what the expression says (RawCode emptied: kzplayer
    derives it from the expression, as for the short form)."""
    path: str
    index: int
    expression: str
    old: tuple | None = None

    @property
    def label(self) -> str:
        return f"binding of {self.path.rsplit('/', 1)[-1]}: {self.expression}"

    def _binding(self, project):
        item = find_item(project, self.path)
        if not 0 <= self.index < len(item.bindings):
            raise EditError(f"{self.path} has no binding #{self.index}")
        return item.bindings[self.index]

    def apply(self, project) -> Effect:
        b = self._binding(project)

        def commit():
            self.old = (b.expression, b.raw_code, list(b.sources))
            b.expression = self.expression
            if b.raw_code is not None:
                b.raw_code, b.sources = None, []
        return Effect(rebuild=True, then=[commit])

    def revert(self, project) -> Effect:
        b = self._binding(project)

        def undo():
            b.expression, b.raw_code, b.sources = self.old[0], self.old[1], list(self.old[2])
        return Effect(rebuild=True, then=[undo])


@dataclass
class AddBinding:
    """A new binding (the short form) on an item: `target` = `expression`."""
    path: str
    target: str
    expression: str

    @property
    def label(self) -> str:
        return f"bind {self.path.rsplit('/', 1)[-1]}.{self.target}"

    def apply(self, project) -> Effect:
        item = find_item(project, self.path)
        spec = project.property_spec(self.target)
        if spec is None:
            raise EditError(f"no property {self.target!r} in the catalog")
        if spec.output:
            raise EditError(f"{self.target} is computed by the engine: a binding reads it, it cannot write it")
        if any(project.catalog.canonical(b.target) == spec.name for b in item.bindings):
            raise EditError(f"{item.name} binds {self.target} already: edit that binding")
        self.binding = Binding(spec.name, self.expression, short=True, owner=item)
        return Effect(rebuild=True, then=[lambda: item.bindings.append(self.binding)])

    def revert(self, project) -> Effect:
        item = find_item(project, self.path)
        return Effect(rebuild=True, then=[lambda: item.bindings.remove(self.binding)])


@dataclass
class RemoveBinding:
    """One of an item's bindings taken off (the property plays its own value again)."""
    path: str
    index: int

    @property
    def label(self) -> str:
        return f"unbind #{self.index} of {self.path.rsplit('/', 1)[-1]}"

    def apply(self, project) -> Effect:
        item = find_item(project, self.path)
        if not 0 <= self.index < len(item.bindings):
            raise EditError(f"{self.path} has no binding #{self.index}")
        binding = item.bindings[self.index]

        def commit():
            self.removed = binding
            item.bindings.remove(binding)
        return Effect(rebuild=True, then=[commit])

    def revert(self, project) -> Effect:
        item = find_item(project, self.path)
        return Effect(rebuild=True, then=[lambda: item.bindings.insert(self.index, self.removed)])


@dataclass
class Group:
    """Several edits as one step of undo ("add the properties this material reads")."""
    label: str
    edits: list

    def apply(self, project) -> Effect:
        effect = Effect()
        for edit in self.edits:           # an EditError: nothing has changed yet
            effect = effect.merge(edit.apply(project))
        return effect

    def revert(self, project) -> Effect:
        effect = Effect()
        for edit in reversed(self.edits):
            effect = effect.merge(edit.revert(project))
        return effect
