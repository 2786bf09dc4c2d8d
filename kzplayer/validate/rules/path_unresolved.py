"""A path that leads to no item.

Every path a binding uses must name an existing item: a reference in the expression
(`{../Source/ParticleEmitter.EventBuffer}`, `{@../Box/Node.Width}`), the PushTarget and the
`Item` of each BindingSourceItem. Relative paths start at the item that holds the binding;
absolute paths start with the library name (`Screens/...`), optionally after the project
name. The message names the nearest item that does exist on the way, which is usually where
a name is misspelt or an item was renamed. (Where the rest of the binding shows what a stale
absolute path meant, `path.stale` reports it instead.)

Failing:

    <Binding target="Emission.Rate">{../Nozle/Emission.Rate} * 2</Binding>

Passing:

    <Binding target="Emission.Rate">{../Nozzle/Emission.Rate} * 2</Binding>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import from_pipeline

CODE = "KZ101"
RULE = "path.unresolved"
SEVERITY = Severity.ERROR


def check(context):
    return from_pipeline(context, RULE)   # found while resolving the bindings
