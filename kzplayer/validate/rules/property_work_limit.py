"""A value that asks for more work than kzplayer takes on: a step rate, a pool, an image
size or an emission rate past its work limit.

Some properties size the work of every frame: `ParticleSystem.Framerate` (simulation steps
per second), `ParticleEmitter.MaximumAmount` (the pool), a Viewport2D's `Node.Width` and
`Node.Height` (the image), `Emission.Rate` and the burst and per-event counts. Each has a
work limit in the catalog (docs/catalog.md, column "work limit"): `Framerate` 1,000 Hz,
`MaximumAmount` and the rates 10,000,000, the image 8,192 pixels a side. A value past it,
written or given by a binding, would make `kzplayer play` hang or run out of memory
(`Framerate = 1e9` is a billion steps a second), so play clamps it to the limit and says
so; `Item.set` and `--set` refuse it. This rule warns where the file gives the value.

To fix: use a value within the limit; a faster simulation rarely needs more than 240 Hz.

Failing:

    <Property name="ParticleSystem.Framerate">1e9</Property>

Passing:

    <Property name="ParticleSystem.Framerate">120</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.project.literals import format_literal
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ304"
RULE = "property.work-limit"
SEVERITY = Severity.WARNING


def check(context):
    limited = [spec for spec in context.catalog.properties.values() if spec.work_max is not None]
    for item in context.items:
        for spec in limited:
            if not context.catalog.carries(item.type, spec.name) and spec.name not in item.properties:
                continue
            value = context.value(item, spec.name)
            if not spec.beyond_work(value):
                continue
            writers = context.bindings_into(item, spec.name)
            prop = item.properties.get(spec.name)
            span = (writers[0][1].target_span if writers else value_span(prop) if prop else None) or item.span
            by = " (given by a binding)" if writers else ""
            yield Problem(span, f"{spec.name} = {format_literal(value, spec.type)}{by} is more work than kzplayer takes on (at most "
                                f"{spec.work_max:,.0f}); kzplayer play clamps it to {spec.work_max:,.0f}",
                          f"use a value of at most {spec.work_max:,.0f}")
