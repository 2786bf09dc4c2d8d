// Texture sheets (flipbooks): Particle.TextureGrid columns x rows of frames, read left to
// right and top to bottom. Particle.FrameRate > 0 plays that many frames a second from the
// particle's birth, looping; 0 plays the sheet once over the particle's life.
uniform vec2 Particle_TextureGrid = vec2(1.0, 1.0);
uniform float Particle_FrameRate = 0.0;

float kzSheetFrame(uint i) {
    vec2 grid = max(floor(Particle_TextureGrid + 0.5), vec2(1.0));
    float frames = grid.x * grid.y;
    float f = Particle_FrameRate > 0.0
        ? mod(floor(getParticleAge(i) * Particle_FrameRate), frames)
        : min(floor(getParticleNormalizedAge(i) * frames), frames - 1.0);
    return f;
}

// uv over the quad (0, 0 bottom left) -> uv inside frame `frame` of the sheet. Images are
// uploaded bottom row first, so the top row of frames is at the top of v.
vec2 kzSheetUV(vec2 uv, float frame) {
    vec2 grid = max(floor(Particle_TextureGrid + 0.5), vec2(1.0));
    float column = mod(frame, grid.x);
    float row = floor(frame / grid.x);
    return vec2((column + uv.x) / grid.x, 1.0 - (row + 1.0 - uv.y) / grid.y);
}
