"""A folder project saved in place after a rename, a move to another parent or a duplicate:
the files and folders on disk as expected (every other byte kept), the project reads back
as the model; names that are on disk already or differ only in case are refused with
nothing changed; a save that fails at any os.replace leaves the old project byte for byte,
and every state on disk between the steps of a save loads as the old project, as the new
one, or not at all (never as a third project)."""
import os
import shutil
from pathlib import Path

import pytest

import kzplayer
from kzplayer.diagnostics import KzError
from kzplayer.project.convert import canonical
from kzplayer.studio.tree_ops import clone

SCENE = "Screens/Screen/RootNode/Viewport 2D/Scene"
SYSTEM = SCENE + "/Particle System"


@pytest.fixture
def folder(tmp_path, data):
    shutil.copytree(data / "fountain_folder", tmp_path / "fountain")
    return tmp_path / "fountain"


def files(folder: Path) -> dict[str, bytes]:
    return {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*")) if f.is_file()}


def folders(folder: Path) -> set[str]:
    return {str(f.relative_to(folder)) for f in folder.rglob("*") if f.is_dir()}


def rename_system(p):
    p.find(SYSTEM).name = "Fx"


def rename_and_set_a_value_elsewhere(p):
    rename_system(p)
    p.find("Materials/Swirl").attributes["shader"] = "shaders/swirl2.glsl"


def move_system(p):
    system = p.find(SYSTEM)
    system.parent.children.remove(system)
    p.find("Screens/Screen/RootNode").add_child(system, 0)


def test_a_rename_moves_the_file_and_folder_and_edits_two_names(folder):
    before = files(folder)
    p = kzplayer.load(folder)
    rename_system(p)
    written = p.save()
    after = files(folder)
    expected = {k: v for k, v in before.items() if not k.startswith(SYSTEM)}
    expected[SCENE + ".kzm"] = before[SCENE + ".kzm"].replace(b'<Child name="Particle System"/>', b'<Child name="Fx"/>')
    expected[SCENE + "/Fx.kzm"] = before[SYSTEM + ".kzm"].replace(b'<ParticleSystem name="Particle System">',
                                                                   b'<ParticleSystem name="Fx">')
    for child in ("Nozzle", "Gravity", "Swirl"):
        expected[f"{SCENE}/Fx/{child}.kzm"] = before[f"{SYSTEM}/{child}.kzm"]
    assert after == expected
    assert SYSTEM not in folders(folder)
    assert sorted(written) == sorted(str(folder / k) for k in expected if before.get(k) != expected[k])
    q = kzplayer.load(folder)
    assert canonical(q) == canonical(p) and [d for d in q.diagnostics if d.rule == "file.orphan"] == []
    p.find(SCENE + "/Fx/Nozzle").set("Emission.Rate", 900)       # the model points at the new files
    assert p.save() == [str(folder / SCENE / "Fx" / "Nozzle.kzm")]


def test_a_move_to_another_parent_moves_its_line_and_files(folder):
    before = files(folder)
    p = kzplayer.load(folder)
    move_system(p)
    p.save()
    root = "Screens/Screen/RootNode"
    expected = {k: v for k, v in before.items() if not k.startswith(SYSTEM)}
    expected[SCENE + ".kzm"] = before[SCENE + ".kzm"].replace(b'  <Child name="Particle System"/>\n', b"")
    expected[root + ".kzm"] = before[root + ".kzm"].replace(
        b'  <Child name="Viewport 2D"/>', b'  <Child name="Particle System"/>\n  <Child name="Viewport 2D"/>')
    expected[root + "/Particle System.kzm"] = before[SYSTEM + ".kzm"]
    for child in ("Nozzle", "Gravity", "Swirl"):
        expected[f"{root}/Particle System/{child}.kzm"] = before[f"{SYSTEM}/{child}.kzm"]
    assert files(folder) == expected and SYSTEM not in folders(folder)
    assert canonical(kzplayer.load(folder)) == canonical(p)


def test_a_duplicate_copies_the_files_with_the_new_name(folder):
    before = files(folder)
    p = kzplayer.load(folder)
    system = p.find(SYSTEM)
    copy = system.parent.add_child(clone(system, "Particle System copy"), system.parent.children.index(system) + 1)
    copy.find("Gravity").name = "Down"
    p.save()
    copied = SYSTEM + " copy"
    expected = dict(before)
    expected[SCENE + ".kzm"] = before[SCENE + ".kzm"].replace(
        b'  <Child name="Particle System"/>\n', b'  <Child name="Particle System"/>\n  <Child name="Particle System copy"/>\n')
    expected[copied + ".kzm"] = before[SYSTEM + ".kzm"].replace(
        b'name="Particle System">', b'name="Particle System copy">').replace(b'<Child name="Gravity"/>',
                                                                          b'<Child name="Down"/>')
    expected[copied + "/Nozzle.kzm"] = before[SYSTEM + "/Nozzle.kzm"]
    expected[copied + "/Swirl.kzm"] = before[SYSTEM + "/Swirl.kzm"]
    expected[copied + "/Down.kzm"] = before[SYSTEM + "/Gravity.kzm"].replace(b'name="Gravity"', b'name="Down"')
    assert files(folder) == expected
    assert canonical(kzplayer.load(folder)) == canonical(p)


@pytest.mark.parametrize("name, why", [("swirl", "differ only in case"), ("gravity", "differ only in case"),
                                       ("Swirl", "two items of the project would be written to")])
def test_a_name_that_collides_on_disk_is_refused_and_nothing_changes(folder, name, why):
    before = files(folder)
    p = kzplayer.load(folder)
    p.find(SYSTEM + "/Gravity").name = name
    with pytest.raises(KzError) as info:
        p.save()
    d = info.value.diagnostics[0]
    assert (d.rule, info.value.exit_code) == ("file.unwritable", 2)
    assert why in d.message and "nothing was written" in d.message
    assert files(folder) == before


def _replace_calls(folder, edit) -> int:
    """How many os.replace calls a save of `edit` makes (on a copy)."""
    calls = []
    real = os.replace
    work = folder.parent / "count"
    shutil.copytree(folder, work)
    p = kzplayer.load(work)
    edit(p)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "replace", lambda a, b: (calls.append(b), real(a, b))[1])
        p.save()
    shutil.rmtree(work)
    return len(calls)


