// ParticlesDefault's colour: white-hot at birth, orange at 40 % of its life, deep red at
// death (sRGB (1, 0.92, 0.72), (1, 0.5, 0.12), (0.85, 0.18, 0.04), mixed in linear light),
// fading out over the last 30 %, times the particle's own colour and Particle.Color.
// Returns linear RGB and alpha.
uniform vec4 Particle_Color = vec4(1.0);     // linear (the renderer decodes colour properties)

vec4 kzDefaultColor(uint i) {
    float t = getParticleNormalizedAge(i);
    vec3 hot = vec3(1.0, 0.8308, 0.4793);
    vec3 warm = vec3(1.0, 0.2140, 0.01370);
    vec3 ember = vec3(0.6939, 0.02732, 0.003035);
    vec3 ramp = t < 0.4 ? mix(hot, warm, t / 0.4) : mix(warm, ember, (t - 0.4) / 0.6);
    return vec4(ramp, 1.0 - smoothstep(0.7, 1.0, t)) * kzParticleTintOf(getParticleColor(i)) * Particle_Color;
}
