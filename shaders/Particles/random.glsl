// Counter-based randomness: a hash of (seed, emitter, step, index), no state to carry.
// PCG-RXS-M-XS (Jarzynski & Olano 2020, "Hash Functions for GPU Rendering"), chained over
// the key's words. Mirrored bit for bit by kzplayer/gpu/random.py for tests.

uint pcgHash(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

uint hash4(uint a, uint b, uint c, uint d) {
    return pcgHash(d ^ pcgHash(c ^ pcgHash(b ^ pcgHash(a))));
}

uint hash2(uint a, uint b) {
    return pcgHash(b ^ pcgHash(a));
}

// [0, 1) with 24 bits: every value is exact in float32.
float unitFloat(uint h) {
    return float(h >> 8u) * (1.0 / 16777216.0);
}

// [0, 1) with 32 bits, for the double-precision emission counter.
double unitDouble(uint h) {
    return double(h) * (1.0lf / 4294967296.0lf);
}

// Symmetric +-band: value + variance * (2u - 1).
float varied(float value, float variance, float u) {
    return value + variance * (2.0 * u - 1.0);
}
