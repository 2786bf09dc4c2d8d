"""Binding graph: resolve a generated project with 10,000 bindings, then re-evaluate after one
change. Chains (each binding reads the one before) and fans (many bindings read one hub).

    python benchmarks/bench_bindings.py [--chains 100 --length 50 --hubs 50 --fan 100]

Prints the figures for docs/benchmarks.md ("Bindings").
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kzplayer  # noqa: E402
from _timing import best_of  # noqa: E402  (this folder: the benchmarks run as scripts)
from kzplayer.bindings import resolve  # noqa: E402
from kzplayer.bindings.graph import BindingGraph  # noqa: E402


def generate(chains: int, length: int, hubs: int, fan: int) -> str:
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<Project name="Bench" format="1">',
           "<Screens>", '<Screen name="Screen">', '<ParticleSystem name="System">']
    for c in range(chains):
        out.append(f'<EmptyNode name="Chain {c}">')
        out.append(f'<ParticleEmitter name="E0"><Property name="Emission.Rate">{c}</Property>'
                   '<Binding target="Emission.Lifetime">{./Emission.Rate} * 0.5 + 1</Binding></ParticleEmitter>')
        for k in range(1, length):
            out.append(f'<ParticleEmitter name="E{k}"><Binding target="Emission.Lifetime">'
                       f'{{../E{k - 1}/Emission.Lifetime}} + 1</Binding></ParticleEmitter>')
        out.append("</EmptyNode>")
    for h in range(hubs):
        out.append(f'<EmptyNode name="Fan {h}"><ParticleEmitter name="Hub">'
                   f'<Property name="Emission.Rate">{h + 1}</Property></ParticleEmitter>')
        for k in range(fan):
            out.append(f'<ParticleEmitter name="F{k}"><Binding target="ParticleEmitter.MaximumAmount">'
                       f'clamp(0, 100000, {{../Hub/Emission.Rate}} * {k + 1})</Binding></ParticleEmitter>')
        out.append("</EmptyNode>")
    out += ["</ParticleSystem>", "</Screen>", "</Screens>", "<Materials/>", "<PropertyTypes/>", "</Project>"]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chains", type=int, default=100)
    ap.add_argument("--length", type=int, default=50)
    ap.add_argument("--hubs", type=int, default=50)
    ap.add_argument("--fan", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "bench.kzm"
        f.write_text(generate(a.chains, a.length, a.hubs, a.fan), encoding="utf-8")
        t_load, project = best_of(1, lambda: kzplayer.load(f))
    n = sum(len(i.bindings) for i in project.walk())
    t_build, _ = best_of(a.repeat, lambda: BindingGraph(project))       # compile + order
    t_resolve, graph = best_of(a.repeat, lambda: resolve(project))        # compile + order + evaluate
    assert not graph.diagnostics, graph.diagnostics[:3]
    evaluated = graph.evaluations        # counted by the graph, before anything else runs on it
    print(f"project: {n} bindings ({a.chains} chains of {a.length}, {a.hubs} fans of {a.fan}), "
          f"load {t_load * 1e3:.0f} ms")
    t_eval, _ = best_of(a.repeat, graph.evaluate_all)
    print(f"resolve (parse, resolve paths, type-check, order, evaluate all): {t_resolve * 1e3:.0f} ms "
          f"({t_resolve / n * 1e6:.1f} us per binding)")
    print(f"  compile + order alone: {t_build * 1e3:.0f} ms; evaluating all {n} again: {t_eval * 1e3:.0f} ms")
    print(f"evaluations in one resolve: {evaluated}")

    def change(path, name):
        """One set_value (a new value each time) -> the bindings it evaluated."""
        item, values = project.find(path), iter(range(1000, 1000 + a.repeat))

        def one():
            before = graph.evaluations
            graph.set_value(item, name, next(values))
            return graph.evaluations - before
        return one

    for label, path, name in [
        ("head of a chain", "Screens/Screen/System/Chain 0/E0", "Emission.Rate"),
        ("middle of a chain", f"Screens/Screen/System/Chain 1/E{a.length // 2}", "Emission.Lifetime"),
        ("hub of a fan", "Screens/Screen/System/Fan 0/Hub", "Emission.Rate"),
        ("unbound leaf", f"Screens/Screen/System/Fan 1/F{a.fan - 1}", "Emission.Seed"),
    ]:
        t, evaluated = best_of(a.repeat, change(path, name))
        print(f"set_value on the {label}: {t * 1e3:.2f} ms, {evaluated} bindings evaluated")


if __name__ == "__main__":
    main()
