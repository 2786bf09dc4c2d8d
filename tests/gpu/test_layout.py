"""The numpy dtypes of kzplayer.gpu.layout agree with the GLSL structs of
shaders/Particles/particle_data.glsl: a compute shader writes a distinct value into every
field, the dtype reads each one back at its own offset. The particle record is split into
its hot part (`Particle`, 64 bytes) and its cold part (`ParticleCold`, 80 bytes); the
whole-record PARTICLE_DTYPE that Python reads is their join, checked here too."""
from __future__ import annotations

import numpy as np

from kzplayer.gpu import layout as L
from kzplayer.gpu.preprocessor import preprocess
from kzplayer.gpu.shader_errors import compile_compute

WRITER = """
#include "Particles/particle_data.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer P { Particle particles[]; };
layout(std430, binding = 1) buffer S { EmitterState state; };
layout(std430, binding = 2) buffer E { EventHeader header; ParticleEvent events[]; };
layout(std430, binding = 3) buffer C { ParticleCold coldParticles[]; };
void main() {
    for (uint i = 0u; i < 2u; ++i) {
        float b = float(i) * 1000.0;
        particles[i].position = vec3(1, 2, 3) + b;
        particles[i].age = 4.0 + b;
        particles[i].previousPosition = vec3(5, 6, 7) + b;
        particles[i].lifetime = 8.0 + b;
        particles[i].velocity = vec3(9, 10, 11) + b;
        particles[i].mass = 12.0 + b;
        particles[i].acceleration = vec3(13, 14, 15) + b;
        particles[i].flags = 20u + i * 1000u;
        coldParticles[i].scale = vec3(17, 18, 19) + b;
        coldParticles[i].hash = 16u + i * 1000u;
        coldParticles[i].rotationOrigin = vec3(21, 22, 23) + b;
        coldParticles[i].timeScale = 24.0 + b;
        coldParticles[i].angularVelocity = vec3(25, 26, 27) + b;
        coldParticles[i].serial = 28u + i * 1000u;
        coldParticles[i].color = vec4(29, 30, 31, 32) + b;
        coldParticles[i].custom = vec4(33, 34, 35, 36) + b;
    }
    state.groupsX = 1u; state.groupsY = 2u; state.groupsZ = 3u; state.count = 4u;
    state.requested = 5u; state.emitBase = 6u; state.freeCount = 7u; state.capacity = 8u;
    state.totalEmitted = 9u; state.totalDied = 10u; state.totalStalled = 11u; state.step = 12u;
    state.cycle = 13u; state.started = 14u; state.carry = 15.25lf; state.cycleTimer = 16.5lf;
    state.user = vec4(17, 18, 19, 20);
    header.count = 1u; header.capacity = 2u; header.dropped = 3u;
    for (uint i = 0u; i < 2u; ++i) {
        uint b = i * 100u;
        events[i].kind = 4u + b; events[i].particle = 5u + b; events[i].hash = 6u + b;
        events[i].age = 7.0 + float(b);
        events[i].position = vec3(8, 9, 10) + float(b); events[i].lifetime = 11.0 + float(b);
        events[i].normal = vec3(12, 13, 14) + float(b);
        events[i].velocity = vec3(15, 16, 17) + float(b);
        events[i].stagedSlot = 18u + b; events[i].stagedRank = 19u + b;
    }
}
"""


def _run(ctx, tmp_path):
    src = tmp_path / "writer.glsl"
    src.write_text(WRITER)
    program = compile_compute(ctx, preprocess(src))
    bufs = [ctx.buffer(reserve=2 * L.HOT_DTYPE.itemsize),
            ctx.buffer(reserve=L.EMITTER_STATE_DTYPE.itemsize),
            ctx.buffer(reserve=L.EVENT_HEADER_DTYPE.itemsize + 2 * L.EVENT_RECORD_DTYPE.itemsize),
            ctx.buffer(reserve=2 * L.COLD_DTYPE.itemsize)]
    for binding, buf in enumerate(bufs):
        buf.clear()
        buf.bind_to_storage_buffer(binding)
    program.run(1)
    data = [buf.read() for buf in bufs]
    for buf in bufs:
        buf.release()
    program.release()
    return data


