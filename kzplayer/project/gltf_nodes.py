"""A glTF's node tree flattened before trimesh reads it (kzplayer.meshes, which imports it): every node that
draws a mesh becomes a root node with its world matrix, computed in one pass over the tree
from the scene's roots, with a stack instead of recursion.

trimesh walks a node graph once per node to its root: 300 nodes nested in one another took
11 s, 3,000 took 51 s (issue 21), and the walk recurses. Here each node is visited once, so a
tree of N nodes costs N visits and N matrix products (`Flat.visits`), whatever its depth.
A node reached twice (glTF forbids it: a cycle, or a node with two parents) or more than
MAX_NODES visits are refused (MeshError)."""
from __future__ import annotations

import json
import struct
from dataclasses import dataclass

import numpy as np

MAX_NODES = 200_000          # node visits of one file (a 64 MiB file holds fewer)


@dataclass
class Flat:
    data: bytes              # the file again, its nodes flattened
    visits: int              # nodes visited (the work done: linear in the node count)


class TreeError(ValueError):
    """A node tree that cannot be flattened: the message says why."""


def flatten_file(data: bytes, glb: bool) -> Flat | None:
    """`data` (a .gltf's JSON or a .glb) with its nodes flattened; None when it has no node
    tree to flatten (at most one node, none with children)."""
    if glb:
        if len(data) < 20 or data[:4] != b"glTF":
            return None
        length, kind = struct.unpack_from("<II", data, 12)
        if kind != 0x4E4F534A:                # "JSON"
            return None
        tree = _json(data[20:20 + length])
        rest = data[20 + length:]
    else:
        tree = _json(data)
    nodes = tree.get("nodes") if isinstance(tree, dict) else None
    if not isinstance(nodes, list) or not any(isinstance(n, dict) and n.get("children") for n in nodes):
        return None
    flat, visits = _flat_nodes(tree, nodes)
    tree = dict(tree, nodes=flat, scenes=[{"nodes": list(range(len(flat)))}], scene=0)
    text = json.dumps(tree, separators=(",", ":")).encode("utf-8")
    if not glb:
        return Flat(text, visits)
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + rest
    return Flat(b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body, visits)


def _json(data: bytes):
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:      # RecursionError: JSON nested too deep
        raise TreeError(f"not a glTF file ({exc.__class__.__name__})") from None


def _flat_nodes(tree: dict, nodes: list) -> tuple[list[dict], int]:
    scenes = tree.get("scenes")
    scene = tree.get("scene", 0)
    if isinstance(scenes, list) and isinstance(scene, int) and 0 <= scene < len(scenes) \
            and isinstance(scenes[scene], dict):
        roots = scenes[scene].get("nodes") or []
    else:                                     # no scene: every node no other names as a child
        children = {c for n in nodes if isinstance(n, dict) for c in n.get("children") or () if isinstance(c, int)}
        roots = [i for i in range(len(nodes)) if i not in children]
    out, seen, visits = [], set(), 0
    stack = [(r, np.eye(4)) for r in reversed(list(roots))]
    while stack:
        index, parent = stack.pop()
        if not isinstance(index, int) or not 0 <= index < len(nodes) or not isinstance(nodes[index], dict):
            raise TreeError(f"a node list names node {index!r}, which the file does not have")
        if index in seen:
            raise TreeError(f"node {index} is reached twice (a cycle, or a node with two parents)")
        seen.add(index)
        visits += 1
        if visits > MAX_NODES:
            raise TreeError(f"more than {MAX_NODES:,} nodes")
        node = nodes[index]
        world = parent @ _local(node, index)
        if "mesh" in node:
            out.append({"mesh": node["mesh"], "matrix": world.T.reshape(-1).tolist()})
        children = node.get("children") or []
        if not isinstance(children, list):
            raise TreeError(f"node {index}: children is not a list")
        stack.extend((c, world) for c in reversed(children))
    return out, visits


def _local(node: dict, index: int) -> np.ndarray:
    """A node's own transform: its `matrix` (column-major) or translation x rotation x scale."""
    try:
        if "matrix" in node:
            m = np.array(node["matrix"], dtype=np.float64).reshape(4, 4).T
        else:
            t = np.array(node.get("translation", (0, 0, 0)), dtype=np.float64).reshape(3)
            x, y, z, w = np.array(node.get("rotation", (0, 0, 0, 1)), dtype=np.float64).reshape(4)
            s = np.array(node.get("scale", (1, 1, 1)), dtype=np.float64).reshape(3)
            r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                          [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                          [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
            m = np.eye(4)
            m[:3, :3] = r * s
            m[:3, 3] = t
    except (TypeError, ValueError):
        raise TreeError(f"node {index}: its transform is not numbers") from None
    if not np.isfinite(m).all():
        raise TreeError(f"node {index}: its transform is not finite")
    return m
