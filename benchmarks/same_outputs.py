"""Behaviour kept while making things faster: dump what loading, resolving, `inspect --json
--defaults` and `validate --format json` give for many projects, from the checkout in the
current folder, then compare two dumps.

    git worktree add --detach /tmp/before c8eada8            # the commit to compare with
    (cd /tmp/before && python /path/to/benchmarks/same_outputs.py dump FILES.txt before.json)
    python benchmarks/same_outputs.py dump FILES.txt after.json
    python benchmarks/same_outputs.py compare before.json after.json

FILES.txt lists project paths, one a line (the same absolute paths for both dumps: the
diagnostics name their files). Exit 0 when the dumps are the same.
"""
from __future__ import annotations

import json
import os
import sys
import traceback


def dump(files_list: str, out: str) -> None:
    sys.path.insert(0, os.getcwd())          # the checkout in the current folder
    import kzplayer
    from kzplayer.bindings import resolve
    from kzplayer.commands.inspect import inspect_data
    from kzplayer.project.loader import load_project
    from kzplayer.validate.engine import validate_paths
    from kzplayer.validate.formats import diagnostic_json, render_json
    assert kzplayer.__file__.startswith(os.getcwd()), kzplayer.__file__
    result = {}
    for f in (line.strip() for line in open(files_list) if line.strip()):
        rec = {}
        try:
            project, diags = load_project(f)
            rec["load"] = [diagnostic_json(d) for d in diags]
            if project is not None:
                graph = resolve(project)
                rec["graph"] = [diagnostic_json(d) for d in graph.diagnostics]
                rec["inspect"] = inspect_data(project, graph, True)
            rec["validate"] = json.loads(render_json(validate_paths([f])))
        except Exception:          # a crash is an outcome to compare too
            rec["error"] = traceback.format_exc().splitlines()[-1]
        result[f] = rec
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1, sort_keys=True, default=str)
    print(f"{len(result)} projects -> {out}")


def compare(a_path: str, b_path: str) -> int:
    a, b = (json.load(open(p, encoding="utf-8")) for p in (a_path, b_path))
    differ = sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f))
    for f in differ:
        keys = sorted(k for k in set(a.get(f, {})) | set(b.get(f, {})) if a.get(f, {}).get(k) != b.get(f, {}).get(k))
        print(f"differs: {f} ({', '.join(keys)})")
    print(f"{len(a)} and {len(b)} projects, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
