#version 430
// Particles_Faces, vertex stage: NeL's faces, a quad oriented by a basis instead of the
// camera. Rotation (the default): the particle's Euler rotation turns a quad in its XY plane.
// Velocity (KZ_FACES_VELOCITY): the first axis follows the velocity, the second is the world's
// up made perpendicular to it (Gram-Schmidt; the world's X when the velocity is vertical).
// Particle.Size x scale per axis; four vertices of a strip.
#include "render/representation.glsl"

uniform float Particle_Size = 0.1;

out vec2 v_uv;
out vec2 v_corner;
out vec4 v_color;

// Two orthonormal axes of the quad in the world.
void kzFaceBasis(uint i, out vec3 u, out vec3 v) {
    mat3 turn = mat3(kz_model) * kzEulerMatrix(getParticleRotation(i));
    u = normalize(turn[0]);
    v = normalize(turn[1]);
#ifdef KZ_FACES_VELOCITY
    vec3 velocity = mat3(kz_model) * getParticleVelocity(i);
    if (length(velocity) > 1e-6) {
        u = normalize(velocity);
        vec3 up = abs(u.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
        v = normalize(up - dot(up, u) * u);      // Gram-Schmidt
    }
#endif
}

void main() {
    uint i = kzParticleIndex();
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec3 u, v;
    kzFaceBasis(i, u, v);
    vec3 half_size = 0.5 * Particle_Size * kzRepresentationScale(i);
    vec3 world = kzWorldOf(getParticlePosition(i)) + corner.x * half_size.x * u + corner.y * half_size.y * v;
    gl_Position = kzClipOfWorld(world);
    v_corner = corner;
    v_uv = corner * 0.5 + 0.5;
    v_color = kzRepresentationColor(i);
}