HOT = {"position": (1, 2, 3), "age": 4, "previous_position": (5, 6, 7), "lifetime": 8,
       "velocity": (9, 10, 11), "mass": 12, "acceleration": (13, 14, 15), "flags": 20}
COLD = {"scale": (17, 18, 19), "hash": 16, "rotation_origin": (21, 22, 23), "time_scale": 24,
        "angular_velocity": (25, 26, 27), "serial": 28, "color": (29, 30, 31, 32), "custom": (33, 34, 35, 36)}


def test_particle_fields_at_their_offsets(ctx, tmp_path):
    data = _run(ctx, tmp_path)
    hot, cold = np.frombuffer(data[0], L.HOT_DTYPE), np.frombuffer(data[3], L.COLD_DTYPE)
    assert set(HOT) == set(L.HOT_DTYPE.names) and set(COLD) == set(L.COLD_DTYPE.names)
    for i in range(2):          # the second record proves the array stride
        for records, expected in ((hot, HOT), (cold, COLD)):
            for name, value in expected.items():
                np.testing.assert_array_equal(records[i][name], np.array(value) + 1000 * i, err_msg=name)


def test_the_whole_record_is_the_join_of_hot_and_cold_with_the_current_rotation(ctx, tmp_path):
    data = _run(ctx, tmp_path)
    hot, cold = np.frombuffer(data[0], L.HOT_DTYPE), np.frombuffer(data[3], L.COLD_DTYPE)
    records = L.join(hot, cold)
    assert set(L.PARTICLE_DTYPE.names) == (set(HOT) | set(COLD) | {"rotation"}) - {"rotation_origin"}
    for i in range(2):
        b = 1000 * i
        # the rotation turns with the spin as the particle ages: origin + angular velocity x age
        expected = (np.array([21, 22, 23]) + b) + (np.array([25, 26, 27]) + b) * np.float32(4 + b)
        np.testing.assert_allclose(records[i]["rotation"], expected, rtol=1e-6)
        for name in set(HOT) | set(COLD) - {"rotation_origin"}:
            np.testing.assert_array_equal(records[i][name], (HOT | COLD)[name] + np.array(b), err_msg=name)
    back_hot, back_cold = L.split(records)
    assert back_hot.tobytes() == hot.tobytes()
    np.testing.assert_allclose(back_cold["rotation_origin"], cold["rotation_origin"], rtol=1e-5)


def test_emitter_state_fields_at_their_offsets(ctx, tmp_path):
    state = np.frombuffer(_run(ctx, tmp_path)[1], L.EMITTER_STATE_DTYPE)[0]
    assert tuple(state["groups"]) == (1, 2, 3)
    names = ["count", "requested", "emit_base", "free_count", "capacity", "total_emitted",
             "total_died", "total_stalled", "step", "cycle", "started"]
    for value, name in enumerate(names, start=4):
        assert state[name] == value, name
    assert state["carry"] == 15.25 and state["cycle_timer"] == 16.5
    assert tuple(state["user"]) == (17, 18, 19, 20)


def test_event_buffer_fields_at_their_offsets(ctx, tmp_path):
    raw = _run(ctx, tmp_path)[2]
    header = np.frombuffer(raw[:L.EVENT_HEADER_DTYPE.itemsize], L.EVENT_HEADER_DTYPE)[0]
    assert (header["count"], header["capacity"], header["dropped"]) == (1, 2, 3)
    events = np.frombuffer(raw[L.EVENT_HEADER_DTYPE.itemsize:], L.EVENT_RECORD_DTYPE)
    for i in range(2):
        b = 100 * i
        e = events[i]
        assert (e["kind"], e["particle"], e["hash"], e["age"]) == (4 + b, 5 + b, 6 + b, 7 + b)
        np.testing.assert_array_equal(e["position"], np.array([8, 9, 10]) + b)
        assert e["lifetime"] == 11 + b
        np.testing.assert_array_equal(e["normal"], np.array([12, 13, 14]) + b)
        np.testing.assert_array_equal(e["velocity"], np.array([15, 16, 17]) + b)
        assert (e["_staged_slot"], e["_staged_rank"]) == (18 + b, 19 + b)


