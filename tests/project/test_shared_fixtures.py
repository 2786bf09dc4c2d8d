"""The one way tests find ../shared: tests/conftest.py's SHARED, `shared_dir` and `kanzi39`."""
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import KANZI39, REPO, SHARED, require_dir


def test_shared_defaults_to_the_folder_beside_the_repository_or_the_variable():
    import os
    expected = Path(os.environ.get("KZPLAYER_SHARED") or REPO.parent / "shared")
    assert SHARED == expected
    assert KANZI39 == Path(os.environ.get("KZPLAYER_KANZI39") or expected / "kanzi39")


def test_the_fixtures_give_the_folders(shared_dir, kanzi39):
    assert shared_dir == SHARED and (shared_dir / "design").is_dir()
    assert kanzi39 == KANZI39 and any(kanzi39.glob("*.kzproj"))


def test_an_absent_folder_fails_on_ci_and_names_the_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="KZPLAYER_SHARED.*CI=true"):
        require_dir(tmp_path / "nowhere", "the shared folder", "KZPLAYER_SHARED")


def test_an_absent_folder_is_a_skip_that_says_why_outside_ci(tmp_path, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not found at .*nowhere.*skipped outside CI"):
        require_dir(tmp_path / "nowhere", "the shared folder", "KZPLAYER_SHARED")


def test_the_variables_move_the_folders(tmp_path):
    # a fresh interpreter: SHARED is read once, when conftest is imported
    (tmp_path / "kanzi39").mkdir()
    code = "from tests.conftest import SHARED, KANZI39; print(SHARED); print(KANZI39)"
    run = lambda env: subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env,
                                     capture_output=True, text=True, check=True).stdout.split()
    import os
    base = {k: v for k, v in os.environ.items() if not k.startswith("KZPLAYER_")}
    assert run({**base, "KZPLAYER_SHARED": str(tmp_path)}) == [str(tmp_path), str(tmp_path / "kanzi39")]
    assert run({**base, "KZPLAYER_SHARED": str(tmp_path), "KZPLAYER_KANZI39": "/k"}) == [str(tmp_path), "/k"]
