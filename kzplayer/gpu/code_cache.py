"""Generated program text kept for the next Simulation that shares these compiled programs
(a live save: kzplayer.gpu.transplant, `Simulation(..., programs=)`).

Generating a system's programs (laying out its variants, inlining its materials, filling the
stage skeletons) reads and scans every shader file it is made of, which takes longer than
anything else a save does. The text is a function of the system's ProgramSpec, the baked
constants and those files alone, so a system whose spec (as `repr` shows it: owners left
out) and bakes are the ones of a system generated before, and none of whose files changed
since (same size, modification time and inode), gets a copy of that layout and those
sources. The layout holds the spec's owners (the records it was read from): the copy has
them replaced by the new spec's, position by position.
"""
from __future__ import annotations

import copy
import os


def stamp(path) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _owners(spec) -> list:
    return [n.owner for n in (*spec.emitters, *spec.affectors, *spec.colliders)]


class CodeCache:
    def __init__(self):
        self._entries: dict[str, dict] = {}    # repr(spec) -> layout, owners, stamps, sources by bakes

    def layout(self, generator):
        """generator.layout(), or a copy of the one made for an equal spec from the same files."""
        key = repr(generator.spec)
        entry = self._entries.get(key)
        if entry is not None and entry["stamps"] is not None and self._fresh(entry):
            return self._copy(entry["layout"], entry["owners"], _owners(generator.spec))
        code = generator.layout()
        owners = _owners(generator.spec)
        self._entries[key] = {"layout": self._copy(code, owners, owners), "owners": owners,
                              "stamps": None, "sources": {}}
        return code

    def write(self, generator, code, bakes: dict) -> None:
        """generator.write(code, bakes), or the sources written for them before."""
        key, baked = repr(generator.spec), repr(sorted(bakes.items()))
        entry = self._entries.get(key)
        if entry is not None and entry["stamps"] is not None and baked in entry["sources"] and self._fresh(entry):
            sources, raw = entry["sources"][baked]
            code.sources.clear()
            code.sources.update(sources)
            code.raw_programs.clear()
            code.raw_programs.update(raw)
            return
        generator.write(code, bakes)
        if entry is None:
            return
        stamps = {p: stamp(p) for source in code.sources.values() for p in source.paths}
        if entry["stamps"] != stamps:          # files changed since: what was kept is stale
            entry["stamps"], entry["sources"] = stamps, {}
        entry["sources"][baked] = (dict(code.sources), set(code.raw_programs))

    def keep_only(self, specs) -> None:
        """Forget the layouts of specs that no running system has (and the records they hold)."""
        keys = {repr(s) for s in specs}
        for key in [k for k in self._entries if k not in keys]:
            del self._entries[key]

    @staticmethod
    def _fresh(entry) -> bool:
        return all(stamp(p) == s for p, s in entry["stamps"].items())

    @staticmethod
    def _copy(code, old: list, new: list):
        """A copy of a layout without its sources, `old` owners replaced by `new` ones."""
        kept = code.sources, code.raw_programs
        code.sources, code.raw_programs = {}, set()
        memo = {id(o): n for o, n in zip(old, new) if o is not None}
        by_id = dict(memo)
        try:
            out = copy.deepcopy(code, memo)
        finally:
            code.sources, code.raw_programs = kept
        out.space_bases = {id(by_id[k]) if k in by_id else k: v for k, v in out.space_bases.items()}
        return out
