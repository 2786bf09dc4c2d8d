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
import re

from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import from_pipeline

CODE = "KZ002"
RULE = "xml.malformed"
SEVERITY = Severity.ERROR
# The XML parser's (libxml2's) words -> what to do, for the usual slips in a .kzm file.
_HINTS = [
    (r"Opening and ending tag mismatch: (\S+) line (\d+) and (\S+)",
     r"<\1> opened on line \2 is closed here by </\3>: correct the end tag, or close <\1> first"),
    (r"Premature end of data in tag (\S+) line (\d+)", r"<\1> opened on line \2 is never closed"),
    (r"Unescaped '<' not allowed in attributes? values",
     "an attribute value misses its closing quote (often on the line before)"),
    (r"StartTag: invalid element name|xmlParseStartTag: invalid element name",
     "write '<' in text as &lt; (a binding's {a} < {b} is {a} &lt; {b}), or use <![CDATA[ ... ]]>"),
    (r"xmlParseEntityRef: no name|EntityRef: expecting ';'",
     "write '&' in text as &amp; (a binding's && is &amp;&amp;)"),
]


def check(context):
    return from_pipeline(context, RULE)   # found while loading


def hint(d) -> str | None:
    """What to do about the parser's complaint (the engine asks for it: a file that is not
    XML has no project for check() to look at)."""
    for pattern, fix in _HINTS:
        m = re.search(pattern, d.message)
        if m:
            return m.expand(fix)
    return None
