"""A shader uniform named after kzplayer's earlier name of an entry (Collider_Bounce, now
the entry ParticleCollider.Bounce, issue 20) reads that entry under every spelling, so a
binding on either name keeps the uniform from being compiled in as a constant zero."""
from kzplayer.gpu.runner import _properties
from kzplayer.project.catalog import catalog


def test_a_uniform_of_an_earlier_name_reads_the_entry_under_every_spelling():
    cat = catalog()
    assert set(_properties(cat, "Collider_Bounce")) == {"ParticleCollider.Bounce", "Collider.Bounce"}
    assert set(_properties(cat, "Collider_Friction")) == {"ParticleCollider.Friction", "Collider.Friction"}
    assert _properties(cat, "Collider_KeepInside") == ("Collider.KeepInside",)
