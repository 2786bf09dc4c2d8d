"""A bounded share of the asset fuzz (tests/fuzz/assets.py): every input an image, a mesh
or a documented refusal, none hangs."""
from tests.fuzz.assets import fuzz


def test_mutated_assets_are_read_or_refused_never_escape():
    figures = fuzz(400)
    assert figures["inputs"] == 400
    assert figures["escapes"] == [] and figures["hangs"] == []
    assert figures["ok"] > 0 and figures["refused"] > 0     # the mutations reach both outcomes
