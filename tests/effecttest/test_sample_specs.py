"""Every sample has a spec beside it (what its opening comment claims, its golden picture),
and `kzplayer test sample_projects/` passes."""
from __future__ import annotations

from click.testing import CliRunner

from kzplayer.cli import main
from kzplayer.effecttest.spec import read_spec
from kzplayer.resources import samples_dir


def test_every_sample_has_a_spec_with_a_golden_picture():
    for project in sorted(samples_dir().glob("*.kzm")):
        spec = read_spec(project.with_name(project.stem + ".kztest.toml"))
        assert spec.problems == [], spec.problems
        assert spec.project.resolve() == project.resolve()
        kinds = {c.kind for c in spec.checks}
        assert {"validate", "picture"} <= kinds and kinds & {"count", "events"}, project.name
        assert (samples_dir() / "golden" / f"{project.stem}.png").is_file()


def test_kzplayer_test_sample_projects_passes(tmp_path):
    result = CliRunner().invoke(main, ["test", str(samples_dir()), "--artifacts", str(tmp_path)])
    assert result.exit_code == 0, result.output
    specs = len(list(samples_dir().glob("*.kztest.toml")))
    assert specs >= 15 and f"{specs} specs" in result.output and " 0 failed" in result.output
