"""An engine-only construct that kzplayer parses but does not evaluate (a note).

Kanzi material bindings use engine functions (`getWorldMatrix()`,
`getProjectionCameraWorldMatrix()`, `getCameraPosition()`, `createView<N>(...)`, `{view ...}`
ranges, `acquire`, `animate`). They are valid Kanzi, so they are no error; kzplayer leaves the
target of such a binding at its own value and says so here.

Bindings on a material's uniforms (in a `<MaterialType>`, or a Kanzi Studio material type) are
evaluated by Kanzi for each node drawn with the material; kzplayer evaluates none of them.
That is one note per file, at the first such binding, naming the uniforms: a real Kanzi
project has dozens, and one line says all there is to say.

To fix: nothing to do for Kanzi; to see the effect in kzplayer, compute the value from
properties instead.

Noted:

    <Binding target="Particle.Size">length(getCameraPosition())</Binding>

Passing (nothing to note):

    <Binding target="Particle.Size">{./Emission.Lifetime} * 0.1</Binding>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import on_material
from kzplayer.validate.engine import Problem, from_pipeline

CODE = "KZ208"
RULE = "expr.not-evaluable"
SEVERITY = Severity.NOTE
OWNS_PIPELINE = True      # material-binding notes are merged here, not shown one by one


def check(context):
    on_materials = {id(b): b for owner, b in context.bindings if on_material(owner)}
    by_file: dict[str, list] = {}
    for p in from_pipeline(context, RULE):      # found while checking the expressions
        b = on_materials.get(context.binding_at(p.span))
        if b is None:
            yield p
        elif p.span.line and (b.target_span or b.span) == p.span:   # not the engine calls inside it
            by_file.setdefault(p.span.file, []).append((p.span, b.target))
    for found in by_file.values():
        names = list(dict.fromkeys(target for _, target in found))
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        what = (f"the binding of material uniform {shown} is" if len(found) == 1 else
                f"the bindings of {len(found)} material uniforms ({shown}) are")
        yield Problem(found[0][0], f"{what} evaluated by Kanzi for each node drawn with the material; "
                      "kzplayer does not evaluate material bindings",
                      related=tuple(span for span, _ in found[1:]))
