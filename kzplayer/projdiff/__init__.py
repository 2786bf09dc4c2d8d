"""`kzplayer diff OLD NEW`: a semantic diff of two projects (docs/testing.md, "Reviewing").

    from kzplayer.projdiff import diff_projects, open_side
    old, new = open_side("HEAD~1:effect.kzm"), open_side("effect.kzm")
    changes = diff_projects(old, new)        # [Change], empty for a reformatted file

sides.py reads a side (a file, a folder, or REV:PATH through `git show`), compare.py
matches items and lists what changed, output.py writes text, JSON, GitHub and Markdown.
"""
from kzplayer.projdiff.compare import Change, diff_projects  # noqa: F401
from kzplayer.projdiff.sides import Side, open_side  # noqa: F401