def test_flag_and_binding_constants_match_glsl():
    import re

    from kzplayer.resources import shader_dir
    text = (shader_dir() / "Particles/particle_data.glsl").read_text()
    defines = {name: int(value) for name, value in re.findall(r"#define (\w+)\s+(\d+)u?\b", text)}
    names = [n for n in dir(L) if n.isupper() and n.startswith(("FLAG_", "BINDING_", "EVENT_", "WORKGROUP",
                                                                 "UNIFORM_", "IMAGE_", "GROUPS_PER_RUN"))
             and isinstance(getattr(L, n), int) and not n.endswith("_TEXELS")]
    assert len(names) >= 28
    for name in names:
        assert defines.get(name) == getattr(L, name), name


TRACK_WRITER = """
#include "Particles/particle_data.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer T { ParticleTrack tracks[]; };
layout(std430, binding = 1) buffer E { EventHeader header; ParticleEvent events[]; };
void main() {
    for (uint i = 0u; i < 2u; ++i) {
        float b = float(i) * 100.0;
        tracks[i].hitPosition = vec3(1, 2, 3) + b;
        tracks[i].hitSpeed = 4.0 + b;
        tracks[i].hitNormal = vec3(5, 6, 7) + b;
        tracks[i].lastAge = 8.0 + b;
        tracks[i].serial = 9u + i * 100u;
        tracks[i].cycle = 10u + i * 100u;
        tracks[i].events = 20u + i * 100u;
        tracks[i].eventBase = 21u + i * 100u;
    }
    header.totalWritten = 11u; header.totalDropped = 12u;
    events[0].kind = 13u;
}
"""


def test_track_and_event_totals_at_their_offsets(ctx, tmp_path):
    src = tmp_path / "tracks.glsl"
    src.write_text(TRACK_WRITER)
    program = compile_compute(ctx, preprocess(src))
    bufs = [ctx.buffer(reserve=2 * L.TRACK_DTYPE.itemsize),
            ctx.buffer(reserve=L.EVENT_HEADER_DTYPE.itemsize + L.EVENT_RECORD_DTYPE.itemsize)]
    for binding, buf in enumerate(bufs):
        buf.clear()
        buf.bind_to_storage_buffer(binding)
    program.run(1)
    tracks = np.frombuffer(bufs[0].read(), L.TRACK_DTYPE)
    raw = bufs[1].read()
    for buf in bufs:
        buf.release()
    program.release()
    for i in range(2):
        b = 100 * i
        np.testing.assert_array_equal(tracks[i]["hit_position"], np.array([1, 2, 3]) + b)
        assert tracks[i]["hit_speed"] == 4 + b and tracks[i]["last_age"] == 8 + b
        np.testing.assert_array_equal(tracks[i]["hit_normal"], np.array([5, 6, 7]) + b)
        assert (tracks[i]["serial"], tracks[i]["cycle"]) == (9 + b, 10 + b)
        assert (tracks[i]["events"], tracks[i]["event_base"]) == (20 + b, 21 + b)
    header = np.frombuffer(raw[:L.EVENT_HEADER_DTYPE.itemsize], L.EVENT_HEADER_DTYPE)[0]
    assert (header["total_written"], header["total_dropped"]) == (11, 12)
    assert np.frombuffer(raw[L.EVENT_HEADER_DTYPE.itemsize:], L.EVENT_RECORD_DTYPE)[0]["kind"] == 13


