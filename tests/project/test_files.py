"""kzplayer.project.files.inside: the one rule for files a project names (absolute paths,
`..` escapes and links that point out are refused before anything is read)."""
import os

import pytest

from kzplayer.project.files import Outside, inside


@pytest.fixture
def project(tmp_path):
    (tmp_path / "proj" / "shaders").mkdir(parents=True)
    (tmp_path / "proj" / "shaders" / "a.glsl").write_text("// a\n")
    (tmp_path / "secret.txt").write_text("root:x:0:0\n")
    return tmp_path / "proj"


def test_a_relative_path_inside_is_its_real_path(project):
    assert inside(project, "shaders/a.glsl", [project]) == (project / "shaders" / "a.glsl").resolve()
    assert inside(project / "shaders", "../shaders/./a.glsl", [project]).name == "a.glsl"
    assert inside(project, "shaders\\a.glsl", [project]).name == "a.glsl"      # Windows spelling


@pytest.mark.parametrize("name", ["/etc/passwd", "\\etc\\passwd", "C:\\Windows\\win.ini", "C:x",
                                  "//server/share/x", "\\\\server\\share\\x"])
def test_absolute_paths_are_refused(project, name):
    with pytest.raises(Outside, match="absolute path"):
        inside(project, name, [project])


@pytest.mark.parametrize("name", ["../secret.txt", "shaders/../../secret.txt", "../../../../../../etc/passwd"])
def test_dot_dot_out_of_the_project_is_refused(project, name):
    with pytest.raises(Outside, match=r"leads outside the project folder \(with '\.\.'\)"):
        inside(project, name, [project])


def test_a_link_that_points_out_is_refused_and_the_message_never_shows_the_file(project):
    os.symlink(project.parent / "secret.txt", project / "shaders" / "innocent.glsl")
    with pytest.raises(Outside) as e:
        inside(project, "shaders/innocent.glsl", [project], "the texture (shaders/innocent.glsl)")
    assert "through a link" in str(e.value) and "root:x" not in str(e.value)


def test_a_nul_in_a_name_is_refused(project):
    with pytest.raises(Outside):
        inside(project, "a\x00b", [project])


def test_a_name_no_file_system_can_hold_is_refused(project):      # a UnicodeEncodeError before
    with pytest.raises(Outside, match="no file name can hold"):
        inside(project, "a\ud800.png", [project])


def test_a_name_longer_than_a_file_name_can_be_is_refused(project):     # ENAMETOOLONG escaped
    with pytest.raises(Outside, match="longer than a file name"):
        inside(project, "1" + "0" * 400, [project])
    with pytest.raises(Outside, match="longer than a file name"):
        inside(project, "a/" * 2100 + "b", [project])
