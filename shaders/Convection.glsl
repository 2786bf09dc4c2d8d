// Convection (NeL's convection force, a global force): the lift of a warm parcel (smoke, hot
// gas) in air that cools with height, mass-independent, along world up:
//     a = Strength clamp(1 - h / Height, -1, 1),   h = height above the affector's origin
// Strength m/s^2 at the origin's level (and below it: the warm ground), falling linearly to 0
// at Height, the level where the parcel is as cool as the air around it; above it the lift
// turns into a sink that pulls the parcel back (down to -Strength at twice the Height). So a
// plume rises, overshoots and settles into a flat layer at Height, bobbing around it with
// period 2 pi sqrt(Height / Strength) (the Brunt-Vaisala oscillation; pair it with Drag to
// calm it). Height <= 0: a uniform lift of Strength at every height.

uniform float Convection_Strength = 2.0;
uniform float Convection_Height = 5.0;

void affectParticle(uint index) {
    vec3 up = normalize(worldToSimulationDirection(vec3(0.0, 1.0, 0.0)));
    float h = dot(getParticlePosition(index) - getAffectorPosition(), up);
    float lift = Convection_Height > 0.0 ? clamp(1.0 - h / Convection_Height, -1.0, 1.0) : 1.0;
    addParticleAcceleration(index, up * (Convection_Strength * lift));
}
