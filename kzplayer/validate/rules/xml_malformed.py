"""The file is not well-formed XML.

A `.kzm` file must be well-formed XML: every element closed, attributes quoted, `&` written
as `&amp;` and `<` inside binding expressions as `&lt;` (or inside `<![CDATA[ ... ]]>`).
The position is where the XML parser gave up; the mistake is often just before it.
Nothing else in such a file can be checked.

To fix: look at the reported position and just before it: close the element, quote the
attribute, write `&` as `&amp;` and `<` as `&lt;`.

Failing:

    <Property name="Emission.Rate">500</Propery>

Passing:

    <Property name="Emission.Rate">500</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.project.source import malformed_hint
from kzplayer.validate.engine import from_pipeline

CODE = "KZ002"
RULE = "xml.malformed"
SEVERITY = Severity.ERROR


def check(context):
    return from_pipeline(context, RULE)   # found while loading


def hint(d) -> str | None:
    """What to do about the parser's complaint (the loader gives it already; this covers a
    diagnostic made elsewhere without one)."""
    return malformed_hint(d.message)
