// Event_VelocityRange: fires on every step whose swept speed interval (the approximate
// previous speed, v - a h, to the current one) overlaps [VelocityMin, VelocityMax], so a
// fast rise or fall through the band within one step is caught. Min = threshold with the
// open Max is the legacy GenerateEvent_IsAboveVelocity.

uniform float Events_VelocityMin = 0.0;
uniform float Events_VelocityMax = 3.4028234663852886e38;

void generateEvents(uint index) {
    if (speedInBand(index, Events_VelocityMin, Events_VelocityMax) && eventChance(index)) {
        writeParticleEvent(EVENT_VELOCITY, index);
    }
}
