// Event_OnHit: one event for each particle a ParticleCollider hit this step, at the hit
// position with the surface normal. Gates: the hit, the swept speed band (as
// Event_VelocityRange, widened by the speed just before the hit) and the probability.
// The defaults open both gates: the legacy GenerateEvent_OnHit.

uniform float Events_VelocityMin = 0.0;
uniform float Events_VelocityMax = 3.4028234663852886e38;

void generateEvents(uint index) {
    if ((getParticleFlags(index) & FLAG_HIT) == 0u) {
        return;
    }
    vec2 s = speedSweep(index);
    float impact = getParticleHitSpeed(index);
    s = vec2(min(s.x, impact), max(s.y, impact));
    if (s.y >= Events_VelocityMin && s.x <= Events_VelocityMax && eventChance(index)) {
        writeEvent(EVENT_COLLISION, index, getParticleHitPosition(index), getParticleHitNormal(index));
    }
}
