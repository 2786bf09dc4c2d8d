"""Binding graph: resolve a generated project with 10,000 bindings, then re-evaluate after one
change. Chains (each binding reads the one before) and fans (many bindings read one hub).

    python benchmarks/bench_bindings.py [--chains 100 --length 50 --hubs 50 --fan 100]
                                        [--repeat 5] [--tree=CHECKOUT]

`--tree=CHECKOUT` imports kzplayer from another checkout, for before/after runs alternated
by the caller. `resolve` and the graph build alone (compile + order) are interleaved;
min / median / max of CPU and wall time; then the first resolve of fresh loads. Prints the figures for docs/benchmarks.md
("Bindings").
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
from pathlib import Path

# the checkout whose kzplayer is measured: this one, or --tree=PATH (read before the imports)
TREE = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--tree=")),
            str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, TREE)

import kzplayer  # noqa: E402
from _timing import best_of, interleaved, timed  # noqa: E402  (this folder: the benchmarks run as scripts)
from kzplayer.bindings import resolve  # noqa: E402
from kzplayer.bindings.graph import BindingGraph  # noqa: E402


def spread(times: list[float]) -> str:
    """min / median / max in ms."""
    return " / ".join(f"{t * 1000:.0f}" for t in (min(times), statistics.median(times), max(times)))


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


def first_resolves(f: Path, repeat: int) -> list[float]:
    """CPU seconds of the first resolve of each of `repeat` fresh loads of `f` (after one
    resolve that parsed the texts: the parse cache lives as long as the process)."""
    resolve(kzplayer.load(f))
    out = []
    for _ in range(repeat):
        gc.collect()                     # the last project's garbage is not this one's cost
        project = kzplayer.load(f)
        out.append(timed(lambda: resolve(project))[1])
        del project
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chains", type=int, default=100)
    ap.add_argument("--length", type=int, default=50)
    ap.add_argument("--hubs", type=int, default=50)
    ap.add_argument("--fan", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tree", help="import kzplayer from this checkout (given as --tree=PATH)")
    a = ap.parse_args()
    assert kzplayer.__file__.startswith(TREE), kzplayer.__file__
    print(f"kzplayer from {Path(kzplayer.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "bench.kzm"
        f.write_text(generate(a.chains, a.length, a.hubs, a.fan), encoding="utf-8")
        t_load, project = best_of(1, lambda: kzplayer.load(f))
        first = first_resolves(f, a.repeat)
    n = sum(len(i.bindings) for i in project.walk())
    graph = resolve(project)
    assert not graph.diagnostics, graph.diagnostics[:3]
    evaluated = graph.evaluations        # counted by the graph, before anything else runs on it
    print(f"project: {n} bindings ({a.chains} chains of {a.length}, {a.hubs} fans of {a.fan}), "
          f"load {t_load * 1e3:.0f} ms")
    runs = interleaved({"resolve": lambda: resolve(project), "build": lambda: BindingGraph(project)}, a.repeat)
    (w_res, c_res), (w_build, c_build) = runs["resolve"], runs["build"]
    t_eval, _ = best_of(a.repeat, graph.evaluate_all)
    print(f"interleaved, {a.repeat} runs each: min / median / max, ms")
    print(f"resolve (parse, resolve paths, type-check, order, evaluate all): CPU {spread(c_res)}, "
          f"wall {spread(w_res)} ({statistics.median(c_res) / n * 1e6:.1f} us per binding by median CPU)")
    print(f"  compile + order alone: CPU {spread(c_build)}; evaluating all {n} again: {t_eval * 1e3:.0f} ms (best)")
    print(f"evaluations in one resolve: {evaluated}")
    order_steps = getattr(graph, "order_steps", None)
    if order_steps is not None:
        print(f"dependency edges the ordering followed: {order_steps}")

    print(f"a fresh load, then its first resolve (every item's contents built on that first read; "
          f"the texts parsed already), {a.repeat} loads: CPU {spread(first)}")

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
