"""A path on the command line that cannot be read (exit code 2).

The path does not exist, is not readable, or is a folder without a `NAME.proj.kzm` project
file. The other paths named are still checked; the exit code is 2.

To fix: check the spelling of the path; for a folder project, name the folder that holds
`NAME.proj.kzm` (or that file itself).

Failing:

    kzplayer validate efect.kzm

Passing:

    kzplayer validate effect.kzm
"""
from kzplayer.diagnostics import Severity

CODE = "KZ001"
RULE = "file.unreadable"
SEVERITY = Severity.ERROR

# No check(): found before loading; the engine reports it as found.
