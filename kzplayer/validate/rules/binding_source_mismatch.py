"""A BindingItem whose SourceExpression and RawCode disagree.

A full BindingItem says what it reads twice: the SourceExpression with paths
(`{@../Source/ParticleEmitter.EventBuffer}`, what Kanzi Studio shows) and the RawCode with
indices (`{0}`) read through BindingSourceItems (what the Kanzi runtime runs). Both must be
the same program and each reference must read the same item and property. A copied binding
whose BindingSourceItem.Source still names the other buffer, or a RawCode `{1}` without a
BindingSourceItem named 1, is caught here. (A stale absolute Item path is `path.stale`.)

To fix: make the two say the same: edit the BindingSourceItem (its `Source` or `Item`) or
the SourceExpression so both read the same item and property.

Failing:

    <Property name="BindingItem.SourceExpression">{@../Source/ParticleEmitter.ParticleDataBuffer}</Property>
    <Property name="BindingItem.RawCode">{0}</Property>
    <BindingSourceItem name="0">
      <Property name="BindingSourceItem.Item">Screens/.../Source</Property>
      <Property name="BindingSourceItem.Source">ParticleEmitter.EventBuffer</Property>
    </BindingSourceItem>

Passing: `BindingSourceItem.Source` is `ParticleEmitter.ParticleDataBuffer`, as the expression says.
"""
from kzplayer.diagnostics import Severity

CODE = "KZ107"
RULE = "binding.source-mismatch"
SEVERITY = Severity.ERROR

# No check(): found while compiling the bindings; the engine reports it as found.
