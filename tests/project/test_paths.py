"""Every form of ProjectItemPath (kzm-format.md section 3), and what a path that leads
nowhere says."""
import pytest

import kzplayer
from kzplayer.project.paths import PathError, relative_path, resolve, split_reference

SYSTEM = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System"


@pytest.fixture(scope="module")
def project():
    from pathlib import Path
    return kzplayer.load(Path(__file__).parent / "data" / "fountain.kzm")


@pytest.mark.parametrize("path, expected", [
    ("Screens", "Screens"),
    ("Screens/Screen/RootNode", "Screens/Screen/RootNode"),
    ("Fountain/Screens/Screen/RootNode", "Screens/Screen/RootNode"),        # with the project name
    ("Screens/Screen/RootNode/", "Screens/Screen/RootNode"),                 # trailing slash
    ("Screens/Screen/RootNode/Viewport 2D/Scene", "Screens/Screen/RootNode/Viewport 2D/Scene"),  # spaces
    ("Materials/Swirl/Swirl.Strength", "Materials/Swirl/Swirl.Strength"),    # dots in names
    ("@Screens/Screen", "Screens/Screen"),                                   # tracked
])
def test_absolute_paths(project, path, expected):
    assert project.find(path).path == expected


@pytest.mark.parametrize("path, expected", [
    (".", f"{SYSTEM}/Nozzle"), ("./", f"{SYSTEM}/Nozzle"),
    ("..", SYSTEM), ("../", SYSTEM),
    ("../Gravity", f"{SYSTEM}/Gravity"),                                     # sibling
    ("../../Camera", "Screens/Screen/RootNode/Viewport 2D/Scene/Camera"),
    ("../../..", "Screens/Screen/RootNode/Viewport 2D"),
    ("./../Swirl", f"{SYSTEM}/Swirl"),
    ("@../Gravity", f"{SYSTEM}/Gravity"),
])
def test_relative_paths(project, path, expected):
    nozzle = project.find(f"{SYSTEM}/Nozzle")
    assert project.find(path, relative_to=nozzle).path == expected


def test_deeper_paths(project):
    scene = project.find("Screens/Screen/RootNode/Viewport 2D/Scene")
    assert project.find("./Particle System/Nozzle", relative_to=scene).path == f"{SYSTEM}/Nozzle"
    assert project.find("Particle System/Gravity", relative_to=scene).path == f"{SYSTEM}/Gravity"
    assert scene.find("./Camera").name == "Camera"


def test_aliases_are_found_on_the_item_or_above(project):
    gravity = project.find(f"{SYSTEM}/Gravity")
    scene = project.find("Screens/Screen/RootNode/Viewport 2D/Scene")
    assert project.find("#Nozzle", relative_to=gravity).path == f"{SYSTEM}/Nozzle"
    assert project.find("#Nozzle/", relative_to=scene).path == f"{SYSTEM}/Nozzle"
    assert project.find("#Nozzle/..", relative_to=scene).path == SYSTEM
    err = resolve(project, "#Nozzle", project.find("Screens/Screen"))
    assert isinstance(err, PathError) and "no alias '#Nozzle'" in err.message


def test_unresolved_path_names_the_nearest_item(project):
    err = resolve(project, "Screens/Screen/RootNode/Viewport 2D/Scene 2/Camera")
    assert not err
    assert err.message == ("Screens/Screen/RootNode/Viewport 2D has no child 'Scene 2'; its children "
                           "are: Scene (did you mean 'Scene'?)")
    assert err.nearest.path == "Screens/Screen/RootNode/Viewport 2D"
    assert project.find("Screens/Screen/RootNode/Viewport 2D/Scene 2") is None


def test_other_dead_ends(project):
    nozzle = project.find(f"{SYSTEM}/Nozzle")
    assert "has no children" in resolve(project, "./Deeper", nozzle).message
    assert "needs an item to start from" in resolve(project, "../X").message
    assert "above the top" in resolve(project, "../../../../../../../..", nozzle).message
    assert "the project has no child 'Screenz'" in resolve(project, "Screenz/Screen").message
    assert not resolve(project, "")


@pytest.mark.parametrize("ref, path, prop", [
    ("../Source/ParticleEmitter.EventBuffer", "../Source", "ParticleEmitter.EventBuffer"),
    ("./Emission.Rate", ".", "Emission.Rate"),
    ("Emission.Rate", ".", "Emission.Rate"),
    ("@../Text Box 2D/TextConcept.Text", "@../Text Box 2D", "TextConcept.Text"),
    ("#Alias/Node.Width", "#Alias", "Node.Width"),
    ("Screens/My v1.5 Node/Node.Width", "Screens/My v1.5 Node", "Node.Width"),   # dots in item names
    ("../Source", "../Source", None),
    ("..", "..", None),
])
def test_split_reference(ref, path, prop):
    assert split_reference(ref) == (path, prop)


def test_relative_path_between_items(project):
    nozzle = project.find(f"{SYSTEM}/Nozzle")
    camera = project.find("Screens/Screen/RootNode/Viewport 2D/Scene/Camera")
    rel = relative_path(nozzle, camera)
    assert rel == "../../Camera"
    assert project.find(rel, relative_to=nozzle) is camera
    assert relative_path(nozzle, nozzle) == "."


def test_names_that_start_with_at_or_hash(tmp_path):
    f = tmp_path / "odd.kzm"
    f.write_text('<Project name="@Odd"><Screens><Scene name="#Tag"><EmptyNode name="@Home"/></Scene>'
                 '</Screens></Project>')
    p = kzplayer.load(f)
    assert p.find("Screens/#Tag/@Home").name == "@Home"
    assert p.find("@Odd/Screens/#Tag").name == "#Tag"             # project name that starts with @
    scene = p.find("Screens/#Tag")
    assert p.find("@Home", relative_to=scene).name == "@Home"     # not an @-tracked 'Home'
    assert p.find("#Tag", relative_to=p.find("Screens")).name == "#Tag"   # not an alias
    assert p.find("@#Nope", relative_to=scene) is None
