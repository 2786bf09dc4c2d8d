// ParticlesDefault's colour: white-hot at birth, orange at 40 % of its life, deep red at
// death, fading out over the last 30 %, times the particle's own colour and Particle.Color.
// Returns linear RGB and alpha.
uniform vec4 Particle_Color = vec4(1.0);

vec4 kzDefaultColor(uint i) {
    float t = getParticleNormalizedAge(i);
    vec3 hot = vec3(1.0, 0.92, 0.72);
    vec3 warm = vec3(1.0, 0.50, 0.12);
    vec3 ember = vec3(0.85, 0.18, 0.04);
    vec3 ramp = t < 0.4 ? mix(hot, warm, t / 0.4) : mix(warm, ember, (t - 0.4) / 0.6);
    vec4 srgb = vec4(ramp, 1.0 - smoothstep(0.7, 1.0, t)) * getParticleColor(i) * Particle_Color;
    return kzSrgbToLinear(srgb);
}
