"""Checkpoints of a running Simulation: everything the next frame reads, as bytes, restored
bit for bit into a Simulation of the same project with the same values (docs/batch.md,
"A long shot in segments").

    data = sim.checkpoint()          # bytes
    other = Simulation(ctx, project, graph, seed=7)
    other.restore(data)              # other now plays on exactly as sim does

What is kept: every buffer of every system's storage whole (particles hot and cold, tracks
with the event generators' memory, Event Buffers (their scratch zeroed), live lists and free stacks,
the emitter states with the schedule's carry, cycle timer and cycle and the randomness
counters, the event headers, alive/death/writer masks, the per-step schedule words and
derived words, the position histories); per system its clock, steps and steps run; per
emitter its emission LOD factor and the totals the stats are counted from; the frame
counter, the dropped steps, the host events' drop counts, the last frame's figures and the
frames still waiting in the stats ring (their snapshots, so the restored run hands out the
same figures and host events at the same frames). Randomness is a hash of counters
(seed, emitter, step, spawn), so the counters are the random streams' whole state.

What is not kept is what the project and its values decide, rebuilt by the Simulation the
checkpoint is restored into: programs, parameter words, mesh data, the emitter table
(but its LOD words). The header names the project (a hash of its files, or of its items
for a project made in memory) and its values (a hash of the parameter words, pool layouts
and seed): a checkpoint restored into another project, or the same one with other values,
is refused with a clear error, never half-applied.

The bytes: MAGIC, a version, the JSON header's length and the header (sorted keys), then
the blobs it lists, zlib-compressed as one. The same state gives the same bytes.
"""
from __future__ import annotations

import hashlib
import json
import struct
import zlib
from pathlib import Path

import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu import layout as L
from kzplayer.gpu.nodes import EmitterStats
from kzplayer.gpu.stats_ring import system_figures

MAGIC = b"KZCKPT"
VERSION = 1
BUFFERS = ("hot", "cold", "tracks", "events", "slots", "control", "schedule", "history")
_PREFIX = struct.Struct("<6sHI")          # magic, version, header bytes
_LEVEL = 1                                # zlib: most of a pool is zeros; speed matters more


class CheckpointError(KzError):
    """A checkpoint that cannot be restored here: not a checkpoint, another version, another
    project or other values, another pool layout. Bad input: exit code 2."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(Diagnostic("KZ912", "play.checkpoint", Severity.ERROR, message, None, hint), exit_code=2)


# -- the fingerprints ------------------------------------------------------------------------

def project_hash(project) -> str:
    """The project's own content: its files' bytes (every file the loader read), or for a
    project made in memory its items, properties, bindings and attributes."""
    h = hashlib.sha256()
    files = [Path(f) for f in getattr(project, "files", []) or []]
    if files:
        for f in files:
            h.update(f.name.encode() + b"\0")
            try:
                h.update(f.read_bytes())
            except OSError:
                h.update(b"(unreadable)")
    else:
        for item in project.walk():
            h.update(repr((item.type, item.path, sorted(item.attributes.items()),
                           sorted((k, repr(p.value)) for k, p in item.properties.items()),
                           [repr(b) for b in item.bindings])).encode())
    return h.hexdigest()[:32]


def values_hash(sim) -> str:
    """What the project's values make of the simulation: the seed, every system's emitters,
    pool layout and parameter words (--set values, bindings and presets all end there)."""
    h = hashlib.sha256(repr(sim.seed).encode())
    for runner in sim.runners:
        h.update(repr((runner.system.item.path, [em.path for em in runner.system.members],
                       runner.storage.layout.key if runner.storage is not None else None)).encode())
        if runner.code is not None:
            h.update(runner._parameters().tobytes())
    return h.hexdigest()[:32]


# -- writing ---------------------------------------------------------------------------------

def fingerprints(sim) -> tuple[str, str]:
    """(project_hash, values_hash) of a simulation: what a checkpoint of it is named by."""
    return project_hash(sim.project), values_hash(sim)


def checkpoint(sim, extra: dict | None = None, named: tuple[str, str] | None = None) -> bytes:
    """The simulation's state as bytes (`extra`: JSON-able state of the caller, the Player's,
    kept in the header under "extra"; `named`: its `fingerprints`, when the caller has
    worked them out for this state of its values already: the Player's timeline)."""
    named = named or fingerprints(sim)
    blobs: list[tuple[str, bytes]] = []

    def blob(name: str, data: bytes) -> str:
        blobs.append((name, bytes(data)))
        return name

    systems = []
    for i, runner in enumerate(sim.runners):
        system, storage = runner.system, runner.storage
        entry = {"path": system.item.path, "members": [em.path for em in system.members],
                 "steps": system.steps, "runs": system.runs, "clock": system.clock, "buffers": {},
                 "emitters": [{"lod": em.lod, "event_totals": list(map(int, em.event_totals)),
                               "totals": blob(f"{i}/{k}/totals", _state_bytes(em.totals))}
                              for k, em in enumerate(system.members)]}
        if storage is not None:
            entry["layout"] = _jsonable(storage.layout.key)
            storage.sync_for_cpu()
            for name in BUFFERS:
                raw = getattr(storage, name).read()
                entry["buffers"][name] = blob(f"{i}/{name}", scratch_cleared(storage, raw) if name == "events" else raw)
        systems.append(entry)
    header = {
        "kind": "kzplayer simulation checkpoint",
        "project": sim.project.name, "project_hash": named[0], "values_hash": named[1],
        "frames": sim.frames, "systems": systems,
        "dropped_steps": dict(sim.dropped_steps),
        "host_dropped": sim.host_events.dropped,
        "host_frame_dropped": {str(k): v for k, v in sim.host_events.frame_dropped.items()},
        "last_stats": [vars(s) for s in _last_stats(sim).values()],
        "ring": _ring(sim, blob),
        "extra": extra or {},
    }
    header["blobs"] = [[name, len(data)] for name, data in blobs]
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    payload = zlib.compress(b"".join(data for _, data in blobs), _LEVEL)
    return _PREFIX.pack(MAGIC, VERSION, len(text)) + text + payload


