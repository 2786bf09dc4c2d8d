// Colour spaces. Colours in properties and images are sRGB, as artists pick them; the
// renderer blends and lights in linear light and writes sRGB once, at the end (resolve).
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

float kzLuminance(vec3 linear) {
    return dot(linear, vec3(0.2126, 0.7152, 0.0722));
}
