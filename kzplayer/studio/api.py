"""The studio's JSON API: each handler reads its arguments (bounded, typed), runs its work
on the render thread (engine.run) and answers JSON. Every bad request is a 4xx with
{"error": "..."}; a bug is a 500 with one line, never a traceback, and the server goes on.
"""
from __future__ import annotations

import asyncio
import json
import math
import os

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse

from kzplayer.diagnostics import KzError
from kzplayer.studio import panel
from kzplayer.studio.binding_check import check_expression
from kzplayer.studio.ops import (AddBinding, EditError, Group, RemoveBinding, SetBinding, SetValue,
                                 find_item)
from kzplayer.studio.security import MAX_FILE, BodyTooLarge, Refused, inside
from kzplayer.studio.tree_ops import AddItem, DuplicateItem, MoveItem, RemoveItem, RenameItem, WireSubemitter

MAX_TEXT = 16 * 1024          # characters of a value or an expression
CONTROLS = ("pause", "play", "step", "restart", "seek", "speed")
MAX_SEEK = 120.0              # seconds: a seek re-runs the effect from its start, frame by frame
MAX_VALUES = 64               # properties set in one request (a gradient's stops and mid point)


class BadRequest(ValueError):
    pass


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers={"cache-control": "no-store"})


def handler(fn):
    """Wrap an API function: its errors become clear JSON answers."""
    async def endpoint(request: Request):
        try:
            return await fn(request)
        except (BadRequest, EditError, Refused) as exc:
            return error(400, str(exc))
        except KzError as exc:
            return error(400, "; ".join(d.message for d in exc.diagnostics) or str(exc))
        except BodyTooLarge:
            return error(413, "the request body is too large")
        except asyncio.TimeoutError:
            return error(503, "the render thread is busy (a long seek or rebuild): try again")
        except FileNotFoundError as exc:
            return error(404, f"no such file: {os.path.basename(str(exc.filename or ''))}")
        except Exception as exc:        # a bug: one line for the page, the server goes on
            return error(500, f"internal error: {type(exc).__name__}: {exc}")
    endpoint.__name__ = fn.__name__
    return endpoint


async def body(request: Request) -> dict:
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def text(data: dict, key: str, limit: int = MAX_TEXT) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise BadRequest(f"{key!r} must be a string")
    if len(value) > limit:
        raise BadRequest(f"{key!r} is over {limit} characters")
    return value


