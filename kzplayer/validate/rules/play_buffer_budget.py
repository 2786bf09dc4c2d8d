"""The project's particle buffers need more GPU memory than the buffer budget (an error).

Every ParticleSystem keeps its buffers on the GPU: the pools (hot and cold particle
records, tracks, the live list and free stack, control words) sized by each emitter's
`ParticleEmitter.MaximumAmount`, the position histories of trails (`Trail.Length`
positions a slot), the event channels of subemitters, and the sort buffers of draws that
sort (`ParticleEmitter.SortingType`) or cast light (`ParticleEmitter.CastLight`). The whole
project may ask for 2 GiB together (docs/hardening.md, "GPU buffers"); `kzplayer play`
refuses a project past it before any buffer is made (exit 1), and so does this rule, with
the same figures and breakdown: the five largest systems, each by kind. The figures are
counted from the systems' slot layouts, without a GL context; where a pool is more than
this machine's OpenGL driver holds, the figures are those of the pools the driver gives
(as play's), or, with no OpenGL here, of the pools asked for. The problem is shown at the
MaximumAmount of the largest pool of the largest system. `play --events` adds its
`--events-cap` records to each system with a listened emitter; validate counts none.

To fix: lower `ParticleEmitter.MaximumAmount` (or `Trail.Length`) where most goes; on a
GPU that has the memory, `play --buffer-budget GIB` raises the budget.

Failing (eight systems like this one: 9.55 GiB):

    <ParticleEmitter name="E">
      <Property name="ParticleEmitter.MaximumAmount">10000000</Property>
      <Property name="ParticleEmitter.ParticleMaterial">Particles_Ribbon</Property>
      <Property name="Trail.Length">64</Property>
      <Property name="ParticleEmitter.SortingType">Depth</Property>
    </ParticleEmitter>

Passing:

    <ParticleEmitter name="E">
      <Property name="ParticleEmitter.MaximumAmount">100000</Property>
      <Property name="ParticleEmitter.ParticleMaterial">Particles_Ribbon</Property>
      <Property name="Trail.Length">16</Property>
    </ParticleEmitter>
"""
from kzplayer.diagnostics import KzError, Severity
from kzplayer.gpu.history import history_length
from kzplayer.gpu.limits import buffer_budget, draw_sorters, held_pools, over_budget, system_bytes
from kzplayer.gpu.storage import Layout
from kzplayer.scene import Scene
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ913"
RULE = "play.buffer-budget"
SEVERITY = Severity.ERROR

MAXIMUM = "ParticleEmitter.MaximumAmount"


def check(context):
    if context.graph is None:
        return                      # the bindings do not resolve: other rules say why
    try:
        scene = Scene(context.project, context.graph, leave_out_broken=True)
    except KzError:
        return                      # a project that does not play: other rules say why
    systems = scene.systems         # every one, as play's runners (an empty one holds a few bytes)
    problem = _over(scene, systems, None)
    if problem is None:
        return
    caps = _driver_caps()           # only now: a context costs time, and most projects are within
    if caps is not None:
        problem = _over(scene, systems, caps)
        if problem is None:
            return
    yield Problem(_span(scene, systems, caps), problem.message, problem.hint)


def _layouts(scene, systems, caps):
    """{system path: (Layout, sorters)} as kzplayer.gpu.refresh counts them (no host events)."""
    out = {}
    for system in systems:
        members = system.members
        asked = [em.pool for em in members]
        pools = held_pools(asked, *caps) if caps is not None else asked
        histories = [0 if em.channel_of is not None else
                     history_length(scene.catalog, scene.value(em.item, "ParticleEmitter.ParticleMaterial"),
                                    lambda name, item=em.item: scene.value(item, name)) for em in members]
        sorters = [draw_sorters(scene.value, em.item, em.channel_of is not None) for em in members]
        out[system.item.path] = (Layout(pools, 0, histories=histories), sorters)
    return out


def _over(scene, systems, caps):
    layouts = _layouts(scene, systems, caps)
    return over_budget({path: system_bytes(layout, sorters) for path, (layout, sorters) in layouts.items()},
                       buffer_budget())


def _driver_caps():
    """(max_pool, system_limit) of this machine's OpenGL driver, None without one."""
    # lazy: GL is loaded only for a project already over the budget (validate needs no GL)
    from kzplayer.gpu import gl
    from kzplayer.gpu.context import create_context
    from kzplayer.gpu.limits import max_pool, system_limit
    try:
        ctx = create_context(headless=True)
    except KzError:
        return None
    try:
        return max_pool(ctx), system_limit(ctx, gl.available(ctx))
    finally:
        ctx.release()


def _span(scene, systems, caps):
    """The MaximumAmount of the largest pool of the system that needs most (its span)."""
    layouts = _layouts(scene, systems, caps)
    worst = max(systems, key=lambda s: sum(system_bytes(*layouts[s.item.path]).values()))
    emitters = worst.emitters or worst.members
    biggest = max(emitters, key=lambda em: em.pool)
    prop = biggest.item.properties.get(MAXIMUM)
    return (value_span(prop) if prop is not None else scene.values.span(biggest.item, MAXIMUM)) or worst.item.span
