"""A `{DataContext.name}` reference with no value.

In Kanzi the application supplies data-context values at run time. kzplayer takes them from
the command line (`kzplayer play --set DataContext.gauges.battery=39`); without one the
binding leaves its target at its own value.

To fix: give the value when playing (`kzplayer play --set DataContext.NAME=VALUE`), or read
a property instead.

Failing (when played without --set):

    <Binding target="Emission.Rate">{DataContext.gauges.battery} * 10</Binding>

Passing:

    <Binding target="Emission.Rate">{./Emission.Lifetime} * 10</Binding>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ109"
RULE = "binding.data-context"
SEVERITY = Severity.WARNING

# No check(): found while evaluating the bindings; the engine reports it as found.
