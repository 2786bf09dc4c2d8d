// What a rendering material's vertex shader stands on (docs/rendering.md, "Materials"):
//   the particle through the accessors (render/particle_access.glsl), the camera and frame
//   (render/camera.glsl), the lights (render/lighting.glsl), and the geometry of one
//   particle: a camera-facing quad, or the emitter's ParticleMesh when KZ_MESH is defined.
// One instance is one live particle, in draw order: kzParticleIndex() is its pool slot.
#include "render/particle_access.glsl"
#include "render/live_list.glsl"
#include "render/camera.glsl"
#include "render/color.glsl"
#include "render/lighting.glsl"

uniform float kz_minPixels;     // a billboard is never narrower than this on screen

layout(std430, binding = KZ_BINDING_ORDER) readonly buffer KzOrder {
    uint kzOrderCount;
    uint kzOrderPad[3];
    uint kzOrder[];
};

#ifdef KZ_MESH
layout(location = 0) in vec3 kzPosition;    // mesh vertex, mesh space
layout(location = 1) in vec3 kzNormal;
layout(location = 2) in vec2 kzTexCoord;
#endif

uint kzParticleIndex() {
    return kzOrder[gl_InstanceID];
}

struct KzGeometry {
    vec4 clipPosition;
    vec3 worldPosition;     // of this vertex
    vec3 worldCentre;       // of the particle
    vec3 worldNormal;       // a billboard's bends outwards from its centre (round lighting)
    vec2 uv;                // billboard: (0, 0) bottom left .. (1, 1) top right; mesh: its own
};

// Euler rotation in radians, X applied first, then Y, then Z (as Srt3D).
mat3 kzEulerMatrix(vec3 r) {
    vec3 c = cos(r), s = sin(r);
    mat3 rx = mat3(1.0, 0.0, 0.0, 0.0, c.x, s.x, 0.0, -s.x, c.x);
    mat3 ry = mat3(c.y, 0.0, -s.y, 0.0, 1.0, 0.0, s.y, 0.0, c.y);
    mat3 rz = mat3(c.z, s.z, 0.0, -s.z, c.z, 0.0, 0.0, 0.0, 1.0);
    return rz * ry * rx;
}

// The geometry of particle i at this vertex. `size` is the billboard's world width at
// scale 1 (Particle.Size); `scale` multiplies the particle's own scale (over life).
KzGeometry kzParticleGeometry(uint i, float size, float scale) {
    KzGeometry g;
    vec3 p = getParticlePosition(i);
    g.worldCentre = (kz_model * vec4(p, 1.0)).xyz;
#ifdef KZ_MESH
    vec3 s = getParticleScale(i) * scale;
    mat3 turn = kzEulerMatrix(getParticleRotation(i));
    vec3 local = turn * (kzPosition * s);
    g.worldPosition = (kz_model * vec4(p + local, 1.0)).xyz;
    // normals by the inverse transpose of the (diagonal) scale
    vec3 n = turn * (kzNormal / max(abs(s), vec3(1e-6)) * sign(s));
    g.worldNormal = normalize(mat3(kz_model) * n);
    g.uv = kzTexCoord;
    g.clipPosition = kz_projection * (kz_view * vec4(g.worldPosition, 1.0));
#else
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    g.uv = corner * 0.5 + 0.5;
    vec3 sc = getParticleScale(i);
    float half_size = 0.5 * size * scale * max(abs(sc.x), abs(sc.y));
    vec4 centre = kz_view * vec4(g.worldCentre, 1.0);
    // spin about the view axis by the particle's Z rotation (seen with a texture)
    float c = cos(getParticleRotation(i).z), s = sin(getParticleRotation(i).z);
    vec2 spun = mat2(c, s, -s, c) * corner;
    // never thinner than kz_minPixels: a far or tiny particle dims instead of flickering
    vec4 clip = kz_projection * centre;
    vec2 half_clip = half_size * vec2(kz_projection[0][0], kz_projection[1][1]);
    half_clip = max(half_clip, (kz_minPixels / kz_viewport) * abs(clip.w));
    g.clipPosition = clip + vec4(spun * half_clip, 0.0, 0.0);
    // the quad's corner in the world: the camera's right and up are the view's first rows
    vec3 right = vec3(kz_view[0][0], kz_view[1][0], kz_view[2][0]);
    vec3 up = vec3(kz_view[0][1], kz_view[1][1], kz_view[2][1]);
    vec3 offset = (spun.x * right + spun.y * up) * half_size;
    g.worldPosition = g.worldCentre + offset;
    vec3 toward = normalize(kz_cameraPosition - g.worldCentre);
    g.worldNormal = normalize(toward + 0.7 * (spun.x * right + spun.y * up));
#endif
    return g;
}

// The light a lit particle receives at this vertex (Particle.ReceiveLight): ambient plus
// every light, wrapped round for billboards (smoke scatters, it has no hard terminator).
vec3 kzParticleLighting(KzGeometry g, vec3 ambient) {
#ifdef KZ_MESH
    return ambient + kzDiffuse(g.worldPosition, g.worldNormal, 0.0);
#else
    return ambient + kzDiffuse(g.worldPosition, g.worldNormal, 0.6);
#endif
}