@pytest.mark.parametrize("edit", [rename_system, move_system, rename_and_set_a_value_elsewhere])
def test_a_save_that_fails_at_any_rename_leaves_the_old_project_byte_for_byte(folder, edit, monkeypatch):
    before, old_dirs = files(folder), folders(folder)
    steps = _replace_calls(folder, edit)
    assert steps >= 3
    real = os.replace
    for failing in range(steps):
        p = kzplayer.load(folder)
        edit(p)
        calls = []

        def replace(a, b):
            calls.append(b)
            if len(calls) == failing + 1:
                raise OSError(28, "No space left on device", b)
            return real(a, b)
        monkeypatch.setattr(os, "replace", replace)
        with pytest.raises(KzError) as info:
            p.save()
        monkeypatch.setattr(os, "replace", real)
        assert "no file was changed" in info.value.diagnostics[0].message
        assert files(folder) == before and folders(folder) == old_dirs, failing
    expected = canonical(p)
    p.save()                                            # the model is whole: the save works now
    assert canonical(kzplayer.load(folder)) == expected


@pytest.mark.parametrize("edit, between", [(rename_system, {"old", "new"}),
                                           (move_system, {"old", "new", "refused"}),
                                           (rename_and_set_a_value_elsewhere, {"old", "new", "refused"})])
def test_every_state_on_disk_during_a_save_loads_as_old_or_new_or_not_at_all(folder, tmp_path, monkeypatch,
                                                                              edit, between):
    old = canonical(kzplayer.load(folder))
    p = kzplayer.load(folder)
    edit(p)
    new = canonical(p)
    snaps = []
    real = {name: getattr(os, name) for name in ("replace", "remove", "rmdir")}

    def step(name):
        def run(*args):
            out = real[name](*args)
            shot = tmp_path / "states" / str(len(snaps))
            shutil.copytree(folder, shot)
            snaps.append(shot)
            return out
        return run
    for name in real:
        monkeypatch.setattr(os, name, step(name))
    p.save()
    for name, fn in real.items():
        monkeypatch.setattr(os, name, fn)
    seen = []
    for shot in snaps:
        try:
            got = canonical(kzplayer.load(shot))
        except KzError as exc:
            assert {d.rule for d in exc.diagnostics} == {"file.missing"}, shot
            seen.append("refused")
            continue
        got["name"] = old["name"]
        assert got in (old, new), shot
        seen.append("old" if got == old else "new")
    assert set(seen) == between and seen[-1] == "new"
    assert seen == sorted(seen, key=["old", "refused", "new"].index)     # never back


@pytest.mark.parametrize("seed", range(8))
def test_random_tree_edits_of_a_folder_project_save_in_place_and_read_back(tmp_path, seed):
    import random

    from tests.project.test_save_splice import SAMPLES, _random_edit
    rnd = random.Random(seed)
    folder = tmp_path / "project"
    kzplayer.load(rnd.choice(sorted(SAMPLES.glob("*.kzm")))).save(folder)
    p = kzplayer.load(folder)
    for step in range(12):
        if not any(i.path.startswith("Screens/") for i in p.walk()):
            break                          # every node removed: nothing left to edit
        op = _random_edit(rnd, p, step)
        try:
            p.save()
        except KzError as exc:             # a case-only clash of two generated names: refused whole
            assert "differ only in case" in exc.diagnostics[0].message, (step, op)
            continue
        q = kzplayer.load(folder)
        assert canonical(q) == canonical(p), (step, op)
        assert [d for d in q.diagnostics if d.rule == "file.orphan"] == [], (step, op)
        on_disk = {str(f) for f in folder.rglob("*.kzm")}
        assert on_disk == set(q.files), (step, op)           # no file left behind, none missing


def test_ctrl_c_half_way_through_a_move_puts_everything_back(folder, monkeypatch):
    before, old_dirs = files(folder), folders(folder)
    p = kzplayer.load(folder)
    move_system(p)
    real, calls = os.replace, []

    def replace(a, b):
        calls.append(b)
        if len(calls) == 5:                     # the two parents replaced, a new file too
            raise KeyboardInterrupt
        return real(a, b)
    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        p.save()
    assert files(folder) == before and folders(folder) == old_dirs      # (the undo replaces too)
