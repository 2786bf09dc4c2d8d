// Exact integration of linear damping (docs/player.md, Integration). Over one step the
// accumulated acceleration is taken as a(v) = A - rate (v - v_ref): A is what the affectors
// accumulated at the velocity v_ref they saw (Particles/velocity.glsl), `rate` (1/s) the sum
// of the damping rates they declared (addParticleDamping: k / m for a drag k (w - v)); the
// rest of A is held constant over the step. Then dv/dt = a(v) has the exact solution
//     v(h) = v_ref + h phi(x) A,   x(h) = x0 + v_ref h + h^2 psi(x) A,   x = rate h,
//     phi(x) = (1 - e^-x) / x,     psi(x) = (x - 1 + e^-x) / x^2,
// so the velocity relaxes toward its terminal value v_ref + A / rate, reached exactly (to
// float round-off) at any step. Without damping phi = 1, psi = 1/2: the plain schemes.
//
// kz_integrate (Particles/stage_step.glsl) applies the mean acceleration phi A in place of A, and for Verlet:
//   first step     x' = x + v h + r (phi A) h^2            r = psi / phi   (1/2 undamped)
//                  v' = (x' - x) / h + (1 - r) (phi A) h  (= v + phi A h, exact)
//   later steps    x' = 2x - x_prev + (phi A) h^2         the chord relaxes by e^-x, exactly
//                  v' = (x' - x) / h + kappa (phi A) h    kappa(x) below (1/2 undamped)
// where kappa turns the step's chord (its mean velocity) into the velocity at its end, exact
// while rate and the rest of A stay constant: kappa = E (1 - E - x E) / (1 - E)^2, E = e^-x.
//
// Below x = 0.5 the three factors come from their Taylor series (8 terms: the truncation is
// under 1e-7 there), above it from the closed forms (the cancellation error is then under
// 4e-7 relative); checked against 40-digit values in tests/gpu/test_damping.py.

const float DAMPING_SERIES_BELOW = 0.5;

// phi, r = psi / phi and kappa for x = rate h >= 0.
void dampingFactors(float x, out float phi, out float r, out float kappa) {
    if (x < DAMPING_SERIES_BELOW) {
        phi = 1.0 + x * (-1.0 / 2.0 + x * (1.0 / 6.0 + x * (-1.0 / 24.0 + x * (1.0 / 120.0
            + x * (-1.0 / 720.0 + x * (1.0 / 5040.0 + x * (-1.0 / 40320.0)))))));
        float x2 = x * x;
        r = 0.5 + x * (1.0 / 12.0 + x2 * (-1.0 / 720.0 + x2 * (1.0 / 30240.0 + x2 * (-1.0 / 1209600.0))));
        kappa = 0.5 + x * (-1.0 / 3.0 + x * (1.0 / 12.0 + x * (-1.0 / 180.0 + x * (-1.0 / 720.0
              + x * (1.0 / 5040.0 + x * (1.0 / 30240.0 + x * (-1.0 / 151200.0 + x * (-1.0 / 1209600.0))))))));
        return;
    }
    float e = exp(-x);
    float q = 1.0 - e;
    phi = q / x;
    r = (x - q) / (x * q);
    kappa = e * (q - x * e) / (q * q);
}
