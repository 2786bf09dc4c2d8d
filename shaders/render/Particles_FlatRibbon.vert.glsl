#version 430
// Particles_FlatRibbon, vertex stage: NeL's flat ribbon, a strip through the particle's last N
// positions, each a pair of vertices FlatRibbon.Width x scale apart across the path and
// facing the camera, tapering to Ribbon.TaperEnd at the tail: a triangle strip of 2N
// vertices (2k + s is point k's side s). U runs across, V along (head 0).
#include "render/trail.glsl"

uniform float FlatRibbon_Width = 0.1;

out vec2 v_uv;
out vec2 v_corner;
out vec4 v_color;

void main() {
    uint i = kzParticleIndex();
    uint k = uint(gl_VertexID) >> 1u;
    float side = float(gl_VertexID & 1) * 2.0 - 1.0;
    vec3 overall;
    kzTrailReference(i, overall);
    KzTrailPoint t = kzTrailPoint(i, k, overall);
    vec3 across = cross(t.tangent, kz_cameraPosition - t.position);
    across = length(across) > 1e-7 ? normalize(across) : kzCameraRight();
    float half_width = 0.5 * FlatRibbon_Width * abs(kzRepresentationScale(i).x) * t.width;
    gl_Position = kzClipOfWorld(t.position + across * side * half_width);
    v_uv = vec2(side * 0.5 + 0.5, t.along);
    v_corner = vec2(side, t.along * 2.0 - 1.0);
    vec4 color = kzRepresentationColor(i);
    v_color = vec4(color.rgb, color.a * kzTrailOpacity(t.along));
}
