"""A folder project whose item file is missing.

In the folder layout each item lives in its own `.kzm` file; a parent's `<Child>` entry
names it. A deleted or renamed file loses the item and its subtree (paths into it are then
not checked, see the decisions above).

To fix: restore the item file, or remove the `<Child>` entry that names it.

Failing: `On Hit.kzm` lists `<Child name="Source"/>` but `On Hit/Source.kzm` is gone.

Passing: the file is restored, or the `<Child>` line removed.
"""
from kzplayer.diagnostics import Severity

CODE = "KZ009"
RULE = "file.missing"
SEVERITY = Severity.ERROR

# No check(): found while loading; the engine reports it as found.
