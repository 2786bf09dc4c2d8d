// Collider_Mesh: a triangle mesh (Collider.Mesh, a Mesh item) as a two-sided surface in the
// node's local frame: a path that crosses any triangle, from either side, hits it, with the
// face normal turned back towards the side the particle came from. So a closed mesh keeps
// particles out (or in: where they started), and an open one (a roof, a terrain patch) is a
// sheet. KeepInside means nothing here. The triangles sit in a bounding volume hierarchy
// built once on the CPU (kzplayer/gpu/mesh_data.py), walked here depth first, the nearer
// child first, with a short stack of the farther children and where the path enters them.
// A path that cannot reach the mesh's box is rejected before any of the walk's set-up, from
// the root's box held in parameters (no texel read).
#include "Particles/mesh_data.glsl"

uniform uint kz_meshBase = 0u;          // the mesh's first texel: its tree's nodes (two texels each)
uniform uint kz_meshLeaves = 1u;        // leaves of the tree, a power of two: the last nodes
uniform uint kz_meshTriangles = 0u;
uniform uint kz_meshTriangleBase = 0u;  // texels after kz_meshBase where the triangles start (three each)
uniform vec3 kz_meshLo = vec3(1e30);    // the root's box: node 0's texels, as parameters
uniform vec3 kz_meshHi = vec3(-1e30);

#define MESH_LEAF 4u                    // triangles per leaf (mesh_data.LEAF)
#define MESH_STACK 16                   // one far child a level: 14 levels at the budget (mesh_data.MAX_DEPTH)
#define MESH_EDGE 1e-5                  // barycentric slack: no crack between two triangles of an edge

// The segment's entry into the box lo..hi, before the best hit so far (slabs).
bool meshSlab(vec3 lo, vec3 hi, vec3 a, vec3 inv, float best, out float enter) {
    vec3 t0 = (lo - a) * inv;
    vec3 t1 = (hi - a) * inv;
    vec3 near = min(t0, t1);
    vec3 far = max(t0, t1);
    enter = max(max(near.x, near.y), max(near.z, 0.0));
    float leave = min(min(far.x, far.y), min(far.z, best));
    return enter <= leave && lo.x <= hi.x;
}

// The same for node k's box.
bool meshBox(uint k, vec3 a, vec3 inv, float best, out float enter) {
    return meshSlab(kz_meshTexel(kz_meshBase + 2u * k).xyz, kz_meshTexel(kz_meshBase + 2u * k + 1u).xyz,
                    a, inv, best, enter);
}

// The first triangle the segment a + s d, s in [0, 1], crosses; the root's box is known met.
bool meshWalk(vec3 a, vec3 d, vec3 inv, out float t, out vec3 n) {
    float best = 1.0;
    bool found = false;
    uint farNode[MESH_STACK];           // farther children still to visit
    float farEnter[MESH_STACK];         // and where the path enters their boxes
    int sp = 0;
    uint inner = kz_meshLeaves - 1u;    // nodes before the leaves
    uint k = 0u;                        // the node visited: the path meets its box before best
    while (true) {
        // down to a leaf along the nearer children, stacking the farther ones (a loop of its
        // own: a SIMD machine then runs the leaf's triangles once per leaf, not per node)
        bool met = true;                // the path meets node k's box
        while (k < inner) {
            uint l = 2u * k + 1u;
            uint r = l + 1u;
            float el, er;
            bool hl = meshBox(l, a, inv, best, el);
            bool hr = meshBox(r, a, inv, best, er);
            if (!hl && !hr) {
                met = false;
                break;
            }
            bool left = hl && (!hr || el <= er);
            if (hl && hr) {
                farNode[sp] = left ? r : l;
                farEnter[sp] = left ? er : el;
                ++sp;
            }
            k = left ? l : r;
        }
        if (met) {
            uint first = (k - inner) * MESH_LEAF;
            uint last = min(first + MESH_LEAF, kz_meshTriangles);
            for (uint j = first; j < last; ++j) {
                uint at = kz_meshBase + kz_meshTriangleBase + 3u * j;
                vec3 v0 = kz_meshTexel(at).xyz;
                vec3 e1 = kz_meshTexel(at + 1u).xyz;
                vec3 e2 = kz_meshTexel(at + 2u).xyz;
                // Moller-Trumbore on the segment a + s d, s in [0, best]
                vec3 p = cross(d, e2);
                float det = dot(e1, p);
                if (det == 0.0) {
                    continue;           // moving in the triangle's plane: no crossing
                }
                float f = 1.0 / det;
                vec3 o = a - v0;
                float u = dot(o, p) * f;
                if (u < -MESH_EDGE || u > 1.0 + MESH_EDGE) {
                    continue;
                }
                vec3 q = cross(o, e1);
                float v = dot(d, q) * f;
                if (v < -MESH_EDGE || u + v > 1.0 + MESH_EDGE) {
                    continue;
                }
                float s = dot(e2, q) * f;
                if (s >= 0.0 && s <= best) {
                    best = s;
                    vec3 face = cross(e1, e2);
                    n = normalize(dot(face, d) > 0.0 ? -face : face);
                    found = true;
                }
            }
        }
        // the nearest farther child left that the path still enters before the best hit
        // (its box was met when it was pushed: only best has moved since)
        while (sp > 0 && farEnter[sp - 1] > best) {
            --sp;
        }
        if (sp == 0) {
            break;
        }
        k = farNode[--sp];
    }
    t = best;
    return found;
}

bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {
    vec3 d = b - a;
    // 1/d, with a huge finite value for a zero component (the slab is then all or nothing)
    vec3 inv = vec3(d.x != 0.0 ? 1.0 / d.x : 1e30, d.y != 0.0 ? 1.0 / d.y : 1e30, d.z != 0.0 ? 1.0 / d.z : 1e30);
    float enter;
    if (dot(d, d) == 0.0 || kz_meshTriangles == 0u || !meshSlab(kz_meshLo, kz_meshHi, a, inv, 1.0, enter)) {
        return false;                   // the whole path misses the mesh's box
    }
    return meshWalk(a, d, inv, t, n);
}
