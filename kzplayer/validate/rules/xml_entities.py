"""A DTD that declares entities, or loads external ones (refused).

Project files are data: kzplayer never expands entities and never loads anything from
outside the project (no network, no external DTD), so a file that needs them is refused.

To fix: remove the `<!DOCTYPE ...>` declaration and write the text the entity stood for.

Failing:

    <!DOCTYPE Project [ <!ENTITY rate "500"> ]>

Passing: no DOCTYPE; write the value where it is used.
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import from_pipeline

CODE = "KZ003"
RULE = "xml.entities"
SEVERITY = Severity.ERROR


def check(context):
    return from_pipeline(context, RULE)   # found while loading