def integer(data: dict, key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1_000_000:
        raise BadRequest(f"{key!r} must be a whole number")
    return value


def number(data: dict, key: str, lo: float, hi: float) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not lo <= value <= hi:
        raise BadRequest(f"{key!r} must be a number from {lo} to {hi}")
    return float(value)


# -- reading ----------------------------------------------------------------------------------

def state_of(engine) -> dict:
    s = engine.session
    return {"version": s.version, "project": s.project.name, "file": os.path.basename(s.path),
            "tree": panel.tree(s.project), "diagnostics": s.diagnostics(), "history": s.history(),
            "dirty": s.dirty, "disk_problem": s.disk_problem, "player_error": engine.player_error,
            "problems": [d.message for d in engine.problems][-20:],
            "emitters": [i.path for i in s.project.items("ParticleEmitter")]}


@handler
async def state(request: Request):
    return JSONResponse(await request.app.state.engine.run(state_of))


@handler
async def item(request: Request):
    path = request.query_params.get("path", "")

    def work(engine):
        s = engine.session
        return panel.panel(s.project, s.graph, find_item(s.project, path))
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def project_file(request: Request):
    """A file of the project folder (a texture for the page), never one outside it."""
    engine = request.app.state.engine
    target = inside(engine.session.folder, request.query_params.get("path", ""))
    if not target.is_file():
        raise FileNotFoundError(2, "no such file", str(target))
    if target.stat().st_size > MAX_FILE:
        raise BadRequest("the file is too large to show")
    return FileResponse(target)


# -- edits ------------------------------------------------------------------------------------

async def _edit(request: Request, make) -> JSONResponse:
    data = await body(request)
    op = make(data)

    def work(engine):
        engine.session.edit(op)
        return state_of(engine)
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def set_value(request: Request):
    return await _edit(request, lambda d: SetValue(text(d, "path", 4096), text(d, "name", 256), text(d, "value")))


@handler
async def set_binding(request: Request):
    return await _edit(request, lambda d: SetBinding(text(d, "path", 4096), integer(d, "index"),
                                                     text(d, "expression")))


@handler
async def add_binding(request: Request):
    return await _edit(request, lambda d: AddBinding(text(d, "path", 4096), text(d, "target", 256),
                                                     text(d, "expression")))


@handler
async def remove_binding(request: Request):
    return await _edit(request, lambda d: RemoveBinding(text(d, "path", 4096), integer(d, "index")))


@handler
async def add_reads(request: Request):
    """One click: every property that a material of the item reads and the item does not
    set is written with its catalog default (one step of undo)."""
    data = await body(request)
    path, material = text(data, "path", 4096), text(data, "material", 256)

    def work(engine):
        s = engine.session
        target = find_item(s.project, path)
        spec = s.project.catalog.material(material)
        if spec is None:
            raise EditError(f"no material {material!r}")
        edits = [SetValue(path, n, panel.row(s.project, s.graph, target, n)["default"])
                 for n in spec.properties if target.own_property(n) is None
                 and s.project.property_spec(n) is not None and s.project.property_spec(n).default is not None]
        if not edits:
            raise EditError(f"{target.name} sets every property {material} reads already")
        s.edit(Group(f"{target.name}: the properties {material} reads", edits))
        return state_of(engine)
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def check_binding(request: Request):
    data = await body(request)
    path, expression = text(data, "path", 4096), text(data, "expression")
    index = integer(data, "index") if "index" in data else None       # none: a new binding of `target`
    name = text(data, "target", 256) if index is None else None

    def work(engine):
        s = engine.session
        target = find_item(s.project, path)
        if index is not None and index >= len(target.bindings):
            raise EditError(f"{path} has no binding #{index}")
        if index is None and s.project.property_spec(name) is None:
            raise EditError(f"no property {name!r} in the catalog")
        return check_expression(s.project, target, index, expression, target=name)
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def undo(request: Request):
    def work(engine):
        engine.session.undo()
        return state_of(engine)
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def redo(request: Request):
    def work(engine):
        engine.session.redo()
        return state_of(engine)
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def save(request: Request):
    def work(engine):
        written = engine.session.save()
        return {**state_of(engine), "written": [os.path.basename(w) for w in written]}
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def control(request: Request):
    data = await body(request)
    action = text(data, "action", 16)
    if action not in CONTROLS:
        raise BadRequest(f"'action' must be one of {', '.join(CONTROLS)}")
    value = None
    if action == "seek":
        value = number(data, "value", 0.0, MAX_SEEK)
    elif action == "speed":
        value = number(data, "value", 0.0, 8.0)
    elif action == "step" and "value" in data:
        value = number(data, "value", 0.0, 1.0)

    def work(engine):
        engine.control(action, value)
        return engine.info()
    return JSONResponse(await request.app.state.engine.run(work))


@handler
async def set_many(request: Request):
    """Several properties of one item as one step of undo (the gradient and curve editors)."""
    def make(d):
        values = d.get("values")
        if not isinstance(values, dict) or not values or len(values) > MAX_VALUES:
            raise BadRequest(f"'values' must be an object of 1 to {MAX_VALUES} property names and values")
        path = text(d, "path", 4096)
        edits = [SetValue(path, text({"name": k}, "name", 256), text(values, k)) for k in values]
        return Group(text(d, "label", 200) if "label" in d else f"{len(edits)} values", edits)
    return await _edit(request, make)


def _tree_op(d: dict):
    kind = text(d, "op", 16)
    if kind == "add":
        return AddItem(text(d, "parent", 4096), type=d.get("type") and text(d, "type", 256),
                       material=d.get("material") and text(d, "material", 256),
                       name=d.get("name") and text(d, "name", 256))
    if kind == "remove":
        return RemoveItem(text(d, "path", 4096))
    if kind == "rename":
        return RenameItem(text(d, "path", 4096), text(d, "name", 256))
    if kind == "duplicate":
        return DuplicateItem(text(d, "path", 4096))
    if kind == "move":
        return MoveItem(text(d, "path", 4096), text(d, "parent", 4096), integer(d, "index"))
    if kind == "wire":
        return WireSubemitter(text(d, "path", 4096), text(d, "source", 4096))
    raise BadRequest("'op' must be add, remove, rename, duplicate, move or wire")


@handler
async def tree_edit(request: Request):
    return await _edit(request, _tree_op)


@handler
async def catalog(request: Request):
    """What "add" offers: the node types, and the materials by slot."""
    def work(engine):
        cat = engine.session.project.catalog
        types = sorted(t for t in cat.item_types if cat.item_type(t).is_node)
        return {"types": types, "materials": [{"name": m.name, "slot": m.slot} for m in cat.materials]}
    return JSONResponse(await request.app.state.engine.run(work))
