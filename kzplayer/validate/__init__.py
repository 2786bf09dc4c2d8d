"""`kzplayer validate`: check a project's files, paths, bindings and materials before
anything plays.

    from kzplayer.validate import validate_paths, validate_project
    result = validate_paths(["effect.kzm"])      # .files, .diagnostics (sorted), .unreadable
    diagnostics = validate_project(project)      # an already loaded Project

One rule per module under `kzplayer/validate/rules/`; each module's docstring is the rule's
documentation (docs/validate.md is generated from them: `python -m kzplayer.validate.docs > docs/validate.md`).
"""
from kzplayer.validate.engine import Problem, Result, all_rules, validate_paths, validate_project

__all__ = ["Problem", "Result", "all_rules", "validate_paths", "validate_project"]
