// ParticlesOverLife: colour, scale and opacity over the particle's normalised age t.
// Colours are written sRGB and arrive linear (render/color.glsl), so they mix in linear
// light (as Kanzi's ColorOverLife mixes in gamma 2.22 light); scale and opacity are linear in t. With OVER_LIFE_THREE_STOP the colour
// goes ColorStart -> ColorMid at ColorMidPoint -> ColorEnd.
uniform vec4 Particle_Color = vec4(1.0);
uniform vec4 ParticlesOverLife_ColorStart = vec4(1.0);
uniform vec4 ParticlesOverLife_ColorEnd = vec4(1.0);
uniform float ParticlesOverLife_ScaleStart = 1.0;
uniform float ParticlesOverLife_ScaleEnd = 1.0;
uniform float ParticlesOverLife_OpacityStart = 1.0;
uniform float ParticlesOverLife_OpacityEnd = 0.0;
#ifdef OVER_LIFE_THREE_STOP
uniform vec4 ParticlesOverLife_ColorMid = vec4(1.0);
uniform float ParticlesOverLife_ColorMidPoint = 0.5;
#endif

// linear RGB, alpha x opacity
vec4 kzOverLifeColor(float t) {
    vec4 a = ParticlesOverLife_ColorStart;
    vec4 b = ParticlesOverLife_ColorEnd;
#ifdef OVER_LIFE_THREE_STOP
    vec4 m = ParticlesOverLife_ColorMid;
    float mid = clamp(ParticlesOverLife_ColorMidPoint, 0.0, 1.0);
    vec4 color = t < mid ? mix(a, m, mid > 0.0 ? t / mid : 1.0)
                         : mix(m, b, mid < 1.0 ? (t - mid) / (1.0 - mid) : 0.0);
#else
    vec4 color = mix(a, b, t);
#endif
    color.a *= mix(ParticlesOverLife_OpacityStart, ParticlesOverLife_OpacityEnd, t);
    return color;
}

float kzOverLifeScale(float t) {
    return mix(ParticlesOverLife_ScaleStart, ParticlesOverLife_ScaleEnd, t);
}

// The particle's colour: over life, times its own colour and Particle.Color.
vec4 kzOverLifeParticleColor(uint i) {
    return kzOverLifeColor(getParticleNormalizedAge(i)) * kzParticleTintOf(getParticleColor(i)) * Particle_Color;
}
