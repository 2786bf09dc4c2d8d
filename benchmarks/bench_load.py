"""Loading: a generated project of 10,000 items (particle systems of emitters with
properties and bindings, and affectors), read by `kzplayer.load` and by bare
`lxml.etree.parse` of the same file; then the same project in the folder layout.

    python benchmarks/bench_load.py [--items 10000] [--repeat 3]

Prints the figures for docs/benchmarks.md ("Loading").
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import best_cpu_of  # noqa: E402  (this folder: the benchmarks run as scripts)
from lxml import etree  # noqa: E402

import kzplayer  # noqa: E402
from kzplayer.project.writer import write_folder  # noqa: E402

EMITTER = """        <ParticleEmitter name="Emitter {i}">
          <Property name="ParticleEmitter.EmissionMaterial">Emitter_Sphere</Property>
          <Property name="Emission.Rate">{rate}</Property>
          <Property name="Emission.Lifetime">{life}</Property>
          <Property name="Emission.InitialVelocityDirection">(0, 1, 0.{i})</Property>
          <Property name="Emission.Radius">0.5</Property>
          <Binding target="ParticleEmitter.MaximumAmount">{{./Emission.Rate}} * {{./Emission.Lifetime}}</Binding>
        </ParticleEmitter>
        <ParticleAffector name="Gravity {i}">
          <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>
        </ParticleAffector>"""


def generate(items: int) -> str:
    """A project of about `items` items: per system 1 system + 4 emitters + 4 affectors."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<Project name="Bench" format="1">',
           "  <Screens>", '    <Screen name="Screen">']
    systems = max(1, (items - 3) // 9)
    for s in range(systems):
        out.append(f'      <ParticleSystem name="System {s}">')
        out += [EMITTER.format(i=i, rate=100 + s, life=1 + i / 4) for i in range(4)]
        out.append("      </ParticleSystem>")
    out += ["    </Screen>", "  </Screens>", "</Project>", ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "bench.kzm"
        f.write_text(generate(args.items), encoding="utf-8")
        project = kzplayer.load(f)
        n_items = sum(1 for _ in project.walk())
        n_props = sum(len(i.properties) for i in project.walk())
        n_bind = len(project.bindings())
        size = f.stat().st_size
        t_lxml, w_lxml, _ = best_cpu_of(args.repeat, lambda: etree.parse(str(f)))
        t_load, w_load, _ = best_cpu_of(args.repeat, lambda: kzplayer.load(f))
        print(f"project: {n_items} items, {n_props} properties, {n_bind} bindings, {size / 1e6:.2f} MB")
        print("CPU time, best of", args.repeat, "(wall time in brackets)")
        print(f"lxml.etree.parse        {t_lxml * 1000:8.1f} ms  ({w_lxml * 1000:.0f} ms)")
        print(f"kzplayer.load (file)    {t_load * 1000:8.1f} ms  ({w_load * 1000:.0f} ms)   ratio {t_load / t_lxml:.1f}x "
              f"({t_load / n_items * 1e6:.0f} us per item)")
        try:
            from kzplayer.project.schema import validate_tree
            tree = etree.parse(str(f))
            t_schema, _, _ = best_cpu_of(args.repeat, lambda: validate_tree(tree, str(f)))
            print(f"  of which the RELAX NG schema check {t_schema * 1000:8.1f} ms")
        except ImportError:
            pass
        folder = Path(tmp) / "folder"
        write_folder(project, str(folder))
        files = sum(1 for _ in folder.rglob("*.kzm"))
        t_folder, _, _ = best_cpu_of(args.repeat, lambda: kzplayer.load(folder))
        t_folder_lxml, _, _ = best_cpu_of(args.repeat, lambda: [etree.parse(str(p)) for p in folder.rglob("*.kzm")])
        print(f"lxml.etree.parse x{files} files {t_folder_lxml * 1000:8.1f} ms")
        print(f"kzplayer.load (folder)  {t_folder * 1000:8.1f} ms   ratio {t_folder / t_folder_lxml:.1f}x")
        pf = kzplayer.load(folder)
        em = pf.items("ParticleEmitter")[0]
        t_fsave, _, _ = best_cpu_of(args.repeat, lambda: (em.set("Emission.Rate", em.get("Emission.Rate") + 1), pf.save()))
        print(f"project.save (folder, one value changed)   {t_fsave * 1000:8.1f} ms")
        p2 = kzplayer.load(f)
        p2.items("ParticleEmitter")[0].set("Emission.Rate", 1)
        t_save, _, _ = best_cpu_of(args.repeat, lambda: (p2.items("ParticleEmitter")[0].set("Emission.Rate", 2), p2.save()))
        print(f"project.save (file, one value changed)     {t_save * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
