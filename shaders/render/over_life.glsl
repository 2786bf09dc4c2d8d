// ParticlesColorOverLife (Kanzi Particles' ParticlesOverLife): colour, scale and opacity over
// the particle's normalised age t. Colours are written sRGB and arrive linear
// (render/color.glsl), so they mix in linear light (as Kanzi's ColorOverLife mixes in gamma
// 2.22 light); scale (per axis) and opacity are linear in t. With OVER_LIFE_THREE_STOP each
// of the three goes Start -> Mid at its MidPoint -> End (ParticlesColorOverLife3Stop).
uniform vec4 Particle_Color = vec4(1.0);
uniform vec4 ParticlesOverLife_ColorStart = vec4(1.0);
uniform vec4 ParticlesOverLife_ColorEnd = vec4(1.0);         // Kanzi's default: opaque white
uniform vec3 ParticlesOverLife_ScaleStart = vec3(1.0);
uniform vec3 ParticlesOverLife_ScaleEnd = vec3(1.0);
uniform float ParticlesOverLife_OpacityStart = 1.0;
uniform float ParticlesOverLife_OpacityEnd = 1.0;
#ifdef OVER_LIFE_THREE_STOP
uniform vec4 ParticlesOverLife_ColorMid = vec4(1.0);
uniform float ParticlesOverLife_ColorMidPoint = 0.5;
uniform vec3 ParticlesOverLife_ScaleMid = vec3(1.0);
uniform float ParticlesOverLife_ScaleMidPoint = 0.5;
uniform float ParticlesOverLife_OpacityMid = 1.0;
uniform float ParticlesOverLife_OpacityMidPoint = 0.5;

// how far from the first of two stops t is: before the midpoint towards the mid value, after
// it towards the end (an edge at 0 or 1 leaves one segment)
float kzSegment(float t, float mid, out bool second) {
    mid = clamp(mid, 0.0, 1.0);
    second = t >= mid;
    return second ? (mid < 1.0 ? (t - mid) / (1.0 - mid) : 0.0) : (mid > 0.0 ? t / mid : 1.0);
}
#endif

// linear RGB, alpha x opacity
vec4 kzOverLifeColor(float t) {
    vec4 a = ParticlesOverLife_ColorStart;
    vec4 b = ParticlesOverLife_ColorEnd;
#ifdef OVER_LIFE_THREE_STOP
    bool second;
    float u = kzSegment(t, ParticlesOverLife_ColorMidPoint, second);
    vec4 color = second ? mix(ParticlesOverLife_ColorMid, b, u) : mix(a, ParticlesOverLife_ColorMid, u);
    float v = kzSegment(t, ParticlesOverLife_OpacityMidPoint, second);
    color.a *= second ? mix(ParticlesOverLife_OpacityMid, ParticlesOverLife_OpacityEnd, v)
                      : mix(ParticlesOverLife_OpacityStart, ParticlesOverLife_OpacityMid, v);
#else
    vec4 color = mix(a, b, t);
    color.a *= mix(ParticlesOverLife_OpacityStart, ParticlesOverLife_OpacityEnd, t);
#endif
    return color;
}

vec3 kzOverLifeScale(float t) {
#ifdef OVER_LIFE_THREE_STOP
    bool second;
    float u = kzSegment(t, ParticlesOverLife_ScaleMidPoint, second);
    return second ? mix(ParticlesOverLife_ScaleMid, ParticlesOverLife_ScaleEnd, u)
                  : mix(ParticlesOverLife_ScaleStart, ParticlesOverLife_ScaleMid, u);
#else
    return mix(ParticlesOverLife_ScaleStart, ParticlesOverLife_ScaleEnd, t);
#endif
}

// The particle's colour: over life, times its own colour and Particle.Color.
vec4 kzOverLifeParticleColor(uint i) {
    return kzOverLifeColor(getParticleNormalizedAge(i)) * kzParticleTintOf(getParticleColor(i)) * Particle_Color;
}
