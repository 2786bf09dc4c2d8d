#version 430
// Particles_Lightning, vertex stage: a bolt from the particle to its target, a camera-facing
// strip of Lightning.Segments segments (a power of two), 2 (segments + 1) vertices of a
// triangle strip: bit 0 the side, the rest the point along the bolt.
//
// The target (the far end): Lightning.Target, an offset from the particle in world axes;
// from a node's world position instead when Lightning.TargetNode names one (kz_boltTarget);
// from one of another emitter's live particles when Lightning.TargetParticles is bound to
// its ParticleDataBuffer (KZ_BOLT_PARTICLES: which one is the bolt's seed modulo their count).
//
// The shape: midpoint displacement in closed form. At level l the bolt is cut into 2^l
// pieces; each piece's midpoint moves sideways by a random amount of Jitter x length x
// 0.5^l, and the move falls off linearly to its ends (a tent): point k's displacement is the
// sum over the levels of its piece's move x its tent. So every vertex is computed alone, the
// ends stay put, and the same seed gives the same bolt. Two such sums displace it across
// (in the picture) and in depth. The seed: the particle's hash, Lightning.Seed and the
// bolt's generation, floor(time x Rate + a phase of its own): a new shape Rate times a second.
//
// Branches (Lightning.Branches): each forks off the bolt at a point of its middle, 25 to 50
// degrees aside, 0.2 to 0.45 of its length, with segments / 2 pieces of its own shape, thinner
// and dimmer. They follow the bolt in the same strip, joined by two repeated vertices each
// (degenerate triangles): vertex v < 2 (n + 1) is the bolt's, then 2 (m + 1) + 2 a branch.
#include "render/representation.glsl"

uniform float Lightning_Jitter = 0.12;
uniform float Lightning_Rate = 12.0;
uniform float Lightning_Width = 2.5;
uniform float Lightning_Glow = 5.0;
uniform float Lightning_Intensity = 1.0;
uniform int Lightning_Seed = 0;
uniform int Lightning_Branches = 0;
uniform vec3 Lightning_Target = vec3(0.0, -3.0, 0.0);
uniform int kz_boltHasNode;           // 1: kz_boltTarget is a node's world position
uniform vec3 kz_boltTarget;

#ifdef KZ_BOLT_PARTICLES
#include "Particles/particle_data.glsl"
layout(std430, binding = 16) readonly buffer KzBoltTargets { Particle kzBoltTargets[]; };
layout(std430, binding = 17) readonly buffer KzBoltTargetList { uint kzBoltTargetCount; uint kzBoltPad[3]; uint kzBoltTargetSlots[]; };
uniform mat4 kz_boltTargetModel;      // the target emitter's simulation space -> world
#endif

noperspective out float v_across;     // pixels from the bolt's axis
out vec4 v_color;

float kzBoltRandom(uint seed, uint level, uint piece) {
    return kzUnit(kzHash(kzHash(seed, level * 131u + 7u), piece)) * 2.0 - 1.0;
}

// The displacement of point k of n (a power of two), in units of the first level's move.
float kzMidpointDisplacement(uint seed, uint k, uint n) {
    float sum = 0.0;
    float amplitude = 1.0;
    uint level = 0u;
    for (uint size = n; size >= 2u; size >>= 1u) {
        uint piece = k / size;
        float r = float(k - piece * size) / float(size);      // 0 .. 1 across the piece
        sum += kzBoltRandom(seed, level, piece) * amplitude * (1.0 - abs(2.0 * r - 1.0));
        amplitude *= 0.5;
        level += 1u;
    }
    return sum;
}

// The frame of a bolt: where it starts, its direction and length, its seed, and the two
// axes it is displaced along (across the picture, in depth).
struct KzBolt {
    vec3 start;
    vec3 dir;
    float len;
    vec3 across;
    vec3 depth;
    uint seed;
    uint pieces;
};

KzBolt kzBoltFrame(vec3 a, vec3 b, uint seed, uint pieces) {
    KzBolt bolt;
    vec3 along = b - a;
    bolt.start = a;
    bolt.len = length(along);
    bolt.dir = bolt.len > 1e-6 ? along / bolt.len : vec3(0.0, 1.0, 0.0);
    vec3 across = cross(bolt.dir, normalize(kz_cameraPosition - 0.5 * (a + b)));
    bolt.across = length(across) > 1e-4 ? normalize(across) : kzCameraRight();
    bolt.depth = cross(bolt.dir, bolt.across);
    bolt.seed = seed;
    bolt.pieces = pieces;
    return bolt;
}

