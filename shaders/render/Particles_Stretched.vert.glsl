#version 430
// Particles_Stretched, vertex stage: a camera-facing quad from the particle back to where it
// was Stretched.Length seconds ago at its current velocity, Particle.Size x scale wide, with
// half a width more at either end for round caps (motion blur). Four vertices of a strip:
// corner x across (-1, 1), y from the tail (-1) to the head (1).
#include "render/representation.glsl"

uniform float Particle_Size = 0.1;
uniform float Stretched_Length = 0.05;

out vec2 v_uv;
out vec2 v_corner;
out vec4 v_color;

void main() {
    uint i = kzParticleIndex();
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec3 head = (kz_view * vec4(kzWorldOf(getParticlePosition(i)), 1.0)).xyz;
    vec3 velocity = mat3(kz_view) * (mat3(kz_model) * getParticleVelocity(i));
    float half_width = 0.5 * Particle_Size * abs(kzRepresentationScale(i).x);
    vec3 along = velocity * Stretched_Length;
    // what the camera sees of the streak: its length across the line of sight
    vec3 sight = normalize(head);
    vec3 seen = along - dot(along, sight) * sight;
    if (length(seen) < 1e-6) {
        seen = vec3(0.0, 1e-6, 0.0);        // flying straight at the camera: a round dab
    }
    vec3 dir = normalize(seen);
    vec3 tail = head - seen - dir * half_width;
    vec3 front = head + dir * half_width;
    vec3 side = normalize(cross(dir, sight));
    vec3 p = mix(tail, front, corner.y * 0.5 + 0.5) + side * corner.x * half_width;
    gl_Position = kz_projection * vec4(p, 1.0);
    v_corner = corner;
    v_uv = corner * 0.5 + 0.5;
    v_color = kzRepresentationColor(i);
}
