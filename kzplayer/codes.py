"""The one table of diagnostic codes: rule slug -> stable code.

Every stage (loader, expressions, bindings, validator, player) names a rule; the code comes
from here, so `kzplayer play`, `inspect` and `validate` show the same code for the same
problem. Ranges: KZ0xx files and structure, KZ1xx paths and bindings, KZ2xx expressions,
KZ3xx properties, KZ4xx materials, KZ5xx emitters, events and subemitters, KZ6xx shaders,
KZ9xx the command line and the machine. Codes are never reused for another rule.
"""
from __future__ import annotations

CODES: dict[str, str] = {
    "internal.error": "KZ000",
    # files and structure
    "file.unreadable": "KZ001",
    "xml.malformed": "KZ002",
    "xml.entities": "KZ003",
    "schema.invalid": "KZ004",
    "item.unknown-type": "KZ005",
    "item.duplicate-name": "KZ006",
    "item.name": "KZ007",
    "path.outside-project": "KZ008",
    "file.missing": "KZ009",
    "file.orphan": "KZ010",
    "file.unwritable": "KZ012",
    # paths and bindings
    "path.unresolved": "KZ101",
    "path.stale": "KZ102",
    "binding.target-undeclared": "KZ103",
    "binding.push-target": "KZ104",
    "binding.cycle": "KZ105",
    "binding.type-mismatch": "KZ106",
    "binding.source-mismatch": "KZ107",
    "binding.mode": "KZ108",
    "binding.data-context": "KZ109",
    "binding.output-target": "KZ110",
    "binding.source-default": "KZ111",
    # expressions
    "expr.syntax": "KZ201",
    "expr.unknown-function": "KZ202",
    "expr.arguments": "KZ203",
    "expr.type": "KZ204",
    "expr.field": "KZ205",
    "expr.unassigned": "KZ206",
    "expr.self-reference": "KZ207",
    "expr.not-evaluable": "KZ208",
    "expr.division-by-zero": "KZ209",
    "expr.value": "KZ210",
    "expr.reference": "KZ211",
    "expr.limit": "KZ212",
    # properties
    "property.unknown": "KZ301",
    "property.type": "KZ302",
    "property.range": "KZ303",
    "property.work-limit": "KZ304",
    "property.alias": "KZ311",
    "property.deprecated": "KZ312",
    # materials
    "material.unknown": "KZ401",
    "material.slot": "KZ402",
    "material.deprecated": "KZ403",
    "material.not-in-kanzi": "KZ404",
    "material.unsupported": "KZ405",
    "material.kzplayer-only": "KZ406",
    "material.stock-name": "KZ407",
    "material.lightning-target": "KZ408",
    # emitters, events, subemitters
    "subemitter.not-event-driven": "KZ501",
    "subemitter.unbound": "KZ502",
    "subemitter.no-particle-material": "KZ503",
    "emitter.maximum-amount": "KZ504",
    "events.cycle": "KZ505",
    "events.no-generator": "KZ506",
    "subemitter.mixed-sources": "KZ507",
    "subemitter.other-system": "KZ508",
    "emitter.outside-system": "KZ509",
    # shaders
    "shader.compile": "KZ601",
    # the scene and its assets
    "mesh.unreadable": "KZ701",
    "texture.unreadable": "KZ702",
    "light.limit": "KZ703",
    "mesh.collider-budget": "KZ704",
    "mesh.filter-empty": "KZ705",
    "mesh.particle-budget": "KZ706",
    "property.singular-transform": "KZ313",
    # command line and machine
    "gpu.context": "KZ901",
    "play.window": "KZ902",
    "cli.override": "KZ903",
    "cli.option": "KZ904",
    "cli.destination": "KZ905",
    "play.frame-budget": "KZ906",
    "play.steps-dropped": "KZ907",
    "cli.test-spec": "KZ908",         # kzplayer test: a spec that cannot be read or run
    "play.test-check": "KZ909",       # kzplayer test: a check of a spec failed
    "play.watch": "KZ910",            # play --watch: a save that could not be read at all
    "play.msaa-limit": "KZ911",       # --msaa past what the driver takes: drawn with its most
    "play.checkpoint": "KZ912",      # a simulation checkpoint that cannot be restored here
    "play.buffer-budget": "KZ913",    # the project's particle buffers past the GPU buffer budget
}


def code_for(rule: str, fallback: str | None = None) -> str:
    """The code of a rule; `fallback` (or KZ999) for a rule not in the table."""
    return CODES.get(rule, fallback or "KZ999")
