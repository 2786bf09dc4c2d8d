// Tone mapping: the linear frame (after exposure and bloom) into [0, 1] before the sRGB
// encode (render/post.py). ACES: Narkowicz's 2015 fit of the ACES filmic curve, per channel.
vec3 kzToneMapACES(vec3 x) {
    x = max(x, vec3(0.0));
    return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}
