"""MaximumAmount below the expected peak of live particles (a warning).

`ParticleEmitter.MaximumAmount` sizes the emitter's particle pool; once it is full,
emission stalls until particles die, so the effect thins out or pulses. For the time-based
count material (`EmissionCount_Schedule`, and the legacy PerSecond / Periodic / Burst it
replaces) the expected peak follows from its settings (the emission page's sizing table),
with R = Rate, L = Lifetime, N = ImpulseAtCycleStart, P = OnDuration + OffDuration:

* steady stream (On = Off = 0): R × L;
* periodic stream: R × (the most on-time any window of length L contains), at most R × L;
* recurring burst: N × (floor(L / P) + 1), one burst's worth when bursts do not overlap (a
  lifetime of exactly k periods counts k + 1: the oldest burst dies in the frame the next fires);
* one burst only (P = 0, or a huge OffDuration): N; a stream and bursts together add up.

Means are used (variances ignored): this is the pool a typical run fills. Event-driven
emitters are not checked: their peak depends on the source's event rate. Values are those
the player plays (after bindings, a legacy material's preset where the emitter sets none). An emitter whose MaximumAmount is bound to an expression reading the
properties that set the peak (`{./Emission.Rate} * {./Emission.Lifetime}`) tracks it and is
not checked; the hint suggests that binding.

To fix: raise `ParticleEmitter.MaximumAmount` to the peak, or bind it to the expression the
hint gives so it follows the settings.

Failing:

    <Property name="Emission.Rate">500</Property>
    <Property name="Emission.Lifetime">2</Property>
    <Property name="ParticleEmitter.MaximumAmount">300</Property>

Passing:

    <Property name="Emission.Rate">500</Property>
    <Property name="Emission.Lifetime">2</Property>
    <Binding target="ParticleEmitter.MaximumAmount">{./Emission.Rate} * {./Emission.Lifetime}</Binding>
"""
import math

from kzplayer.diagnostics import Severity
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ504"
RULE = "emitter.maximum-amount"
SEVERITY = Severity.WARNING

MAXIMUM = "ParticleEmitter.MaximumAmount"
COUNT = "ParticleEmitter.EmissionCountMaterial"
RATE, LIFETIME, IMPULSE = "Emission.Rate", "Emission.Lifetime", "Emission.ImpulseAtCycleStart"
ON, OFF = "Emission.OnDuration", "Emission.OffDuration"
STREAM_EXPR = "{./Emission.Rate} * {./Emission.Lifetime}"
BURST_EXPR = "{./Emission.ImpulseAtCycleStart}"
INPUTS = (RATE, LIFETIME, IMPULSE, ON, OFF)
OVERLAP_EXPR = "(floor({./Emission.Lifetime} / ({./Emission.OnDuration} + {./Emission.OffDuration})) + 1)"


def expected_peak(rate: float, lifetime: float, impulse: float, on: float, off: float) -> tuple[float, float, int]:
    """(stream peak, burst size, bursts alive at once) of an EmissionCount_Schedule emitter."""
    period = on + off
    stream = 0.0
    if rate > 0 and lifetime > 0:
        if on == 0 and off == 0:
            stream = rate * lifetime                   # always in the on-phase
        elif on > 0:
            whole = _floor(lifetime / period)          # the window of length L that starts
            stream = rate * (whole * on + min(on, lifetime - whole * period))   # with an on-phase
    bursts = 0
    if impulse > 0 and lifetime > 0:
        bursts = _floor(lifetime / period) + 1 if period > 0 else 1
    return stream, impulse, bursts


def _floor(x: float) -> float:
    """math.floor, but inf (a period of 1e-320 s: cycles without end) stays inf, not an
    OverflowError; the caller then finds no finite peak."""
    return math.floor(x) if math.isfinite(x) else x


def check(context):
    for emitter in context.emitters:
        count = context.material(emitter, COUNT)
        if count is None or count.event_driven or RATE not in count.properties:
            continue
        if any(_not_finite(context.value(emitter, name)) for name in INPUTS):
            continue        # particles that never die (1e400), NaN: no finite peak (property.range says why)
        v = _values(context, emitter)
        stream, impulse, bursts = expected_peak(v[RATE], v[LIFETIME], v[IMPULSE], v[ON], v[OFF])
        total = stream + impulse * bursts
        if not 0 < total < math.inf:
            continue        # nothing to size, or an unbounded lifetime: no finite peak
        peak = math.ceil(total - 1e-6)
        need = ({RATE, LIFETIME} if stream else set()) | ({IMPULSE} if bursts else set())
        writers = context.bindings_into(emitter, MAXIMUM)
        if writers and all(need <= {name for item, name in context.reads(b) if item is emitter}
                           for _, b in writers):
            continue        # bound to an expression that tracks the peak
        maximum = context.value(emitter, MAXIMUM)
        if not isinstance(maximum, (int, float)) or maximum >= peak:
            continue
        prop = emitter.properties.get(MAXIMUM)
        span = writers[0][1].target_span if writers else (value_span(prop) if prop else emitter.span)
        yield Problem(span or emitter.span,
                      f"MaximumAmount {maximum:g} of '{emitter.name}' is below the expected peak of {peak} live "
                      f"particles ({_why(v, stream, impulse, bursts)}): when the pool is full, emission stalls",
                      f'bind it: <Binding target="{MAXIMUM}">{_expression(stream, bursts)}</Binding>')


def _values(context, emitter) -> dict[str, float]:
    """The schedule's inputs as they play (the scene's value rule: bindings, a legacy
    material's preset where the node sets none, clamps)."""
    out = {}
    for name in INPUTS:
        value = context.scene.value(emitter, name)
        out[name] = float(value) if isinstance(value, (int, float)) else 0.0
    return out


def _not_finite(value) -> bool:
    return isinstance(value, (int, float)) and not math.isfinite(value)


def _why(v, stream, impulse, bursts) -> str:
    parts = []
    if stream:
        parts.append(f"Rate {v[RATE]:g} x Lifetime {v[LIFETIME]:g} s" if v[ON] == 0 and v[OFF] == 0
                     else f"Rate {v[RATE]:g} over the on-time within Lifetime {v[LIFETIME]:g} s")
    if bursts:
        parts.append(f"bursts of {impulse:g}" + (f", {bursts} alive at once" if bursts > 1 else ""))
    return " plus ".join(parts)


def _expression(stream, bursts) -> str:
    terms = [STREAM_EXPR] if stream else []
    if bursts:
        terms.append(BURST_EXPR if bursts == 1 else f"{BURST_EXPR} * {OVERLAP_EXPR}")
    return " + ".join(terms)
