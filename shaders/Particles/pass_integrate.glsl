// Frame stage 5: integrate and age. INTEGRATION_VERLET selects the scheme (docs/player.md):
//   Euler (semi-implicit): v += a h; x += v h. First order.
//   Verlet (Stormer, position form): x' = 2x - x_prev + a h^2, started on a particle's
//   first step with x' = x + v h + a h^2 / 2 (that is x_prev = x - v h + a h^2 / 2), and the
//   velocity reported as v' = (x' - x) / h + a h / 2. Second order; exact under constant a.
// h = kz_dt * timeScale (TimeDilation). Rotation advances by angular velocity; age by h.
#include "Particles/common.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= kz_capacity || (particles[i].flags & FLAG_ALIVE) == 0u) {
        return;
    }
    Particle p = particles[i];
    float h = kz_dt * p.timeScale;
    vec3 x = p.position;
#if INTEGRATION_VERLET
    vec3 next;
    if ((p.flags & FLAG_BORN) != 0u) {
        next = x + p.velocity * h + 0.5 * p.acceleration * h * h;
    } else {
        next = x + (x - p.previousPosition) + p.acceleration * h * h;
    }
    p.velocity = h > 0.0 ? (next - x) / h + 0.5 * p.acceleration * h : p.velocity;
    p.position = next;
#else
    p.velocity += p.acceleration * h;
    p.position = x + p.velocity * h;
#endif
    p.previousPosition = x;
    p.rotation += p.angularVelocity * h;
    p.age += h;
    p.flags &= ~FLAG_BORN;
    particles[i] = p;
}
