"""A diff for people (text), tools (JSON), pull requests (GitHub annotations at the new
file's line, Markdown for a comment)."""
from __future__ import annotations

import json
from kzplayer.effecttest.report import _data, _prop

LABEL = {"added": "added", "removed": "removed", "renamed": "renamed", "moved": "moved",
         "reordered": "moved (order)", "property": "property", "binding": "binding", "bound": "bound value",
         "attribute": "attribute", "alias": "alias", "shader": "shader"}


def _where(c, old, new) -> str:
    parts = []
    if c.old_at is not None:
        parts.append(f"{old.shown(c.old_at.file)}:{c.old_at.line}")
    if c.new_at is not None:
        parts.append(f"{new.shown(c.new_at.file)}:{c.new_at.line}")
    return " -> ".join(parts)


def describe(c) -> str:
    unit = f" {c.unit}" if c.unit else ""
    if c.kind in ("added", "removed"):
        text = f"{c.what} {c.kind}"
    elif c.kind == "renamed":
        text = f"renamed {c.old!r} -> {c.new!r}"
    elif c.kind == "moved":
        text = f"moved from {c.old}"
    elif c.kind == "reordered":
        text = f"moved from place {c.old} to {c.new} among its siblings ({c.note})"
    elif c.kind == "shader":
        text = f"{c.what}: {c.note}"
    else:
        old = "(not set)" if c.old is None else f"{c.old}{unit}"
        new = "(not set)" if c.new is None else f"{c.new}{unit}"
        text = f"{c.what}: {old} -> {new}"
        if c.note and c.kind not in ("reordered",):
            text += f" ({c.note})"
    return ("material " if c.material and c.kind in ("added", "removed", "property") else "") + text


def text(changes, old, new) -> str:
    if not changes:
        return f"no changes between {old.name} and {new.name}"
    lines = [f"{len(changes)} change{'s' if len(changes) != 1 else ''} from {old.name} to {new.name}:"]
    for c in changes:
        lines.append(f"  {LABEL[c.kind]:13s} {c.path}: {describe(c)}")
        lines.append(f"  {'':13s}   at {_where(c, old, new)}")
    return "\n".join(lines)


def as_json(changes, old, new) -> str:
    return json.dumps({"old": old.name, "new": new.name, "changes": [c.as_dict(old, new) for c in changes]}, indent=2)


def github(changes, old, new) -> str:
    lines = []
    for c in changes:
        span = c.new_at or c.old_at
        side = new if c.new_at else old
        where = f"file={_prop(side.shown(span.file))},line={span.line}," if span else ""
        lines.append(f"::notice {where}title={_prop('kzplayer diff: ' + LABEL[c.kind])}::{_data(c.path + ': ' + describe(c))}")
    return "\n".join(lines) or f"no changes between {old.name} and {new.name}"


def markdown(changes, old, new, picture: str | None = None) -> str:
    lines = [f"### kzplayer diff `{old.name}` → `{new.name}`", ""]
    if not changes:
        lines.append("No changes to the effect (formatting only).")
    else:
        lines += ["| change | item | what | where |", "|---|---|---|---|"]
        for c in changes:
            cell = describe(c).replace("|", "\\|")
            lines.append(f"| {LABEL[c.kind]} | `{c.path}` | {cell} | {_where(c, old, new)} |")
    if picture:
        lines += ["", f"![before | after]({picture})"]
    return "\n".join(lines)
