// What a rendering material's vertex shader stands on (docs/rendering.md, "Materials"):
//   the particle through the accessors (render/particle_access.glsl), the camera and frame
//   (render/camera.glsl), the lights (render/lighting.glsl), and the geometry of one
//   particle: a camera-facing quad, or the emitter's ParticleMesh when KZ_MESH is defined.
// One instance is one live particle, in draw order: kzParticleIndex() is its pool slot.
// With KZ_PREPARE_PASS the same code compiles into a compute shader (the stock materials'
// per-particle pass, render/stock_vertex.glsl): kzInstance then says which particle.
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

#if defined(KZ_MESH) && !defined(KZ_PREPARE_PASS)
layout(location = 0) in vec3 kzPosition;    // mesh vertex, mesh space
layout(location = 1) in vec3 kzNormal;
layout(location = 2) in vec2 kzTexCoord;
#endif

#ifdef KZ_PREPARE_PASS
uint kzInstance;                    // the particle's place in draw order
uint kzParticleIndex() {
    return kzOrder[kzInstance];
}
#else
uint kzParticleIndex() {
    return kzOrder[gl_InstanceID];
}

// this vertex's corner of a billboard, (-1, -1) .. (1, 1), from the triangle strip
vec2 kzBillboardCorner() {
    return vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
}
#endif

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

// Where a billboard is on screen: its centre in clip space, its half width and height in
// clip units (Particle.Size x the larger of the particle's scale x `scale` in x and y,
// never under kz_minPixels), and
// the cosine and sine of its spin about the view axis (the particle's Z rotation).
struct KzBillboardClip {
    vec4 centre;
    vec2 half_clip;
    vec2 spin;
    float half_size;        // world units
};

KzBillboardClip kzBillboardClip(uint i, float size, vec3 scale) {
    KzBillboardClip b;
    vec3 sc = getParticleScale(i) * scale;
    b.half_size = 0.5 * size * max(abs(sc.x), abs(sc.y));
    vec3 world = (kz_model * vec4(getParticlePosition(i), 1.0)).xyz;
    b.centre = kz_projection * (kz_view * vec4(world, 1.0));
    vec2 half_clip = b.half_size * vec2(kz_projection[0][0], kz_projection[1][1]);
    // never thinner than kz_minPixels: a far or tiny particle dims instead of flickering
    b.half_clip = max(half_clip, (kz_minPixels / kz_viewport) * abs(b.centre.w));
    float r = getParticleRotation(i).z;
    b.spin = vec2(cos(r), sin(r));
    return b;
}

// The geometry of a billboard at one of its corners (-1..1).
KzGeometry kzBillboardGeometry(uint i, float size, vec3 scale, vec2 corner) {
    KzGeometry g;
    KzBillboardClip b = kzBillboardClip(i, size, scale);
    g.worldCentre = (kz_model * vec4(getParticlePosition(i), 1.0)).xyz;
    g.uv = corner * 0.5 + 0.5;
    vec2 spun = mat2(b.spin.x, b.spin.y, -b.spin.y, b.spin.x) * corner;
    g.clipPosition = b.centre + vec4(spun * b.half_clip, 0.0, 0.0);
    // the quad's corner in the world: the camera's right and up are the view's first rows
    vec3 right = vec3(kz_view[0][0], kz_view[1][0], kz_view[2][0]);
    vec3 up = vec3(kz_view[0][1], kz_view[1][1], kz_view[2][1]);
    g.worldPosition = g.worldCentre + (spun.x * right + spun.y * up) * b.half_size;
    vec3 toward = normalize(kz_cameraPosition - g.worldCentre);
    g.worldNormal = normalize(toward + 0.7 * (spun.x * right + spun.y * up));
    return g;
}

#if !defined(KZ_PREPARE_PASS)
// The geometry of particle i at this vertex. `size` is the billboard's world width at
// scale 1 (Particle.Size); `scale` multiplies the particle's own scale, per axis (over life).
KzGeometry kzParticleGeometry(uint i, float size, vec3 scale) {
#ifdef KZ_MESH
    KzGeometry g;
    vec3 p = getParticlePosition(i);
    g.worldCentre = (kz_model * vec4(p, 1.0)).xyz;
    vec3 s = getParticleScale(i) * scale;
    mat3 turn = kzEulerMatrix(getParticleRotation(i));
    vec3 local = turn * (kzPosition * s);
    g.worldPosition = (kz_model * vec4(p + local, 1.0)).xyz;
    // normals by the inverse transpose of the (diagonal) scale
    vec3 n = turn * (kzNormal / max(abs(s), vec3(1e-6)) * sign(s));
    g.worldNormal = normalize(mat3(kz_model) * n);
    g.uv = kzTexCoord;
    g.clipPosition = kz_projection * (kz_view * vec4(g.worldPosition, 1.0));
    return g;
#else
    return kzBillboardGeometry(i, size, scale, kzBillboardCorner());
#endif
}
#endif

// The light a lit particle receives at this vertex (Particle.ReceiveLight): ambient plus
// every light, wrapped round for billboards (smoke scatters, it has no hard terminator).
vec3 kzParticleLighting(KzGeometry g, vec3 ambient) {
#ifdef KZ_MESH
    return ambient + kzDiffuse(g.worldPosition, g.worldNormal, 0.0);
#else
    return ambient + kzDiffuse(g.worldPosition, g.worldNormal, 0.6);
#endif
}
