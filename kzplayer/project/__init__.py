"""Project files: the model, both .kzm layouts, literal values, paths, the catalog, the
schema, saving and converting, and the Kanzi Studio .kzproj import.
Start at `kzplayer.load()` (kzplayer/__init__.py) or `loader.load_project()`."""
from kzplayer.project import model, saver

# `Project.save()` is the saver's, which reads through the loader that builds the model:
# plugged in here, above both, so that no module of project/ imports one above it.
model.plug_saver(saver.save_project)
