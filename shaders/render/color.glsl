// Colour spaces. Colours in properties and images are sRGB, as artists pick them; the
// renderer blends and lights in linear light and writes sRGB once, at the end (resolve).
// A colour PROPERTY reaches a shader already linear (the renderer decodes color4 uniforms,
// alpha untouched), and textures are decoded when they are loaded; only a particle's own
// colour (setParticleColor, sRGB like a property) is decoded here, kzParticleTint.
vec3 kzSrgbToLinear(vec3 c) {
    c = max(c, vec3(0.0));
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}

vec4 kzSrgbToLinear(vec4 c) {
    return vec4(kzSrgbToLinear(c.rgb), c.a);
}

vec3 kzLinearToSrgb(vec3 c) {
    c = clamp(c, vec3(0.0), vec3(1.0));
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// The particle's own colour, linear (1 stays 1: the common case costs a compare).
vec4 kzParticleTintOf(vec4 srgb) {
    return all(equal(srgb.rgb, vec3(1.0))) ? srgb : kzSrgbToLinear(srgb);
}

float kzLuminance(vec3 linear) {
    return dot(linear, vec3(0.2126, 0.7152, 0.0722));
}
