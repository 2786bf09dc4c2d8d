"""Every destination of `kzplayer play` and `kzplayer convert` is hostile (issue 21): checked
before the run, written by the one atomic writer, never through a link nor outside the
destination, no temporary file after a failure, exit code 2 with a message (never 3)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from kzplayer.atomic import MARK
from kzplayer.cli import main
from kzplayer.resources import samples_dir
from tests.hostile import kzplayer

DEMO = samples_dir() / "demo_fountain.kzm"
SPARKS = samples_dir() / "07_death_sparks.kzm"
DATA = Path(__file__).parent / "project" / "data"


@pytest.fixture(autouse=True)
def _headless(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and "internal.error" not in result.output, result.output
    return result


def leftovers(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if MARK in p.name or p.name.startswith(".kzplayer-"))


@pytest.mark.parametrize("option,name", [("--events", "e.jsonl"), ("--stats", "s.csv"),
                                         ("--dump", "d.npz"), ("--output", "o.png")])
def test_every_destination_under_a_file_is_exit_2_before_the_run(tmp_path, option, name):
    (tmp_path / "file").write_text("a file, not a folder")
    r = cli("play", "--frames", 1, option, tmp_path / "file" / name)
    assert r.exit_code == 2, r.output
    assert "Error" in r.output and "--" in r.output and "frames (" not in r.output    # nothing ran
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("option,name", [("--events", "e.jsonl"), ("--stats", "s.csv"), ("--dump", "d.npz")])
def test_a_folder_a_link_or_proc_as_destination_is_exit_2(tmp_path, option, name):
    (tmp_path / name).mkdir()
    assert cli("play", "--frames", 1, option, tmp_path / name).exit_code == 2
    victim = tmp_path / "victim"
    victim.write_text("keep")
    os.symlink(victim, tmp_path / ("link" + name))
    r = cli("play", "--frames", 1, option, tmp_path / ("link" + name))
    assert r.exit_code == 2 and "link" in r.output, r.output
    assert victim.read_text() == "keep"
    assert cli("play", "--frames", 1, option, f"/proc/self/{name}").exit_code == 2
    assert leftovers(tmp_path) == []


def test_output_named_only_by_its_extension_is_refused_not_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("play", "--frames", 1, "--output", ".png")
    assert r.exit_code == 2 and "only an extension" in r.output, r.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args,option", [(("--frames", 50_000_000), "--frames"),
                                         (("--seconds", 1e6), "--seconds"),
                                         (("--events", "e.jsonl", "--events-cap", 50_000_000), "--events-cap")])
def test_frames_and_the_events_cap_have_an_upper_bound(tmp_path, monkeypatch, args, option):
    monkeypatch.chdir(tmp_path)
    r = cli("play", *args)
    assert r.exit_code == 2 and option in r.output and "1,000,000" in r.output, r.output
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_during_the_run_is_exit_2_and_leaves_no_file(tmp_path):
    """The events sample writes ~2 MB of events in 300 frames; the file size limit (as a full
    disk) stops it in the middle: exit 2 with file.unwritable, no half file, no temporary one."""
    ran = kzplayer("play", SPARKS, "--frames", 300, "--events", tmp_path / "e.jsonl",
                   "--stats", tmp_path / "s.csv", cwd=tmp_path, file_size=64 << 10).expect(2)
    assert "file.unwritable" in ran.out and "e.jsonl" in ran.out, ran.out
    assert not (tmp_path / "e.jsonl").exists() and not (tmp_path / "s.csv").exists()
    assert leftovers(tmp_path) == []


def test_convert_with_force_never_writes_through_a_link(tmp_path):
    victim = tmp_path / "victim.kzm"
    victim.write_text("outside the destination")
    (tmp_path / "dst").mkdir()
    os.symlink(victim, tmp_path / "dst" / "out.kzm")
    r = cli("convert", DATA / "fountain.kzm", tmp_path / "dst" / "out.kzm", "--force")
    assert r.exit_code == 2 and "symbolic link" in r.output, r.output
    assert victim.read_text() == "outside the destination"
    assert leftovers(tmp_path) == []


def test_convert_never_puts_asset_copies_into_a_linked_folder(tmp_path):
    from tests.project.assets_fixture import make
    src = make(tmp_path / "src")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "dst").mkdir()
    os.symlink(elsewhere, tmp_path / "dst" / "textures")
    r = cli("convert", src, tmp_path / "dst" / "out.kzm")
    assert r.exit_code == 2 and "symbolic link" in r.output, r.output
    assert list(elsewhere.iterdir()) == [] and not (tmp_path / "dst" / "out.kzm").exists()
    assert leftovers(tmp_path) == []
