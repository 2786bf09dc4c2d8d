"""A word an earlier kzplayer catalog used, read as its replacement (a warning).

`ParticleEmitter.SortingType` took `None`, `BackToFront` and `FrontToBack` before it took
Kanzi Particles 3.0's words (`Identity`, the default; `Depth`, back to front; `ReverseDepth`,
front to back; `Unsorted`). kzplayer still reads the old words as the new ones; a file that
Kanzi loads needs Kanzi's.

To fix: write the word the message names.

Failing:

    <Property name="ParticleEmitter.SortingType">BackToFront</Property>

Passing:

    <Property name="ParticleEmitter.SortingType">Depth</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import alias_problems

CODE = "KZ312"
RULE = "property.deprecated"
SEVERITY = Severity.WARNING


def check(context):
    def say(a):
        where = f"{a.property} " if a.property else ""
        return (f"{where}'{a.name}' is an earlier kzplayer word: kzplayer reads it as '{a.of}'",
                f"write {a.of}")
    yield from alias_problems(context, "earlier", say)
