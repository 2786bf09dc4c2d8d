// EmissionCount_Schedule: the unified time-based count (Emission page, "Schedule").
// A cycle of OnDuration + OffDuration; at Rate particles/second during the on-phase (always
// when both durations are 0); ImpulseAtCycleStart fires on the first step and at each wrap.
// The continuous rate (not the impulse) is scaled by the emission LOD (getEmissionLod(): 1
// near the camera, Emission.LodMinimumRate far; docs/player.md, "LOD").
// RateVariance is rolled per step, ImpulseVariance per cycle, both from a counter-based
// hash of Emission.Seed alone (two emitters with the same Seed count alike). Whole
// particles are emitted; the fraction carries. Kept in double precision so the count
// equals the reference (kzplayer/gpu/schedule.py) frame by frame: additions and products
// only (`precise`: no fused multiply-add), which every fp64 GPU rounds as IEEE does. Doubles
// are core since OpenGL 4.0, so every context kzplayer accepts (4.3) compiles this.

uniform float Emission_Rate = 10.0;
uniform float Emission_RateVariance = 0.0;
uniform float Emission_OnDuration = 0.0;
uniform float Emission_OffDuration = 0.0;
uniform float Emission_ImpulseAtCycleStart = 0.0;
uniform float Emission_ImpulseVariance = 0.0;

#define STREAM_RATE    0x52415445u   // "RATE"
#define STREAM_IMPULSE 0x494D5055u   // "IMPU"

uint emissionCount() {
    precise double dt = double(kz_dt);
    precise double on = max(double(Emission_OnDuration), 0.0lf);
    precise double period = on + max(double(Emission_OffDuration), 0.0lf);
    bool always = period <= 0.0lf;
    bool fire = state.started == 0u;
    if (!always) {
        precise double t = state.cycleTimer + dt;
        if (t >= period) {
            // One wrap is a subtraction, exact in IEEE double. Division is only used for a
            // step spanning several cycles: GLSL promises doubles no more than single
            // precision for it, and a quotient a hair below 1 would skip the wrap.
            t = t - period;
            if (t >= period) {
                t = max(t - period * floor(t / period), 0.0lf);
            }
            state.cycle += 1u;
            fire = true;
        }
        state.cycleTimer = t;
    }
    precise double acc = state.carry;
    if (fire) {
        precise double u = unitDouble(hash2(kz_seed ^ STREAM_IMPULSE, state.cycle));
        precise double impulse = double(Emission_ImpulseAtCycleStart)
                               + double(Emission_ImpulseVariance) * (2.0lf * u - 1.0lf);
        acc = acc + max(impulse, 0.0lf);
    }
    if (always || state.cycleTimer < on) {
        precise double u = unitDouble(hash2(kz_seed ^ STREAM_RATE, kz_step));
        precise double rate = double(Emission_Rate) + double(Emission_RateVariance) * (2.0lf * u - 1.0lf);
        acc = acc + max(rate, 0.0lf) * double(getEmissionLod()) * dt;
    }
    precise double whole = floor(acc);
    state.carry = acc - whole;
    return uint(min(whole, 4294967295.0lf));
}
