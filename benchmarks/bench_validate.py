"""Validation: `kzplayer validate` on a generated project of 10,000 items with 2,000 bindings,
realistic effects: particle systems of a source emitter publishing events, a subemitter
wired to it with the two full BindingItems of the events page, shape emitters whose
MaximumAmount is bound to Rate x Lifetime, and affectors. The project is clean, so every rule
runs to the end; then the same project with one mistake of each gotcha per system.

    python benchmarks/bench_validate.py [--systems 500] [--repeat 3]

Prints the figures for docs/benchmarks.md ("Validation").
"""
from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import best_of  # noqa: E402  (this folder: the benchmarks run as scripts)
from kzplayer.project.loader import load_project  # noqa: E402
from kzplayer.validate import all_rules  # noqa: E402
from kzplayer.validate.context import Context  # noqa: E402
from kzplayer.validate.engine import validate_paths  # noqa: E402

ROOT = "Screens/Screen/Scene"

BUFFER_BINDING = """      <BindingItem name="{name}">
        <Property name="BindingItem.Target">Emission.Source{kind}</Property>
        <Property name="BindingItem.BindingMode">ONE_WAY</Property>
        <Property name="BindingItem.PushTarget">{push}</Property>
        <Property name="BindingItem.SourceExpression">{{@../Source/ParticleEmitter.{out}}}</Property>
        <Property name="BindingItem.RawCode">{{0}}</Property>
        <BindingSourceItem name="0">
          <Property name="BindingSourceItem.Item">{source}</Property>
          <Property name="BindingSourceItem.Source">ParticleEmitter.{out}</Property>
        </BindingSourceItem>
      </BindingItem>"""


def system(n: int, broken: bool) -> list[str]:
    """20 items and 4 bindings: a group of source + subemitter, two shape emitters, 14 affectors.
    Broken: gotcha 2 (PushTarget is the source) in even systems, gotcha 1 (consumer not
    declared) in odd ones, and a pool too small for its stream in every one."""
    base = f"{ROOT}/System {n}/Group"
    push = f"{base}/Source" if broken and n % 2 == 0 else f"{base}/Subemitter"
    out = [f'  <ParticleSystem name="System {n}">', '    <EmptyNode name="Group">',
           '    <ParticleEmitter name="Source">',
           '      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Sphere</Property>',
           '      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>',
           '      <Property name="ParticleEmitter.GenerateEventsMaterial">Event_Lifetime</Property>',
           '      <Property name="ParticleEmitter.ParticleMaterial">ParticlesColorOverLife</Property>',
           f'      <Property name="Emission.Rate">{50 + n % 50}</Property>',
           '      <Property name="Emission.Lifetime">2</Property>',
           '      <Binding target="ParticleEmitter.MaximumAmount">{./Emission.Rate} * {./Emission.Lifetime}</Binding>',
           '    </ParticleEmitter>', '    <ParticleEmitter name="Subemitter">',
           '      <Property name="ParticleEmitter.EmissionMaterial">Emitter_FromEvents</Property>',
           '      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_FromEvents</Property>',
           '      <Property name="ParticleEmitter.ParticleMaterial">ParticlesDefault</Property>',
           '      <Property name="Emission.ParticlesPerEvent">1</Property>',
           '      <Property name="Emission.SourceParticleDataBuffer"/>']
    if not (broken and n % 2):
        out.append('      <Property name="Emission.SourceEventBuffer"/>')
    for name, kind, o in (("Events", "EventBuffer", "EventBuffer"),
                          ("Particle data", "ParticleDataBuffer", "ParticleDataBuffer")):
        out.append(BUFFER_BINDING.format(name=name, kind=kind, out=o, push=push, source=f"{base}/Source"))
    out += ['    </ParticleEmitter>', '    </EmptyNode>']
    for k in range(2):
        out += [f'    <ParticleEmitter name="Spray {k}">',
                '      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>',
                '      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>',
                '      <Property name="ParticleEmitter.ParticleMaterial">ParticlesDefault</Property>',
                f'      <Property name="Emission.Rate">{100 + k}</Property>',
                '      <Property name="Emission.InitialVelocityOuterAngle">0.4</Property>',
                f'      <Property name="ParticleEmitter.MaximumAmount">{50 if broken and k else 500}</Property>']
        if k:
            out.append('      <Binding target="Emission.Lifetime">{../Spray 0/Emission.Lifetime} * 1.5</Binding>')
        out.append('    </ParticleEmitter>')
    for k in range(14):
        out += [f'    <ParticleAffector name="Affector {k}">',
                f'      <Property name="ParticleAffector.AffectorMaterial">{"Gravity" if k % 2 else "Drag"}</Property>',
                '    </ParticleAffector>']
    return out + ["  </ParticleSystem>"]


def generate(systems: int, broken: bool = False) -> str:
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<Project name="Bench" format="1">', "<Screens>",
           '<Screen name="Screen">', '<Scene name="Scene">']
    for n in range(systems):
        out += system(n, broken)
    out += ["</Scene>", "</Screen>", "</Screens>", "</Project>"]
    return "\n".join(out) + "\n"


def per_rule(path: str) -> list[tuple[float, str]]:
    """Seconds per rule on a loaded project (the shared facts computed first, timed apart)."""
    project, loaded = load_project(path)
    context = Context(project, loaded)
    gc.collect()        # else a full collection of the loaded tree lands in whichever rule runs
    t = time.perf_counter()
    context.pipeline_diagnostics          # parse + check every expression, resolve the graph
    shared = time.perf_counter() - t
    times = [(shared, "(expressions checked and bindings resolved)")]
    for module in (m for m in all_rules() if hasattr(m, "check")):
        t = time.perf_counter()
        list(module.check(context))
        times.append((time.perf_counter() - t, module.RULE))
    return sorted(times, reverse=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        clean, broken = Path(tmp, "clean.kzm"), Path(tmp, "broken.kzm")
        clean.write_text(generate(args.systems))
        broken.write_text(generate(args.systems, broken=True))
        project, _ = load_project(str(clean))
        items = sum(1 for _ in project.walk())
        bindings = sum(len(i.bindings) for i in project.walk())
        print(f"project: {items} items, {bindings} bindings, {clean.stat().st_size / 1e6:.1f} MB")
        t_load, _ = best_of(args.repeat, lambda: load_project(str(clean)))
        t_clean, result = best_of(args.repeat, lambda: validate_paths([str(clean)]))
        print(f"load only:                 {t_load:6.2f} s")
        print(f"validate, clean project:   {t_clean:6.2f} s  ({len(result.diagnostics)} problems)")
        t_broken, result = best_of(args.repeat, lambda: validate_paths([str(broken)]))
        counts = Counter(d.rule for d in result.diagnostics)
        print(f"validate, broken project:  {t_broken:6.2f} s  ({len(result.diagnostics)} problems: "
              + ", ".join(f"{n} {r}" for r, n in sorted(counts.items())) + ")")
        print("slowest parts (clean project):")
        for seconds, what in per_rule(str(clean))[:6]:
            print(f"  {seconds:6.3f} s  {what}")


if __name__ == "__main__":
    main()
