"""What hostile input costs (docs/hardening.md): validating a binding of N terms full of
character references (`max(&#49;, &#49;, ...)`), the case whose position lookup was
quadratic (8,000 terms 8 s, 16,000 terms 46 s before), and a binding nested to the limits.
Sizes are interleaved (A B C A B C ...) so the machine's load hits them alike; the ratio of
16,000 to 8,000 terms shows the growth (2 is linear, 4 quadratic).

    python benchmarks/bench_hostile.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def project(folder: Path, name: str, expression: str) -> Path:
    text = (REPO / "sample_projects" / "demo_fountain.kzm").read_text(encoding="utf-8")
    text = text.replace("{./Emission.Rate} * ({./Emission.Lifetime} + {./Emission.LifetimeVariance})", expression)
    path = folder / f"{name}.kzm"
    path.write_text(text, encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from kzplayer.validate import validate_paths
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = {f"{n:,} entity terms": project(folder, f"t{n}", "max(" + ", ".join(["&#49;"] * n) + ")")
                 for n in (4000, 8000, 16000)}
        cases["2,000-term sum (the depth limit)"] = project(folder, "sum", " + ".join(["1"] * 2000))
        cases["200 nested brackets (the nesting limit)"] = project(folder, "nest", "(" * 200 + "1" + ")" * 200)
        times = {name: [] for name in cases}
        cpu = {name: [] for name in cases}
        for _ in range(args.repeat):
            for name, path in cases.items():
                w, c = time.perf_counter(), time.process_time()
                validate_paths([str(path)])
                times[name].append(time.perf_counter() - w)
                cpu[name].append(time.process_time() - c)
    print(f"validate, {args.repeat} interleaved runs each: wall min / median / max, CPU min (seconds)")
    for name in cases:
        t = times[name]
        print(f"  {name:<42} {min(t):6.3f} / {statistics.median(t):6.3f} / {max(t):6.3f}   CPU {min(cpu[name]):6.3f}")
    ratio = min(cpu["16,000 entity terms"]) / min(cpu["8,000 entity terms"])
    print(f"16,000 / 8,000 entity terms, CPU: {ratio:.2f} (2 is linear, 4 quadratic)")


if __name__ == "__main__":
    main()
