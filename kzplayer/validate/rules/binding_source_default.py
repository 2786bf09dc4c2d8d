"""A binding source property with no value in the file: it reads its type's default (a note).

A project's own property (a `PropertyType` of the project, or of an imported `.kzproj`) that
the source item neither sets nor has written by a binding is, in Kanzi, given its value by
someone else: a prefab instance overriding its template's property, a plugin or the
application at run time. Until then Kanzi reads the property type's default, and so does
kzplayer: validate, inspect and play go on with that value, and this note says which value
it is. Stock properties have their catalog defaults and are read silently; a buffer, item or
material has no default (the binding cannot run: `expr.value`).

To fix: nothing to fix when the value comes at run time; give the property a value in the
file (or with `--set`) to read another one.

Noted:

    <PropertyType name="App.Speed" type="float"/>
    ...
    <EmptyNode name="Controller"><Property name="App.Speed"/></EmptyNode>
    <ParticleEmitter name="E">
      <Binding target="Emission.Rate">{../Controller/App.Speed} * 10</Binding>
    </ParticleEmitter>

Passing (nothing to note):

    <EmptyNode name="Controller"><Property name="App.Speed">4</Property></EmptyNode>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ111"
RULE = "binding.source-default"
SEVERITY = Severity.NOTE

# No check(): found while evaluating the bindings; the engine reports it as found.
