"""Loading: a generated project of 10,000 items (particle systems of emitters with
properties and bindings, and affectors), read by `kzplayer.load` and by bare
`lxml.etree.parse` of the same file, the two interleaved (A B A B ...); then the same
project in the folder layout.

    python benchmarks/bench_load.py [--items 10000] [--repeat 5] [--tree=CHECKOUT]

`--tree=CHECKOUT` imports kzplayer from another checkout (a `git worktree` of an older
commit), for before/after runs alternated by the caller. Prints the figures for
docs/benchmarks.md ("Loading"): min / median / max CPU time (what other processes' load
disturbs least) and wall time, and the ratio load / lxml.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

# the checkout whose kzplayer is measured: this one, or --tree=PATH (read before the imports)
TREE = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--tree=")),
            str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, TREE)

from _timing import best_cpu_of, interleaved  # noqa: E402  (this folder: the benchmarks run as scripts)
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


def spread(times: list[float]) -> str:
    """min / median / max in ms."""
    return " / ".join(f"{t * 1000:.1f}" for t in (min(times), statistics.median(times), max(times)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tree", help="import kzplayer from this checkout (given as --tree=PATH)")
    args = ap.parse_args()
    assert kzplayer.__file__.startswith(TREE), kzplayer.__file__
    print(f"kzplayer from {Path(kzplayer.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "bench.kzm"
        f.write_text(generate(args.items), encoding="utf-8")
        project = kzplayer.load(f)
        n_items = sum(1 for _ in project.walk())
        n_props = sum(len(i.properties) for i in project.walk())
        n_bind = len(project.bindings())
        size = f.stat().st_size
        del project
        print(f"project: {n_items} items, {n_props} properties, {n_bind} bindings, {size / 1e6:.2f} MB")
        runs = interleaved({"lxml": lambda: etree.parse(str(f)), "load": lambda: kzplayer.load(f)},
                           args.repeat)
        (w_lxml, c_lxml), (w_load, c_load) = runs["lxml"], runs["load"]
        print(f"interleaved, {args.repeat} runs each: min / median / max, ms")
        print(f"lxml.etree.parse        CPU {spread(c_lxml)}   wall {spread(w_lxml)}")
        print(f"kzplayer.load (file)    CPU {spread(c_load)}   wall {spread(w_load)}")
        print(f"  ratio load / lxml: {statistics.median(c_load) / statistics.median(c_lxml):.1f}x by median CPU, "
              f"{min(c_load) / min(c_lxml):.1f}x by min CPU ({min(c_load) / n_items * 1e6:.0f} us per item)")
        try:
            from kzplayer.project.schema import validate_tree
            tree = etree.parse(str(f))
            t_schema, _, _ = best_cpu_of(args.repeat, lambda: validate_tree(tree, str(f)))
            print(f"  the RELAX NG schema check alone    {t_schema * 1000:8.1f} ms (best CPU; "
                  "a clean load runs it no more since the walk's check, schema_fit.py)")
        except ImportError:
            pass
        folder = Path(tmp) / "folder"
        write_folder(kzplayer.load(f), str(folder))
        files = sum(1 for _ in folder.rglob("*.kzm"))
        runs = interleaved({"lxml": lambda: [etree.parse(str(p)) for p in folder.rglob("*.kzm")],
                            "load": lambda: kzplayer.load(folder)}, max(2, args.repeat // 2))
        (_, c_flxml), (_, c_folder) = runs["lxml"], runs["load"]
        print(f"lxml.etree.parse x{files} files  CPU {spread(c_flxml)}")
        print(f"kzplayer.load (folder)  CPU {spread(c_folder)}   ratio {statistics.median(c_folder) / statistics.median(c_flxml):.1f}x by median")
        pf = kzplayer.load(folder)
        em = pf.items("ParticleEmitter")[0]
        t_fsave, _, _ = best_cpu_of(args.repeat, lambda: (em.set("Emission.Rate", em.get("Emission.Rate") + 1), pf.save()))
        print(f"project.save (folder, one value changed)   {t_fsave * 1000:8.1f} ms (best CPU)")
        t_read, _, _ = best_cpu_of(args.repeat, lambda: [(i.properties, i.bindings) for i in kzplayer.load(f).walk()])
        print(f"kzplayer.load (file) + reading every item's properties and bindings  {t_read * 1000:8.1f} ms (best CPU)")
        p2 = kzplayer.load(f)
        p2.items("ParticleEmitter")[0].set("Emission.Rate", 1)
        t_save, _, _ = best_cpu_of(args.repeat, lambda: (p2.items("ParticleEmitter")[0].set("Emission.Rate", 2), p2.save()))
        print(f"project.save (file, one value changed)     {t_save * 1000:8.1f} ms (best CPU)")


if __name__ == "__main__":
    main()
