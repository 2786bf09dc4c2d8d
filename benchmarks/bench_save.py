"""Saving in place: the generated project of bench_load.py (10,000 items), one value changed
and saved, as one file and as a folder; then the edits that used to write anew or refuse:
a system renamed and a system moved in the folder layout (its file and its 8 children's
files move), a system moved and one duplicated in the single file.

    python benchmarks/bench_save.py [--items 10000] [--repeat 5] [--tree=CHECKOUT] [--values-only]

`--tree=CHECKOUT` imports kzplayer from another checkout, for before/after runs alternated
by the caller (A B A B). Prints the best CPU time of each (ms), or why it failed.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

TREE = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--tree=")),
            str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, TREE)

from _timing import best_cpu_of  # noqa: E402  (this folder: the benchmarks run as scripts)
from bench_load import generate  # noqa: E402

import kzplayer  # noqa: E402
from kzplayer.diagnostics import KzError  # noqa: E402


def clone(item, name):
    """tree_ops.clone where the checkout has it (the studio's duplicate)."""
    from kzplayer.studio.tree_ops import clone as studio_clone
    return studio_clone(item, name)


def report(label: str, repeat: int, prepare, edit) -> None:
    """Best CPU of `repeat` saves, each of a fresh `prepare()` edited by `edit`."""
    times = []
    for _ in range(repeat):
        p = prepare()
        edit(p)
        try:
            cpu, _, _ = best_cpu_of(1, p.save)
        except KzError as exc:
            print(f"{label:48} refused: {exc.diagnostics[0].message[:60]}")
            return
        times.append(cpu)
    print(f"{label:48} {min(times) * 1000:8.1f} ms (best CPU of {repeat})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tree")
    ap.add_argument("--values-only", action="store_true", help="only the one-value saves (for before/after)")
    args = ap.parse_args()
    assert kzplayer.__file__.startswith(TREE), kzplayer.__file__
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "bench.kzm"
        f.write_text(generate(args.items), encoding="utf-8")
        folder = Path(tmp) / "folder"
        kzplayer.load(f).save(folder)
        single, multi = kzplayer.load(f), kzplayer.load(folder)

        def one_value(p):
            em = p.items("ParticleEmitter")[0]
            em.set("Emission.Rate", em.get("Emission.Rate") + 1)
        for label, p in (("one value, file", single), ("one value, folder", multi)):
            times = [best_cpu_of(1, lambda: (one_value(p), p.save()))[0] for _ in range(args.repeat)]
            print(f"{label:48} {min(times) * 1000:8.1f} ms (best CPU of {args.repeat})")
        if args.values_only:
            return

        def rename(p):
            p.find("Screens/Screen/System 1").name = "System 1 renamed"

        def move(p):
            system = p.find("Screens/Screen/System 1")
            system.parent.children.remove(system)
            p.find("Screens/Screen/System 2").add_child(system)

        def duplicate(p):
            system = p.find("Screens/Screen/System 1")
            system.parent.add_child(clone(system, "System 1 copy"), 2)
        work = Path(tmp) / "work"

        def fresh_folder():
            import shutil
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(folder, work)
            return kzplayer.load(work)

        def fresh_file():
            work_file = Path(tmp) / "work.kzm"
            work_file.write_bytes(f.read_bytes())
            return kzplayer.load(work_file)
        report("folder: a system renamed (9 files move)", args.repeat, fresh_folder, rename)
        report("folder: a system moved into another", args.repeat, fresh_folder, move)
        report("file: a system moved into another", args.repeat, fresh_file, move)
        report("file: a system duplicated", args.repeat, fresh_file, duplicate)


if __name__ == "__main__":
    main()