def scratch_cleared(storage, events: bytes) -> bytes:
    """An events buffer with its scratch zeroed: each emitter's staging half (the writers
    append there by atomics, in the GPU's order, and the ordering passes move every record
    out within the step) and the host records (copied into the stats ring at the frame's
    end). No later frame reads them, and left in they would make equal states unequal bytes."""
    out = bytearray(events)
    size = L.EVENT_RECORD_DTYPE.itemsize
    lay = storage.layout
    for r in lay.ranges:
        at = (r.event_base + r.capacity) * size
        out[at:at + r.capacity * size] = bytes(r.capacity * size)
    at = lay.host_base * size
    out[at:at + lay.host_events * size] = bytes(lay.host_events * size)
    return bytes(out)


def _state_bytes(state) -> bytes:
    if state is None:
        return b""
    return np.asarray(state, L.EMITTER_STATE_DTYPE).tobytes()


def _jsonable(value):
    return json.loads(json.dumps(value))


def _last_stats(sim) -> dict:
    """The last frame's figures; a frame folded in unasked is worked out now, as
    Simulation.stats would, without flushing the ring."""
    if sim._last_stats is None:
        systems, befores = sim._folded
        figures = {}
        for (emitters, states, headers), before in zip(systems, befores):
            figures.update(system_figures(emitters, states, headers, before))
        sim._last_stats = figures
    return sim._last_stats


def _ring(sim, blob) -> list:
    """The frames waiting in the stats ring, their snapshot buffers read (not taken)."""
    index = {id(runner.system): i for i, runner in enumerate(sim.runners)}
    out = []
    for frame, entries in sim._ring.pending:
        kept = []
        for emitters, buf, host in entries:
            i = index[id(emitters[0].system)]
            item = {"system": i, "members": len(emitters), "stats": blob(f"ring/{frame}/{i}", buf.read())}
            if host is not None:
                hbuf, capacity, number, h, to_world = host
                item["host"] = {"capacity": capacity, "number": number, "h": h,
                                "records": blob(f"ring/{frame}/{i}/host", hbuf.read()),
                                "to_world": blob(f"ring/{frame}/{i}/to_world",
                                                 np.asarray(to_world, np.float64).tobytes())}
            kept.append(item)
        out.append({"frame": frame, "entries": kept})
    return out


# -- reading ---------------------------------------------------------------------------------

def read_header(data: bytes) -> dict:
    """The header of a checkpoint (CheckpointError when `data` is none of this version)."""
    data = bytes(data)
    if len(data) < _PREFIX.size or data[:len(MAGIC)] != MAGIC:
        raise CheckpointError("not a kzplayer checkpoint (it does not start with KZCKPT)")
    _, version, size = _PREFIX.unpack_from(data)
    if version != VERSION:
        raise CheckpointError(f"a checkpoint of version {version}; this kzplayer reads version {VERSION}",
                              "make the checkpoints again with this kzplayer")
    try:
        return json.loads(data[_PREFIX.size:_PREFIX.size + size])
    except ValueError:
        raise CheckpointError("a damaged checkpoint: its header is not JSON") from None


