// Frame stage 5: integrate and age. INTEGRATION_VERLET selects the scheme (docs/player.md):
//   Euler (semi-implicit): v += a h; x += v h. First order.
//   Verlet (Stormer, position form): x' = 2x - x_prev + a h^2, started on a particle's
//   first step with x' = x + v h + a h^2 / 2 (that is x_prev = x - v h + a h^2 / 2), and the
//   velocity reported as v' = (x' - x) / h + a h / 2. Second order; exact under constant a.
// Linear damping the affectors declared (addParticleDamping: Drag, Wind...) is resolved
// exactly here, with the whole step's acceleration known (Particles/damping.glsl): a is
// replaced by the step's mean acceleration phi a, and the two halves above by r and kappa.
// Undamped, phi = 1 and r = kappa = 1/2: the schemes above, bit for bit.
// h = kz_dt * timeScale (TimeDilation). Rotation advances by angular velocity; age by h.
#include "Particles/common.glsl"
#include "Particles/damping.glsl"

// Fields are read and written one by one: a whole-struct copy moves 2 x 144 bytes per
// particle, which is what bounds this pass on a CPU rasteriser.
void main() {
    uint i;
    if (!liveSlot(i)) {
        return;
    }
    uint flags = particles[i].flags;
    float h = kz_dt * particles[i].timeScale;
    vec3 x = particles[i].position;
    vec3 a = particles[i].acceleration;
    float phi = 1.0, r = 0.5, kappa = 0.5;
    float damping = particleDamping[i];
    if (damping > 0.0) {
        dampingFactors(damping * h, phi, r, kappa);
        a *= phi;
        particles[i].acceleration = a;      // what events read: the step's mean acceleration
    }
#if INTEGRATION_VERLET
    vec3 next;
    float tail;
    if ((flags & FLAG_BORN) != 0u) {
        next = x + particles[i].velocity * h + r * a * h * h;
        tail = 1.0 - r;
    } else {
        next = x + (x - particles[i].previousPosition) + a * h * h;
        tail = kappa;
    }
    if (h > 0.0) {
        particles[i].velocity = (next - x) / h + tail * a * h;
    }
#else
    vec3 v = particles[i].velocity + a * h;
    particles[i].velocity = v;
    vec3 next = x + v * h;
#endif
    particles[i].position = next;
    particles[i].previousPosition = x;
    particles[i].rotation += particles[i].angularVelocity * h;
    particles[i].age += h;
    particles[i].flags = flags & ~FLAG_BORN;
}
