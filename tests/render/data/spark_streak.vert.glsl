#version 430
// A custom rendering material (MaterialType slot="Particle"): each spark drawn as a streak,
// a camera-facing quad from where the particle is back to where it was Streak.Length
// seconds ago along its velocity, Streak.Width wide: the motion blur a camera would see.
// It reads the particle through the accessors and colours it over its life exactly as the
// stock ParticlesColorOverLife does (both included from the shader library).
#include "render/particle_vertex.glsl"
#include "render/over_life.glsl"

uniform float Streak_Length = 0.03;    // seconds of flight the streak covers
uniform float Streak_Width = 0.025;    // metres across

out vec2 v_corner;      // x across the streak, y from its tail (-1) to its head (+1)
out vec4 v_color;

void main() {
    uint i = kzParticleIndex();
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec3 head = (kz_view * (kz_model * vec4(getParticlePosition(i), 1.0))).xyz;
    vec3 velocity = mat3(kz_view) * (mat3(kz_model) * getParticleVelocity(i));
    vec3 tail = head - velocity * Streak_Length;
    vec3 along = head - tail;
    float half_width = 0.5 * Streak_Width * max(getParticleScale(i).x, 0.0)
                     * kzOverLifeScale(getParticleNormalizedAge(i)).x;
    if (length(along) < half_width) {           // barely moving: a short round dab
        along = vec3(0.0, 2.0 * half_width, 0.0);
        tail = head - along;
    }
    vec3 p = mix(tail, head, corner.y * 0.5 + 0.5);
    vec3 side = normalize(cross(along, p));     // across the streak, seen from the camera
    gl_Position = kz_projection * vec4(p + side * corner.x * half_width, 1.0);
    v_corner = corner;
    v_color = kzOverLifeParticleColor(i);
}
