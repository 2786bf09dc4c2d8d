// Emitter_Mesh (NeL's mesh emitter, Kanzi Particles 3.0's mesh emission): spawns on a mesh
// (Emission.Mesh, a Mesh item) in the emitter's frame: uniformly over its surface by area
// (MeshMode Surface), on its vertices, each equally (Vertices), or along its edges by length
// (Edges), areas and lengths measured as the emitter places the mesh in the scene. Only the
// elements whose world-space normal lies within NormalFilterAngle of NormalFilterDirection
// are admissible (NeL's wet character: only where the normal heads down); the table of
// admissible elements and their cumulative distribution is built once on the CPU
// (kzplayer/gpu/mesh_data.py). The normal handed to the common contract (Orient To Normal)
// is the interpolated vertex normal on a surface, the vertex's or the mean of the edge's
// vertices' normals. A filter that admits nothing spawns particles that die at once.
#include "Particles/emitter_common.glsl"
#include "Particles/mesh_data.glsl"

uniform uint kz_meshBase = 0u;          // the table's first texel
uniform uint kz_meshCount = 0u;         // admissible elements
uniform uint kz_meshElementBase = 0u;   // texels after kz_meshBase where the elements start (after the CDF)
uniform uint kz_meshMode = 0u;          // 0 surface, 1 vertices, 2 edges

float meshCdf(uint k) {
    return kz_meshTexel(kz_meshBase + k / 4u)[k % 4u];
}

// The first element whose cumulative weight passes u (binary search over the CDF).
uint meshPick(float u) {
    uint lo = 0u;
    uint hi = kz_meshCount - 1u;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (meshCdf(mid) > u) {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

vec3 meshElement(uint k, uint texel, uint per) {
    return kz_meshTexel(kz_meshBase + kz_meshElementBase + k * per + texel).xyz;
}

void emitParticle(uint index) {
    if (kz_meshCount == 0u) {           // the filter admits nothing
        emitFromShape(index, vec3(0.0), vec3(0.0));
        setParticleLifetime(index, 0.0);
        return;
    }
    float u = spawnRandom(SHAPE_RANDOM);
    vec3 position, normal;
    if (kz_meshMode == 1u) {
        uint k = min(uint(u * float(kz_meshCount)), kz_meshCount - 1u);
        position = meshElement(k, 0u, 2u);
        normal = meshElement(k, 1u, 2u);
    } else if (kz_meshMode == 2u) {
        uint k = meshPick(u);
        float s = spawnRandom(SHAPE_RANDOM + 1u);
        position = mix(meshElement(k, 0u, 4u), meshElement(k, 1u, 4u), s);
        normal = meshElement(k, 2u, 4u) + meshElement(k, 3u, 4u);
    } else {
        uint k = meshPick(u);
        // uniform over the triangle: b0 = 1 - sqrt(r1), b1 = sqrt(r1) (1 - r2), b2 = sqrt(r1) r2
        float r1 = sqrt(spawnRandom(SHAPE_RANDOM + 1u));
        float r2 = spawnRandom(SHAPE_RANDOM + 2u);
        float b1 = r1 * (1.0 - r2);
        float b2 = r1 * r2;
        position = meshElement(k, 0u, 6u) + b1 * meshElement(k, 1u, 6u) + b2 * meshElement(k, 2u, 6u);
        normal = (1.0 - b1 - b2) * meshElement(k, 3u, 6u) + b1 * meshElement(k, 4u, 6u) + b2 * meshElement(k, 5u, 6u);
    }
    float len = length(normal);
    emitFromShape(index, position, len > 0.0 ? normal / len : vec3(0.0, 1.0, 0.0));
}
