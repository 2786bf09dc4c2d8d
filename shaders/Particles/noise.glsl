// Smooth noise for the stock affectors (Wind, Buoyancy, CurlNoise). Gradient noise on the
// integer lattice with Perlin's (2002) quintic fade, so each field is C2 and its curl C1,
// returned with its analytic gradient (Quilez's expansion): a curl built from exact
// gradients is divergence-free to float round-off, not just to a finite-difference error.
// Lattice gradients are unit vectors drawn by the counter-based hash of random.glsl (no
// permutation table, no state). The fields are fixed: they do not depend on kz_seed (an
// affector runs once per emitter, and every emitter must feel the same field).

// The unit gradient at lattice point c: z uniform on [-1, 1] and a uniform azimuth
// (uniform on the sphere, Archimedes).
vec3 latticeGradient(ivec3 c, uint seed) {
    uint h = hash4(seed, uint(c.x), uint(c.y), uint(c.z));
    float z = 2.0 * unitFloat(h) - 1.0;
    float phi = 6.28318530718 * unitFloat(pcgHash(h));
    float r = sqrt(max(0.0, 1.0 - z * z));
    return vec3(r * cos(phi), r * sin(phi), z);
}

// 3D gradient noise: (value, d value / d p). The value lies within about +-0.6 (RMS 0.19),
// 0 on the lattice points.
vec4 gradientNoise(vec3 p, uint seed) {
    vec3 cell = floor(p);
    vec3 f = p - cell;
    ivec3 c = ivec3(cell);
    vec3 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    vec3 du = 30.0 * f * f * (f * (f - 2.0) + 1.0);

    vec3 ga = latticeGradient(c + ivec3(0, 0, 0), seed);
    vec3 gb = latticeGradient(c + ivec3(1, 0, 0), seed);
    vec3 gc = latticeGradient(c + ivec3(0, 1, 0), seed);
    vec3 gd = latticeGradient(c + ivec3(1, 1, 0), seed);
    vec3 ge = latticeGradient(c + ivec3(0, 0, 1), seed);
    vec3 gf = latticeGradient(c + ivec3(1, 0, 1), seed);
    vec3 gg = latticeGradient(c + ivec3(0, 1, 1), seed);
    vec3 gh = latticeGradient(c + ivec3(1, 1, 1), seed);

    float va = dot(ga, f - vec3(0.0, 0.0, 0.0));
    float vb = dot(gb, f - vec3(1.0, 0.0, 0.0));
    float vc = dot(gc, f - vec3(0.0, 1.0, 0.0));
    float vd = dot(gd, f - vec3(1.0, 1.0, 0.0));
    float ve = dot(ge, f - vec3(0.0, 0.0, 1.0));
    float vf = dot(gf, f - vec3(1.0, 0.0, 1.0));
    float vg = dot(gg, f - vec3(0.0, 1.0, 1.0));
    float vh = dot(gh, f - vec3(1.0, 1.0, 1.0));

    // trilinear blend in u written as a polynomial: value = k0 + k1 u.x + ... + k7 u.x u.y u.z
    float k1 = vb - va, k2 = vc - va, k3 = ve - va;
    float k4 = va - vb - vc + vd, k5 = va - vc - ve + vg, k6 = va - vb - ve + vf;
    float k7 = -va + vb + vc - vd + ve - vf - vg + vh;
    float value = va + u.x * k1 + u.y * k2 + u.z * k3 + u.x * u.y * k4 + u.y * u.z * k5
                + u.z * u.x * k6 + u.x * u.y * u.z * k7;
    vec3 gradient = ga + u.x * (gb - ga) + u.y * (gc - ga) + u.z * (ge - ga)
                  + u.x * u.y * (ga - gb - gc + gd) + u.y * u.z * (ga - gc - ge + gg)
                  + u.z * u.x * (ga - gb - ge + gf) + u.x * u.y * u.z * (-ga + gb + gc - gd + ge - gf - gg + gh)
                  + du * vec3(k1 + u.y * k4 + u.z * k6 + u.y * u.z * k7,
                              k2 + u.z * k5 + u.x * k4 + u.z * u.x * k7,
                              k3 + u.x * k6 + u.y * k5 + u.x * u.y * k7);
    return vec4(value, gradient);
}

// 1D gradient noise in [-1, 1], 0 at the integers: gusts.
float gradientNoise1(float t, uint seed) {
    float cell = floor(t);
    float f = t - cell;
    uint c = uint(int(cell));
    float g0 = 2.0 * unitFloat(hash2(seed, c)) - 1.0;
    float g1 = 2.0 * unitFloat(hash2(seed, c + 1u)) - 1.0;
    float u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    return 2.0 * mix(g0 * f, g1 * (f - 1.0), u);      // |mix| <= 1/2
}

// The RMS magnitude of the raw curl below over space, measured (tests/gpu/test_affectors.py
// checks that curlNoise() has RMS magnitude 1): Strength is then the RMS acceleration.
#define CURL_NOISE_RMS 1.22

// A divergence-free field of RMS magnitude ~1: the curl of a vector potential whose three
// components are independent noises. Time evolves it by drifting each component through
// the noise in its own direction, so the pattern morphs rather than slides; every instant
// is still a curl, hence divergence-free. q is in noise units (lattice spacing 1), the
// curl is taken in those units, so the magnitude does not grow with the frequency.
vec3 curlNoise(vec3 q, float t, uint seed) {
    vec3 d1 = gradientNoise(q + t * vec3(0.0, 0.61, 0.37), hash2(seed, 1u)).yzw;
    vec3 d2 = gradientNoise(q + t * vec3(0.53, 0.0, -0.41), hash2(seed, 2u)).yzw;
    vec3 d3 = gradientNoise(q + t * vec3(-0.29, 0.47, 0.0), hash2(seed, 3u)).yzw;
    return vec3(d3.y - d2.z, d1.z - d3.x, d2.x - d1.y) * (1.0 / CURL_NOISE_RMS);
}

