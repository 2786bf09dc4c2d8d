// Collider_Mesh: a triangle mesh (Collider.Mesh, a Mesh item) as a two-sided surface in the
// node's local frame: a path that crosses any triangle, from either side, hits it, with the
// face normal turned back towards the side the particle came from. So a closed mesh keeps
// particles out (or in: where they started), and an open one (a roof, a terrain patch) is a
// sheet. KeepInside means nothing here. The triangles sit in a bounding volume hierarchy
// built once on the CPU (kzplayer/gpu/mesh_data.py), walked here with a small stack, the
// nearer child first; a path far from the mesh costs one box test.
#include "Particles/mesh_data.glsl"

uniform uint kz_meshBase = 0u;          // the mesh's first texel: its tree's nodes (two texels each)
uniform uint kz_meshLeaves = 1u;        // leaves of the tree, a power of two: the last nodes
uniform uint kz_meshTriangles = 0u;
uniform uint kz_meshTriangleBase = 0u;  // texels after kz_meshBase where the triangles start (three each)

#define MESH_LEAF 4u                    // triangles per leaf (mesh_data.LEAF)
#define MESH_STACK 32
#define MESH_EDGE 1e-5                  // barycentric slack: no crack between two triangles of an edge

// The segment's entry into node k's box, before the best hit so far (slabs).
bool meshBox(uint k, vec3 a, vec3 inv, float best, out float enter) {
    vec3 lo = kz_meshTexel(kz_meshBase + 2u * k).xyz;
    vec3 hi = kz_meshTexel(kz_meshBase + 2u * k + 1u).xyz;
    vec3 t0 = (lo - a) * inv;
    vec3 t1 = (hi - a) * inv;
    vec3 near = min(t0, t1);
    vec3 far = max(t0, t1);
    enter = max(max(near.x, near.y), max(near.z, 0.0));
    float leave = min(min(far.x, far.y), min(far.z, best));
    return enter <= leave && lo.x <= hi.x;
}

bool colliderCross(vec3 a, vec3 b, out float t, out vec3 n) {
    vec3 d = b - a;
    if (dot(d, d) == 0.0 || kz_meshTriangles == 0u) {
        return false;
    }
    // 1/d, with a huge finite value for a zero component (the slab is then all or nothing)
    vec3 inv = vec3(d.x != 0.0 ? 1.0 / d.x : 1e30, d.y != 0.0 ? 1.0 / d.y : 1e30, d.z != 0.0 ? 1.0 / d.z : 1e30);
    float best = 1.0;
    bool found = false;
    uint stack[MESH_STACK];
    int sp = 0;
    float enter;
    if (!meshBox(0u, a, inv, best, enter)) {
        return false;
    }
    stack[sp++] = 0u;
    uint inner = kz_meshLeaves - 1u;     // nodes before the leaves
    while (sp > 0) {
        uint k = stack[--sp];
        if (!meshBox(k, a, inv, best, enter)) {
            continue;                   // (a hit found since it was pushed may end before its box)
        }
        if (k < inner) {
            uint l = 2u * k + 1u;
            uint r = l + 1u;
            float el, er;
            bool hl = meshBox(l, a, inv, best, el);
            bool hr = meshBox(r, a, inv, best, er);
            if (hl && hr) {             // the nearer on top
                stack[sp++] = el <= er ? r : l;
                stack[sp++] = el <= er ? l : r;
            } else if (hl) {
                stack[sp++] = l;
            } else if (hr) {
                stack[sp++] = r;
            }
            continue;
        }
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
                continue;               // moving in the triangle's plane: no crossing
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
    t = best;
    return found;
}