vec3 kzBoltPoint(KzBolt bolt, uint k) {
    float jitter = max(Lightning_Jitter, 0.0) * bolt.len;
    return bolt.start + bolt.dir * bolt.len * (float(k) / float(bolt.pieces))
         + bolt.across * jitter * kzMidpointDisplacement(bolt.seed, k, bolt.pieces)
         + bolt.depth * jitter * kzMidpointDisplacement(bolt.seed ^ 0x9e3779b9u, k, bolt.pieces);
}

// Branch j of `main`: forks at a point of its middle, turned aside, shorter.
KzBolt kzBranch(KzBolt main, uint j) {
    uint h = kzHash(main.seed, 101u + j);
    uint n = main.pieces;
    uint fork = n / 8u + h % max(n * 5u / 8u, 1u);
    vec3 from = kzBoltPoint(main, fork);
    float turn = radians(25.0 + 25.0 * kzUnit(kzHash(h, 1u))) * ((h & 1u) == 0u ? 1.0 : -1.0);
    vec3 dir = main.dir * cos(turn) + main.across * sin(turn);
    float len = main.len * (0.2 + 0.25 * kzUnit(kzHash(h, 2u)));
    return kzBoltFrame(from, from + dir * len, kzHash(h, 3u), max(n / 2u, 2u));
}

void main() {
    uint i = kzParticleIndex();
    uint hash = getParticleHash(i);
    float phase = kzUnit(kzHash(hash, 977u));
    uint generation = uint(max(floor(kz_time * max(Lightning_Rate, 0.0) + phase), 0.0));
    uint seed = kzHash(kzHash(hash, uint(Lightning_Seed)), generation);
    vec3 a = kzWorldOf(getParticlePosition(i));
    vec3 b = kz_boltHasNode != 0 ? kz_boltTarget + Lightning_Target : a + Lightning_Target;
#ifdef KZ_BOLT_PARTICLES
    if (kzBoltTargetCount > 0u) {
        uint slot = kzBoltTargetSlots[kzHash(seed, 5u) % kzBoltTargetCount];
        b = (kz_boltTargetModel * vec4(kzBoltTargets[slot].position, 1.0)).xyz + Lightning_Target;
    }
#endif
    uint n = max(kz_sides, 2u);             // Lightning.Segments as a power of two
    KzBolt bolt = kzBoltFrame(a, b, seed, n);
    // which strip this vertex belongs to (0 the bolt, j + 1 branch j), its point and side
    uint v = uint(gl_VertexID);
    uint k = min(v >> 1u, n);
    float side = float(v & 1u) * 2.0 - 1.0;
    float thin = 1.0;
    uint main_vertices = 2u * (n + 1u);
    if (v >= main_vertices) {
        uint m = max(n / 2u, 2u);
        uint per = 2u * (m + 1u) + 2u;
        uint j = (v - main_vertices) / per;
        uint r = (v - main_vertices) % per;
        if (r == 0u) {                      // the strip before's last vertex, repeated
            if (j > 0u) {
                bolt = kzBranch(bolt, j - 1u);
                thin = 0.6;
            }
            k = bolt.pieces;
            side = 1.0;
        } else {
            bolt = kzBranch(bolt, j);
            thin = 0.6;
            k = r == 1u ? 0u : (r - 2u) >> 1u;
            side = r == 1u ? -1.0 : float((r - 2u) & 1u) * 2.0 - 1.0;
        }
    }
    vec3 p = kzBoltPoint(bolt, k);
    // the strip's direction on screen at this point: towards the next point (the last: back)
    uint k2 = k < bolt.pieces ? k + 1u : k - 1u;
    vec3 q = kzBoltPoint(bolt, k2);
    vec4 cp = kzClipOfWorld(p), cq = kzClipOfWorld(q);
    vec4 colour = kzRepresentationColor(i);
    v_color = vec4(colour.rgb * max(Lightning_Intensity, 0.0), colour.a * (thin < 1.0 ? 0.7 : 1.0));
    float half_width = 0.5 * max(Lightning_Width, 0.0) * max(Lightning_Glow, 1.0) + 1.0;
    v_across = side * half_width / thin;    // a branch: the core and glow 0.6 as wide
    if (!kzInFront(cp) || !kzInFront(cq)) {
        gl_Position = KZ_NOWHERE;
        return;
    }
    vec2 d = kzScreenDirection(cp, cq, vec2(1.0, 0.0)) * (k < bolt.pieces ? 1.0 : -1.0);
    gl_Position = kzAcross(cp, d, side, half_width);
}
