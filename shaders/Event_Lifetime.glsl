// Event_Lifetime: fires when the step's sweep of the normalised lifetime (0 at birth, 1 at
// death) overlaps [LifetimeMin, LifetimeMax]. Directional, so nothing is skipped at any
// frame rate. Min = Max = 1 (the default) fires once on death, whatever killed the particle
// (end of life, a collider's KillOnHit, a KillZone); Min = Max = 0 once on birth; a band
// fires on every step the particle spends in it. Replaces GenerateEvent_OnDeath(_Probabilistic)
// and GenerateEvent_IsInLifetimeRange.

uniform float Events_LifetimeMin = 1.0;
uniform float Events_LifetimeMax = 1.0;

void generateEvents(uint index) {
    float life = getParticleLifetime(index);
    float age = getParticleAge(index);
    bool first = firstSweep(index);
    float q0 = life > 0.0 ? min(previousAge(index) / life, 1.0) : 0.0;
    float q1 = life > 0.0 ? min(age / life, 1.0) : 1.0;
    if (diesThisStep(index) && Events_LifetimeMax >= 1.0) {
        // An early death (collider, KillZone) is a death too; a band it cut short is not
        // swept through: the particle never lived that part of its life.
        q1 = 1.0;
        q0 = min(q0, 0.99999994);   // the step that dies was begun alive
    }
    if (sweepOverlaps(q0, q1, first, Events_LifetimeMin, Events_LifetimeMax) && eventChance(index)) {
        writeParticleEvent(EVENT_LIFETIME, index);
    }
}
