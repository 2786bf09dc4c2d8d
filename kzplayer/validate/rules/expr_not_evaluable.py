"""An engine-only construct that kzplayer parses but does not evaluate (a note).

Kanzi material bindings use engine functions (`getWorldMatrix()`,
`getProjectionCameraWorldMatrix()`, `getCameraPosition()`, `createView<N>(...)`, `{view ...}`
ranges, `acquire`, `animate`). They are valid Kanzi, so they are no error; kzplayer leaves the
target of such a binding at its own value and says so here.

Bindings on a material's uniforms (in a `<MaterialType>`, or a Kanzi Studio material type) are
evaluated by Kanzi for each node drawn with the material; kzplayer checks them (their types,
and what they fill), and evaluates only the light uniform bindings that read nothing but the
lights of a scene (`{pointLightsView ... PointLightColor}` over
`{##RenderPass/DrawObjectsRenderPass.PointLights}`, see docs/bindings.md). That is one note
per project, at the first such binding, naming the uniforms: a real Kanzi project has
dozens, and one line says all there is to say.

To fix: nothing to do for Kanzi; to see the effect in kzplayer, compute the value from
properties instead.

Noted:

    <Binding target="Particle.Size">length(getCameraPosition())</Binding>

Passing (nothing to note):

    <Binding target="Particle.Size">{./Emission.Lifetime} * 0.1</Binding>
"""
from kzplayer.bindings.lights import evaluate_light_uniforms
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import on_material
from kzplayer.validate.engine import Problem, from_pipeline

CODE = "KZ208"
RULE = "expr.not-evaluable"
SEVERITY = Severity.NOTE
OWNS_PIPELINE = True      # material-binding notes are merged here, not shown one by one


def check(context):
    on_materials = {id(b): b for owner, b in context.bindings if on_material(owner)}
    lit = evaluate_light_uniforms(context.project) if on_materials else []
    evaluated = {id(u.binding) for u in lit}
    found: list = []
    for p in from_pipeline(context, RULE):      # found while checking the expressions
        b = on_materials.get(context.binding_at(p.span))
        if b is None:
            yield p
        elif p.span.line and (b.target_span or b.span) == p.span and id(b) not in evaluated:
            found.append((p.span, b.target))    # the binding itself, not the engine calls inside it
    if not found:
        return
    names = list(dict.fromkeys(target for _, target in found))
    what = (f"the binding of material uniform {_few(names)} is" if len(found) == 1 else
            f"the bindings of {len(found)} material uniforms ({_few(names)}) are")
    done = ""
    if lit:
        uniforms = list(dict.fromkeys(u.binding.target for u in lit))
        scenes = list(dict.fromkeys(u.scene.path for u in lit))
        done = (f"; kzplayer evaluates only the {len(evaluated)} light uniform bindings that read nothing "
                f"but a scene's lights ({_few(uniforms)}), against the lights of {_few(scenes)}")
    elif any("DrawObjectsRenderPass." in (b.raw_code or "") + b.expression + "".join(s.source for s in b.sources)
             for b in on_materials.values()):
        done = ("; kzplayer evaluates light uniform bindings against the lights of a scene, and no "
                "scene here has lights")
    else:
        done = "; kzplayer does not evaluate material bindings"
    yield Problem(found[0][0], f"{what} evaluated by Kanzi for each node drawn with the material{done}",
                  related=tuple(span for span, _ in found[1:]))


def _few(names: list[str]) -> str:
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