def _blobs(data: bytes, header: dict) -> dict[str, bytes]:
    start = _PREFIX.size + _PREFIX.unpack_from(data)[2]
    try:
        payload = zlib.decompress(data[start:])
    except zlib.error:
        raise CheckpointError("a damaged checkpoint: its data does not decompress (cut short?)") from None
    out, at = {}, 0
    for name, size in header["blobs"]:
        out[name] = payload[at:at + size]
        at += size
    if at != len(payload):
        raise CheckpointError(f"a damaged checkpoint: {len(payload):,} bytes of data where its header lists {at:,}")
    return out


def restore(sim, data: bytes, named: tuple[str, str] | None = None) -> dict:
    """Put a checkpoint's state into `sim` (built for the same project and values); returns
    its header. Everything is checked before anything is written (`named`: the simulation's
    `fingerprints`, when the caller has them)."""
    data = bytes(data)
    header = read_header(data)
    _check(sim, header, named or fingerprints(sim))
    blobs = _blobs(data, header)
    for runner, entry in zip(sim.runners, header["systems"]):
        storage = runner.storage
        if storage is not None:
            for name in BUFFERS:
                raw = blobs[entry["buffers"][name]]
                if len(raw) != getattr(storage, name).size:
                    raise CheckpointError(f"{entry['path']}: its {name} buffer holds {len(raw):,} bytes in the "
                                          f"checkpoint, {getattr(storage, name).size:,} here (another OpenGL driver?)")
    sim._ring.release()                   # frames the restored-into run had waiting are not its own now
    for runner, entry in zip(sim.runners, header["systems"]):
        system, storage = runner.system, runner.storage
        system.steps, system.runs, system.clock = int(entry["steps"]), int(entry["runs"]), float(entry["clock"])
        if storage is not None:
            storage.sync_for_cpu()
            for name in BUFFERS:
                getattr(storage, name).write(blobs[entry["buffers"][name]])
        for k, (em, state) in enumerate(zip(system.members, entry["emitters"])):
            raw = blobs[state["totals"]]
            em.totals = np.frombuffer(raw, L.EMITTER_STATE_DTYPE)[0].copy() if raw else None
            em.event_totals = tuple(state["event_totals"])
            em.lod = float(state["lod"])
            runner.write_lod(k)
    sim.frames = int(header["frames"])
    sim.dropped_steps = {str(k): int(v) for k, v in header["dropped_steps"].items()}
    sim.host_events.dropped = int(header["host_dropped"])
    sim.host_events.frame_dropped = {int(k): int(v) for k, v in header["host_frame_dropped"].items()}
    sim._last_stats = {s["emitter"]: EmitterStats(**s) for s in header["last_stats"]}
    sim._folded = None
    _restore_ring(sim, header["ring"], blobs)
    return header


def _check(sim, header: dict, named: tuple[str, str]) -> None:
    mine, values = named
    if header["project_hash"] != mine:
        raise CheckpointError(
            f"this checkpoint is of project '{header['project']}' (hash {header['project_hash'][:12]}), not of "
            f"'{sim.project.name}' (hash {mine[:12]}): a checkpoint restores only into the project it was made of",
            "make the checkpoint from this project (an edited project needs new checkpoints)")
    if header["values_hash"] != values:
        raise CheckpointError(
            f"this checkpoint of '{header['project']}' was made with other values (--set, seed or listened-to "
            f"events: hash {header['values_hash'][:12]}, here {values[:12]})",
            "restore it into a simulation built with the same --set values and seed")
    systems = header["systems"]
    if [(s["path"], s["members"]) for s in systems] != [(r.system.item.path, [em.path for em in r.system.members])
                                                        for r in sim.runners]:
        raise CheckpointError("this checkpoint's particle systems and emitters are not this simulation's")


def _restore_ring(sim, frames: list, blobs: dict) -> None:
    ring = sim._ring
    for frame in frames:
        entries = []
        for item in frame["entries"]:
            runner = sim.runners[item["system"]]
            emitters = list(runner.system.members)
            buf = sim.ctx.buffer(blobs[item["stats"]])
            host = None
            if "host" in item:
                h = item["host"]
                to_world = np.frombuffer(blobs[h["to_world"]], np.float64).reshape(-1, 4, 4)
                host = (sim.ctx.buffer(blobs[h["records"]]), int(h["capacity"]), int(h["number"]), float(h["h"]),
                        [m.copy() for m in to_world])
            entries.append((emitters, buf, host))
        ring.pending.append((int(frame["frame"]), entries))


__all__ = ["CheckpointError", "MAGIC", "VERSION", "checkpoint", "fingerprints", "project_hash", "read_header",
           "restore", "scratch_cleared", "values_hash"]
