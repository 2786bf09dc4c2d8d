"""The numpy dtypes of kzplayer.gpu.layout agree with the GLSL structs of
shaders/Particles/particle_data.glsl: a compute shader writes a distinct value into every
field, the dtype reads each one back at its own offset."""
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
        particles[i].hash = 16u + i * 1000u;
        particles[i].scale = vec3(17, 18, 19) + b;
        particles[i].flags = 20u + i * 1000u;
        particles[i].rotation = vec3(21, 22, 23) + b;
        particles[i].timeScale = 24.0 + b;
        particles[i].angularVelocity = vec3(25, 26, 27) + b;
        particles[i].serial = 28u + i * 1000u;
        particles[i].color = vec4(29, 30, 31, 32) + b;
        particles[i].custom = vec4(33, 34, 35, 36) + b;
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
    bufs = [ctx.buffer(reserve=2 * L.PARTICLE_DTYPE.itemsize),
            ctx.buffer(reserve=L.EMITTER_STATE_DTYPE.itemsize),
            ctx.buffer(reserve=L.EVENT_HEADER_DTYPE.itemsize + 2 * L.EVENT_RECORD_DTYPE.itemsize)]
    for binding, buf in enumerate(bufs):
        buf.clear()
        buf.bind_to_storage_buffer(binding)
    program.run(1)
    data = [buf.read() for buf in bufs]
    for buf in bufs:
        buf.release()
    program.release()
    return data


def test_particle_fields_at_their_offsets(ctx, tmp_path):
    particles = np.frombuffer(_run(ctx, tmp_path)[0], L.PARTICLE_DTYPE)
    expected = {
        "position": (1, 2, 3), "age": 4, "previous_position": (5, 6, 7), "lifetime": 8,
        "velocity": (9, 10, 11), "mass": 12, "acceleration": (13, 14, 15), "hash": 16,
        "scale": (17, 18, 19), "flags": 20, "rotation": (21, 22, 23), "time_scale": 24,
        "angular_velocity": (25, 26, 27), "serial": 28, "color": (29, 30, 31, 32),
        "custom": (33, 34, 35, 36),
    }
    assert set(expected) == set(L.PARTICLE_DTYPE.names)
    for i in range(2):          # the second record proves the array stride
        for name, value in expected.items():
            np.testing.assert_array_equal(particles[i][name], np.array(value) + 1000 * i, err_msg=name)


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
    names = [n for n in dir(L) if n.isupper() and n.startswith(("FLAG_", "BINDING_", "EVENT_", "WORKGROUP"))
             and isinstance(getattr(L, n), int)]
    assert len(names) >= 17
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
