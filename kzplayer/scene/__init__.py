"""The running scene, between the binding graph and the GPU: a project read once as it
plays (kzplayer.scene.scene.Scene), its node records (nodes), the one value rule (values),
slot materials (materials) and subemitter order (events). No GL here."""
from kzplayer.scene.scene import Change, Scene  # noqa: F401
from kzplayer.scene.values import Values  # noqa: F401
