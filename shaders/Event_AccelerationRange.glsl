// Event_AccelerationRange: fires on every step the particle's acceleration magnitude is in
// [AccelerationMin, AccelerationMax] (a snapshot: acceleration is rebuilt each step). It
// works in kzplayer because the accumulator is cleared by a pass of its own before the
// affectors, not by the integrator, so this stage still reads what the affectors added.

uniform float Events_AccelerationMin = 0.0;
uniform float Events_AccelerationMax = 3.4028234663852886e38;

void generateEvents(uint index) {
    float a = length(getParticleAcceleration(index));
    if (a >= Events_AccelerationMin && a <= Events_AccelerationMax && eventChance(index)) {
        writeParticleEvent(EVENT_ACCELERATION, index);
    }
}
