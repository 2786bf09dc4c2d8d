"""One module per rule, named after the rule's slug. Each holds `CODE` (stable, grouped by
range), `RULE` (the slug of cli.md), `SEVERITY`, `check(context)` yielding Problems, and a
docstring that is the rule's documentation with a failing and a passing example.
What the loader, the expression checker or the binding graph found under a rule's slug is
shown as found, unless the module sets `OWNS_PIPELINE = True` and reports it itself
(`from_pipeline`), merged or reworded. A rule that only another stage finds (a syntax
error, a cycle) has no `check`: its module is its documentation and its code. A module may also define `hint(diagnostic)`, which
gives such a report its fix where it came without one (even when no project could be read).

Ranges: KZ0xx structure, XML and schema; KZ1xx paths and bindings; KZ2xx expressions;
KZ3xx properties; KZ4xx materials; KZ5xx emitters, events and subemitters; KZ6xx shaders;
KZ7xx the scene and its assets (meshes, textures, lights); KZ9xx the machine (GPU budgets
that play checks too, under play's code).
"""
