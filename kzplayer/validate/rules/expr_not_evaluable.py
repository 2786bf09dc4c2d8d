"""An engine-only construct that kzplayer parses but does not evaluate (a note).

Kanzi material bindings use engine functions (`getWorldMatrix()`,
`getProjectionCameraWorldMatrix()`, `getCameraPosition()`, `createView<N>(...)`, `{view ...}`
ranges, `acquire`, `animate`). They are valid Kanzi, so they are no error; kzplayer leaves the
target of such a binding at its own value and says so here.

Noted:

    <Binding target="Particle.Size">length(getCameraPosition())</Binding>

Passing (nothing to note):

    <Binding target="Particle.Size">{./Emission.Lifetime} * 0.1</Binding>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import from_pipeline

CODE = "KZ208"
RULE = "expr.not-evaluable"
SEVERITY = Severity.NOTE


def check(context):
    return from_pipeline(context, RULE)   # found while checking the expressions