LIVE_AND_FRAME = """
#include "Particles/common.glsl"
layout(std430, binding = 7) buffer Out { LiveHeader live[2]; uint frame[]; };
void main() {
    if (gl_GlobalInvocationID.x != 0u) {
        return;
    }
    for (uint i = 0u; i < 2u; ++i) {
        uint b = i * 100u;
        live[i].count = 1u + b; live[i].dispatchX = 2u + b; live[i].dispatchY = 3u + b; live[i].dispatchZ = 4u + b;
        live[i].drawVertices = 5u + b; live[i].drawInstances = 6u + b; live[i].drawFirst = 7u + b;
        live[i].drawBaseInstance = 8u + b;
    }
    frame[0] = floatBitsToUint(kz_dt); frame[1] = floatBitsToUint(kz_time); frame[2] = kz_step;
    frame[3] = kz_emitterCount; frame[4] = kz_slotCount; frame[5] = kz_runCount; frame[6] = kz_groupCount;
    frame[7] = kz_headerWords; frame[8] = kz_liveWords; frame[9] = kz_planEmit; frame[10] = kz_planStep;
    frame[11] = kz_planMove; frame[12] = kz_stepCounts; frame[13] = kz_derivedWords; frame[14] = kz_aliveWords;
    frame[15] = kz_deathWords; frame[16] = kz_writerWords; frame[17] = kz_groupWords; frame[18] = kz_runWords;
    frame[19] = kz_freeSlots; frame[20] = kz_rebuildWords; frame[21] = kz_endArgs; frame[34] = kz_historyStep;
    for (uint c = 0u; c < 3u; ++c) {
        for (uint r = 0u; r < 3u; ++r) {
            frame[22u + 3u * c + r] = floatBitsToUint(kz_worldToSimulation[c][r]);
        }
    }
    frame[31] = kz_hostWord; frame[32] = kz_hostBase; frame[33] = kz_hostCapacity;
}
"""


def test_live_header_and_the_frame_block_at_their_offsets(ctx, tmp_path):
    """The LiveHeader struct, and the KzFrame uniform block (std140) as params.frame_words
    writes it: every member read back where the shader sees it."""
    from kzplayer.gpu.params import frame_words
    from kzplayer.gpu.storage import Layout
    src = tmp_path / "live.glsl"
    src.write_text(LIVE_AND_FRAME)
    program = compile_compute(ctx, preprocess(src))
    out = ctx.buffer(reserve=2 * L.LIVE_HEADER_DTYPE.itemsize + 35 * 4)
    out.clear()
    layout = Layout([100, 5000, 0, 70], derived_words=7, host_events=321)
    m = np.arange(1, 17, dtype=float).reshape(4, 4)
    frame = ctx.buffer(frame_words(layout, dt=0.25, time=3.5, step=12345, world_to_simulation=m,
                                        history_step=678))
    try:
        out.bind_to_storage_buffer(7)
        frame.bind_to_uniform_block(L.UNIFORM_FRAME)
        program.run(1)
        raw = out.read()
    finally:
        out.release()
        frame.release()
        program.release()
    live = np.frombuffer(raw[:2 * L.LIVE_HEADER_DTYPE.itemsize], L.LIVE_HEADER_DTYPE)
    for i in range(2):
        b = 100 * i
        assert live[i]["count"] == 1 + b and tuple(live[i]["dispatch"]) == (2 + b, 3 + b, 4 + b)
        assert tuple(live[i]["draw"]) == (5 + b, 6 + b, 7 + b, 8 + b)
    words = np.frombuffer(raw[2 * L.LIVE_HEADER_DTYPE.itemsize:], np.uint32)
    assert words[:2].view(np.float32).tolist() == [0.25, 3.5] and words[2] == 12345
    w, s = layout.words, layout.schedule
    assert words[3:22].tolist() == [4, layout.slots, layout.runs, layout.groups, w["headers"], w["live"],
                                    s["plan_emit"], s["plan_step"], s["plan_move"], s["step_counts"], s["derived"],
                                    w["alive"], w["death"], w["writer"], w["group"], w["run"], layout.slots,
                                    s["rebuild"], s["end_args"]]
    np.testing.assert_array_equal(words[22:31].view(np.float32).reshape(3, 3), m[:3, :3].T)
    assert words[31:34].tolist() == [w["host"], layout.host_base, 321] and words[34] == 678
    assert layout.host_base == 2 * (100 + 5000 + 70) and layout.event_records == layout.host_base + 321
