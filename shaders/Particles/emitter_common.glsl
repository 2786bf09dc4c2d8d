// The common property contract of every shape emitter (Emission page): lifetime, scale,
// initial velocity over a spherical cap, rotation, angular velocity, density -> mass.
// A shape's emitParticle() picks a local position (and, on a surface, the outward normal)
// and calls emitFromShape(). Variances are symmetric +- bands drawn per particle.
// Random streams of spawnRandom(k): 0-18 here, SHAPE_RANDOM (32) and up for the shape.

uniform float Emission_Lifetime = 1.0;
uniform float Emission_LifetimeVariance = 0.0;
uniform vec3  Emission_Scale = vec3(1.0);
uniform vec3  Emission_ScaleVariance = vec3(0.0);
uniform float Emission_InitialVelocityStrength = 1.0;
uniform float Emission_InitialVelocityStrengthVariance = 0.0;
uniform vec3  Emission_InitialVelocityDirection = vec3(0.0, 0.0, 1.0);
uniform float Emission_InitialVelocityInnerAngle = 0.0;
uniform float Emission_InitialVelocityOuterAngle = 3.14159265358979;
uniform bool  Emission_InitialVelocityOrientToNormal = true;
uniform vec3  Emission_InitialRotation = vec3(0.0);
uniform vec3  Emission_InitialRotationVariance = vec3(0.0);
uniform vec3  Emission_InitialAngularVelocity = vec3(0.0);
uniform vec3  Emission_InitialAngularVelocityVariance = vec3(0.0);
uniform float Emission_Density = 1.0;
uniform bool  Emission_Volume = false;

#define PI 3.14159265358979
#define SHAPE_RANDOM 32u

// An orthonormal basis whose third column is n (Duff et al. 2017, branchless).
mat3 basisAround(vec3 n) {
    float s = n.z >= 0.0 ? 1.0 : -1.0;
    float a = -1.0 / (s + n.z);
    float b = n.x * n.y * a;
    vec3 t = vec3(1.0 + s * n.x * n.x * a, s * b, -s * n.x);
    vec3 bt = vec3(b, s + n.y * n.y * a, -n.y);
    return mat3(t, bt, n);
}

// Uniform over the solid angle between the inner and outer half-angles around `axis`:
// cos(theta) is uniform on [cos(outer), cos(inner)], phi uniform on [0, 2 pi).
vec3 sampleCap(vec3 axis, float inner, float outer, float u1, float u2) {
    float a = clamp(inner, 0.0, PI);
    float b = clamp(outer, 0.0, PI);
    float cosInner = cos(min(a, b));
    float cosOuter = cos(max(a, b));
    float c = mix(cosOuter, cosInner, u1);
    float s = sqrt(max(0.0, 1.0 - c * c));
    float phi = 2.0 * PI * u2;
    return basisAround(axis) * vec3(s * cos(phi), s * sin(phi), c);
}

vec3 velocityAxis() {
    vec3 d = Emission_InitialVelocityDirection;
    return dot(d, d) > 0.0 ? normalize(d) : vec3(0.0, 0.0, 1.0);
}

vec3 variedVec3(vec3 value, vec3 variance, uint k) {
    return vec3(varied(value.x, variance.x, spawnRandom(k)),
                varied(value.y, variance.y, spawnRandom(k + 1u)),
                varied(value.z, variance.z, spawnRandom(k + 2u)));
}

// Everything but the position's shape. `normal` is the outward surface normal (emitter-
// local, unit) when the spawn lies on a surface, else vec3(0).
void emitFromShape(uint index, vec3 localPosition, vec3 normal) {
    setParticleLifetime(index, max(varied(Emission_Lifetime, Emission_LifetimeVariance, spawnRandom(0u)), 0.0));
    // One draw for all three axes: a uniform band keeps a uniform scale uniform.
    vec3 scale = Emission_Scale + Emission_ScaleVariance * (2.0 * spawnRandom(1u) - 1.0);
    setParticleScale(index, scale);
    setParticleMass(index, Emission_Density * abs(scale.x * scale.y * scale.z));

    vec3 axis = velocityAxis();
    bool onSurface = dot(normal, normal) > 0.0 && !Emission_Volume;
    if (onSurface && Emission_InitialVelocityOrientToNormal) {
        axis = basisAround(normal) * axis;
    }
    vec3 direction = sampleCap(axis, Emission_InitialVelocityInnerAngle,
                               Emission_InitialVelocityOuterAngle, spawnRandom(2u), spawnRandom(3u));
    float speed = varied(Emission_InitialVelocityStrength, Emission_InitialVelocityStrengthVariance,
                         spawnRandom(4u));
    mat4 m = kz_emitterTransform;
    vec3 worldDirection = mat3(m) * direction;
    float len = length(worldDirection);
    setParticleVelocity(index, len > 0.0 ? worldDirection / len * speed : vec3(0.0));
    setParticlePosition(index, (m * vec4(localPosition, 1.0)).xyz);
    setParticleRotation(index, Emission_InitialRotation
        + Emission_InitialRotationVariance * (2.0 * vec3(spawnRandom(5u), spawnRandom(6u), spawnRandom(7u)) - 1.0));
    setParticleAngularVelocity(index, variedVec3(Emission_InitialAngularVelocity, Emission_InitialAngularVelocityVariance, 16u));
}
