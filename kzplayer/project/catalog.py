"""The property catalog: every stock property, material and item type, read from
`kzm_schema/catalog.toml` (the single source; nothing here repeats it).

    from kzplayer.project.catalog import catalog
    cat = catalog()
    cat.property("Emission.Lifetime").default      # 1.0
    cat.material("GenerateEvent_OnDeath")          # legacy -> Event_Lifetime with a preset
    project_cat = cat.with_custom(property_types, material_types)

Derived facts (which item types carry a property, which materials read it, whether a material
is event-driven, its asset path and shader file) are computed here from the data, so the TOML
states each fact once. `python -m kzplayer.project.catalog_docs` prints docs/catalog.md.
"""
from __future__ import annotations

from functools import cache

# The catalog's parts, importable from here as before (catalog.py was one module).
from kzplayer.project.catalog_lookup import Catalog
from kzplayer.project.catalog_specs import (ALIAS_ORIGINS, EVENT_SOURCE, ORIGINS, SLOTS, TYPE_NAMES,
                                            Alias, CatalogError, ItemTypeSpec, MaterialSpec,
                                            PropertySpec)
from kzplayer.project.catalog_toml import load_catalog
from kzplayer.project.value_rules import (INT_MAX, INT_MIN, coerce, number_problem, numbers_of,
                                          range_words)

__all__ = ["catalog", "load_catalog", "Catalog", "PropertySpec", "MaterialSpec", "ItemTypeSpec",
           "Alias", "CatalogError", "TYPE_NAMES", "SLOTS", "EVENT_SOURCE", "ORIGINS",
           "ALIAS_ORIGINS", "coerce", "number_problem", "numbers_of", "range_words", "INT_MIN",
           "INT_MAX"]


@cache
def catalog() -> Catalog:
    """The stock catalog (read once)."""
    return load_catalog()


if __name__ == "__main__":      # pragma: no cover - the generator's old command still works
    from kzplayer.project.catalog_docs import main
    main()
