#version 430
// kzplayer's default particle material, vertex stage: one camera-facing quad per pool
// slot, drawn instanced straight from the emitter's Particle Data Buffer (no readback).
// Dead slots are moved outside the clip volume, so the rasteriser drops them.
#include "Particles/particle_read.glsl"

uniform mat4 u_model;          // simulation space -> world (identity unless LocalSpace)
uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec2 u_viewport;       // pixels
uniform float u_sprite_size;   // world width of the quad at scale 1 (Particle.Size)
uniform float u_min_pixels;    // smallest drawn width, so far or tiny particles never vanish
uniform vec4 u_tint;           // Particle.Color
uniform int u_color_over_life; // 0: the warm default ramp; 1: u_start_color -> u_end_color
uniform vec4 u_start_color;    // ColorOverLife.StartColor
uniform vec4 u_end_color;      // ColorOverLife.EndColor

out vec2 v_corner;             // quad corner in [-1, 1]^2
out vec4 v_color;              // rgb, a = brightness weight

vec3 ageRamp(float t) {
    // white-hot at birth -> orange -> deep red at death: the warm default look
    vec3 hot = vec3(1.0, 0.92, 0.72);
    vec3 warm = vec3(1.0, 0.50, 0.12);
    vec3 ember = vec3(0.85, 0.18, 0.04);
    return t < 0.4 ? mix(hot, warm, t / 0.4) : mix(warm, ember, (t - 0.4) / 0.6);
}

vec4 overLife(vec4 start, vec4 end, float t) {
    // As Kanzi's ColorOverLife material does: mix the colours in linear light (gamma
    // 2.22), then back to gamma; alpha mixes linearly.
    vec3 rgb = mix(pow(start.rgb, vec3(2.22)), pow(end.rgb, vec3(2.22)), t);
    return vec4(pow(rgb, vec3(1.0 / 2.22)), mix(start.a, end.a, t));
}

void main() {
    uint i = uint(gl_InstanceID);
    float lifetime = getParticleLifetime(i);
    if (!isParticleAlive(i) || !(lifetime > 0.0)) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        v_corner = vec2(0.0);
        v_color = vec4(0.0);
        return;
    }
    v_corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;

    vec4 centre = u_projection * (u_view * (u_model * vec4(getParticlePosition(i), 1.0)));
    // Offsetting in view space keeps the quad facing the camera; in clip space that is a
    // shift of size * P[0][0] in x and size * P[1][1] in y (w is unchanged).
    vec3 scale = getParticleScale(i);
    float half_size = 0.5 * u_sprite_size * max(abs(scale.x), abs(scale.y));
    vec2 half_clip = half_size * vec2(u_projection[0][0], u_projection[1][1]);
    vec2 min_half_clip = (u_min_pixels / u_viewport) * abs(centre.w);
    half_clip = max(half_clip, min_half_clip);
    // Spin about the view axis by the particle's Z rotation (visible with a texture).
    float spin = getParticleRotation(i).z;
    float c = cos(spin), s = sin(spin);
    vec2 spun = mat2(c, s, -s, c) * v_corner;
    gl_Position = centre + vec4(spun * half_clip, 0.0, 0.0);

    float t = clamp(getParticleAge(i) / lifetime, 0.0, 1.0);
    vec4 life = u_color_over_life != 0
        ? overLife(u_start_color, u_end_color, t)
        : vec4(ageRamp(t), 1.0 - smoothstep(0.7, 1.0, t));
    v_color = life * getParticleColor(i) * u_tint;
}
