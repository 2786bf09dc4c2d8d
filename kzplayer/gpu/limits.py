"""What this OpenGL driver lets one emitter and one ParticleSystem hold (docs/player.md,
"Limits"), and what the whole project's particle buffers may take together (the buffer
budget, docs/hardening.md "GPU buffers")."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from kzplayer.diagnostics import Diagnostic, Severity
from kzplayer.gpu import layout as L


def max_pool(ctx) -> int:
    """The most particles one emitter can hold on this driver. Two limits: one dispatch of
    WORKGROUP_SIZE-wide groups covers every slot (GL_MAX_COMPUTE_WORK_GROUP_COUNT, 65,535 at
    least), and the pool, drawn as one storage-block range of its whole records
    (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, 128 MiB at least and on Mesa, 2 GiB and more on
    desktop GPUs). Past the second, a driver may clamp the bound range and silently drop the
    slots beyond it (llvmpipe happens not to)."""
    groups = int(ctx.info.get("GL_MAX_COMPUTE_WORK_GROUP_COUNT", (65535,))[0])
    block = int(ctx.info.get("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", 1 << 27))
    # The whole particle record (hot + cold) is the largest per-slot record.
    return min(groups * L.WORKGROUP_SIZE, block // L.PARTICLE_DTYPE.itemsize)


def system_limit(ctx, image_io: bool) -> int:
    """The most slots one ParticleSystem's emitters hold together: its step is one dispatch,
    and each of its buffers one texel buffer (or, without them, one storage block). The
    events buffer is the largest per slot (a record and a staging record: 128 bytes)."""
    groups = int(ctx.info.get("GL_MAX_COMPUTE_WORK_GROUP_COUNT", (65535,))[0])
    if image_io:
        texels = int(ctx.info.get("GL_MAX_TEXTURE_BUFFER_SIZE", 65536) or 65536)
        per_buffer = texels // (2 * L.EVENT_TEXELS)
    else:
        block = int(ctx.info.get("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", 1 << 27))
        per_buffer = block // (2 * L.EVENT_RECORD_DTYPE.itemsize)
    return min(groups * L.WORKGROUP_SIZE, per_buffer)


# -- the project's GPU buffer budget (docs/hardening.md, "GPU buffers") --------------------

BUFFER_BUDGET = 2 << 30          # bytes of simulation and sort buffers a project may ask for
_budget: ContextVar[int] = ContextVar("buffer_budget", default=BUFFER_BUDGET)


def buffer_budget() -> int:
    """The budget in force (BUFFER_BUDGET, or what `play --buffer-budget` raised it to)."""
    return _budget.get()


@contextmanager
def buffer_budget_of(nbytes: int):
    """Run with another budget (play's --buffer-budget)."""
    token = _budget.set(int(nbytes))
    try:
        yield
    finally:
        _budget.reset(token)


def sort_bytes(capacity: int) -> int:
    """What one sorter of a live list of `capacity` particles holds (kzplayer.render.sort):
    two pair buffers of 8 x P(C) bytes, 64 bytes of counts per 64 slots, the sorted list."""
    padded = 1 << max(capacity - 1, 0).bit_length()
    return 16 * padded + 5 * capacity + 64


def system_bytes(layout, sorters: list[int]) -> dict[str, int]:
    """Bytes of one system's buffers by kind, from its Layout (kzplayer.gpu.storage) before
    any is made, and `sorters`, the sorters each emitter's draws keep (SortingType, CastLight)."""
    slots = max(layout.slots, L.WORKGROUP_SIZE)
    return {"particles": slots * (L.HOT_DTYPE.itemsize + L.COLD_DTYPE.itemsize),
            "tracks": slots * L.TRACK_DTYPE.itemsize,
            "events": max(layout.event_records, 1) * L.EVENT_RECORD_DTYPE.itemsize,
            "slots": 2 * slots * 4 + layout.control_words * 4,
            "history": layout.history_entries * L.HISTORY_DTYPE.itemsize,
            "sort": sum(n * sort_bytes(cap) for n, cap in zip(sorters, layout.capacities))}


def draw_sorters(value, item, channel: bool) -> int:
    """The sorters one member's draws keep (refresh and validate count the same): one for a
    SortingType other than Identity, one for CastLight; none for a channel (never drawn)."""
    if channel:
        return 0
    return (int(str(value(item, "ParticleEmitter.SortingType") or "Identity") != "Identity")
            + int(value(item, "ParticleEmitter.CastLight") is True))


def held_pools(asked: list[int], most: int, limit: int) -> list[int]:
    """The pools a system's members (dependency order, then channels) get on a driver that
    holds `most` particles an emitter (max_pool) and `limit` a system (system_limit): what
    kzplayer.gpu.refresh gives them, without the warnings (validate's buffer budget)."""
    sizes, total = [], 0
    for pool in asked:
        size = min(pool, most, max(limit - total, 0))
        sizes.append(size)
        total += -(-size // L.WORKGROUP_SIZE) * L.WORKGROUP_SIZE
    return sizes


def over_budget(systems: dict[str, dict[str, int]], budget: int) -> Diagnostic | None:
    """`systems`: {system path: bytes by kind}; a play.buffer-budget error with the
    breakdown when they need more than `budget` together, else None."""
    total = sum(sum(kinds.values()) for kinds in systems.values())
    if total <= budget:
        return None
    ranked = sorted(systems.items(), key=lambda kv: -sum(kv[1].values()))
    parts = [f"{path} {_gib(sum(kinds.values()))} ("
             + ", ".join(f"{kind} {_gib(n)}" for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]) if n)
             + ")" for path, kinds in ranked[:5]]
    if len(ranked) > 5:
        parts.append(f"and {len(ranked) - 5} more systems")
    return Diagnostic("KZ913", "play.buffer-budget", Severity.ERROR,
                      f"the project's particle buffers need {_gib(total)} of GPU memory, more than the budget "
                      f"of {_gib(budget)} (--buffer-budget): {'; '.join(parts)}", None,
                      "lower ParticleEmitter.MaximumAmount (or Trail.Length, --events-cap) where most goes, "
                      "or raise the budget with --buffer-budget GIB on a GPU that has the memory")


def _gib(n: int) -> str:
    return f"{n / 2**30:.2f} GiB" if n >= 2**28 else f"{n / 2**20:.1f} MiB"
