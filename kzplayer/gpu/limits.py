"""What this OpenGL driver lets one emitter and one ParticleSystem hold (docs/player.md,
"Limits")."""
from __future__ import annotations

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
