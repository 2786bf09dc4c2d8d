// The spatial falloff shared by every affector with a Radius (see the Affectors page).
// Radius <= 0: unbounded, strength 1 everywhere. Otherwise the strength goes from 1 at the
// centre to 0 at the sphere surface as (1 - d/R)^p, where the author's exponent e in [-1, 1]
// maps to the power p = 8^(-e) in log space: e = 0 linear, e < 0 drops fast near the
// centre (p up to 8), e -> 1 stays near 1 then falls sharply at the edge (p -> 1/8; e = 1
// is a hard cutoff).

float sphereFalloff(float distance, float radius, float falloffExponent) {
    if (radius <= 0.0) {
        return 1.0;
    }
    float x = clamp(1.0 - distance / radius, 0.0, 1.0);
    float e = clamp(falloffExponent, -1.0, 1.0);
    if (e >= 1.0) {
        return x > 0.0 ? 1.0 : 0.0;
    }
    return pow(x, exp2(-3.0 * e));
}
