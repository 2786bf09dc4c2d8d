"""A DTD that declares entities, or loads external ones (refused).

Project files are data: kzplayer never expands entities and never loads anything from
outside the project (no network, no external DTD), so a file that needs them is refused.

To fix: remove the `<!DOCTYPE ...>` declaration and write the text the entity stood for.

Failing:

    <!DOCTYPE Project [ <!ENTITY rate "500"> ]>

Passing: no DOCTYPE; write the value where it is used.
"""
from kzplayer.diagnostics import Severity

CODE = "KZ003"
RULE = "xml.entities"
SEVERITY = Severity.ERROR

# No check(): found while loading; the engine reports it as found.
