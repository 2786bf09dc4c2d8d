"""A path that leads to no item.

Every path a binding uses must name an existing item: a reference in the expression
(`{../Source/ParticleEmitter.EventBuffer}`, `{@../Box/Node.Width}`), the PushTarget and the
`Item` of each BindingSourceItem. Relative paths start at the item that holds the binding;
absolute paths start with the library name (`Screens/...`), optionally after the project
name. The message names the nearest item that does exist on the way, which is usually where
a name is misspelt or an item was renamed. (Where the rest of the binding shows what a stale
absolute path meant, `path.stale` reports it instead.)

A full BindingItem runs its RawCode (`{0}`, read through BindingSourceItems), but its
SourceExpression is what Kanzi Studio shows and edits: a path there that leads nowhere is
reported too, though the binding still runs.

To fix: correct the misspelt name (the message names the nearest item that exists), or point
the path at the item where it now lives.

Failing:

    <Binding target="Emission.Rate">{../Nozle/Emission.Rate} * 2</Binding>

Passing:

    <Binding target="Emission.Rate">{../Nozzle/Emission.Rate} * 2</Binding>
"""
from kzplayer.bindings.sources import Unresolved, resolve_reference
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import on_material
from kzplayer.validate.engine import Problem, from_pipeline

CODE = "KZ101"
RULE = "path.unresolved"
SEVERITY = Severity.ERROR


def check(context):
    yield from from_pipeline(context, RULE)   # found while resolving the bindings
    # The graph runs RawCode; the SourceExpression's own paths are checked here.
    for owner, b in context.bindings:
        if b.raw_code is None or b.short or on_material(owner):
            continue            # a material's `./` is the node drawn with it: Kanzi's business
        shown = context.programs[id(b)][0]
        if shown.diagnostics:
            continue            # the expression rules report what is wrong with its text
        for ref in shown.references:
            if ref.kind == "index":
                continue
            try:
                resolve_reference(context.project, ref, owner)
            except Unresolved as exc:
                d = exc.diagnostic
                if d.severity is Severity.ERROR:
                    yield Problem(d.span, f"SourceExpression {d.message}",
                                  "Kanzi Studio shows and rewrites the binding from its SourceExpression: "
                                  "fix the path there (RawCode and the BindingSourceItems still run)")
