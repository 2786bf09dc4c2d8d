"""Project files: the model, both .kzm layouts, literal values, paths, the catalog, the
schema, saving and converting, and the Kanzi Studio .kzproj import.
Start at `kzplayer.load()` (kzplayer/__init__.py) or `loader.load_project()`."""
