#version 430
// Particles_Ribbon, vertex stage: NeL's ribbon, a tube of regular kz_sides-gon section (Ribbon.Sides,
// fewer when the geometry LOD says so) through the particle's last N positions: N rings of
// sides + 1 vertices (the last repeats the first for the texture's seam), indexed triangles
// (render/representations.py): vertex k (sides + 1) + j is ring k's j-th vertex. The section
// is perpendicular to the path, Ribbon.Radius x scale at the head, tapering to TaperEnd at
// the tail. U runs round the tube, V along it (head 0).
#include "render/trail.glsl"

uniform float Ribbon_Radius = 0.05;

out vec2 v_uv;
out vec3 v_normal;          // world
out vec3 v_world;
out vec4 v_color;

const float KZ_TAU = 6.28318530718;

void main() {
    uint i = kzParticleIndex();
    uint sides = max(kz_sides, 3u);
    uint k = uint(gl_VertexID) / (sides + 1u);
    uint j = uint(gl_VertexID) % (sides + 1u);
    vec3 overall;
    vec3 reference = kzTrailReference(i, overall);
    KzTrailPoint t = kzTrailPoint(i, k, overall);
    vec3 normal = reference - dot(reference, t.tangent) * t.tangent;      // Gram-Schmidt
    normal = length(normal) > 1e-5 ? normalize(normal) : normalize(cross(t.tangent, vec3(0.0, 0.0, 1.0)) + vec3(1e-4));
    vec3 binormal = cross(t.tangent, normal);
    float angle = KZ_TAU * float(j) / float(sides);
    vec3 out_dir = cos(angle) * normal + sin(angle) * binormal;
    float radius = Ribbon_Radius * abs(kzRepresentationScale(i).x) * t.width;
    v_world = t.position + out_dir * radius;
    v_normal = out_dir;
    gl_Position = kzClipOfWorld(v_world);
    v_uv = vec2(float(j) / float(sides), t.along);
    vec4 color = kzRepresentationColor(i);
    v_color = vec4(color.rgb, color.a * kzTrailOpacity(t.along));
}
