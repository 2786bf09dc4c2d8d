"""Load a project: a .kzm (one file), a project folder or its NAME.proj.kzm, or a Kanzi
Studio .kzproj/.kzmat, into the model (kzplayer.project.model), checked against the schema
(libxml2's validation, on the files where the reader's walk could not tell they fit).

    load(path) -> Project             (raises KzError when the project has errors)
    load_project(path) -> (Project | None, diagnostics)     (never raises for bad input)

The layouts are layout.py's (docs/format.md has the details, including how unusual
characters in names are stored); kzm_reader.py walks the files, kzproj.py imports Kanzi
Studio's. Nothing here raises for bad input: problems are Diagnostics; `load()` turns
errors into a KzError.
"""
from __future__ import annotations

import os

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.project.kzm_reader import MAX_DEPTH, read_item_file, read_kzm  # noqa: F401
from kzplayer.project.kzproj import load_kzproj
# The layouts' names and the reading of files: importable from here as before the split.
from kzplayer.project.layout import (FORMAT_VERSION, ITEM_FILE_SUFFIX,  # noqa: F401
                                     PROJECT_FILE_SUFFIX, Documents, find_project_file,
                                     item_file_name)
from kzplayer.project.model import Project
from kzplayer.project.schema import validate_tree, without_repeats
from kzplayer.project.source import (BAD_NAME, DUPLICATE,  # noqa: F401
                                     MISSING_FILE, ORPHAN, OUTSIDE, PROPERTY_TYPE, STRUCTURE,
                                     UNKNOWN_TYPE, UNREADABLE, SourceFile, _diag,
                                     read_source)


def load_project(path: str | os.PathLike) -> tuple[Project | None, list[Diagnostic]]:
    """Load a project from a .kzm file, a NAME.proj.kzm, a project folder or a Kanzi Studio
    .kzproj/.kzmat. Never raises for bad input: returns (project or None, diagnostics)."""
    path = os.fspath(path)
    if path.lower().endswith((".kzproj", ".kzmat")):
        return load_kzproj(path)
    main, diags = find_project_file(path)
    if main is None:
        return None, diags
    project, diags = read_kzm(main)
    if project is None:
        return None, diags
    schema_diags = _schema_check(project.document)
    if schema_diags:
        # Some problems both notice (<Binding> without target, a '/' in a name): one message
        # per spot, the loader's, which says more.
        errors = [d for d in project.diagnostics if d.severity == Severity.ERROR]
        project.diagnostics = sorted(project.diagnostics + without_repeats(schema_diags, errors),
                                     key=Diagnostic.sort_key)
    return project, project.diagnostics


def _schema_check(docs: Documents) -> list[Diagnostic]:
    """The RELAX NG check of kzm.rng, on the files where the loader's walk met something it
    could reject (schema_fit.py): the messages are the schema check's, as ever."""
    out = []
    for path, src in docs.sources.items():
        if not src.fits_schema:
            out += validate_tree(src.tree, path, source=src)
    return out


def load(path: str | os.PathLike) -> Project:
    """Load a project; raises KzError (exit code 1 for a bad project, 2 when a file cannot be
    read) when it has errors. Warnings stay in `project.diagnostics`."""
    project, diags = load_project(path)
    errors = [d for d in diags if d.severity == Severity.ERROR]
    if project is None or errors:
        unreadable = any(d.rule == UNREADABLE[1] for d in diags)
        raise KzError(errors or diags or [_diag(UNREADABLE, f"cannot load {path}")],
                      exit_code=2 if unreadable else 1)
    return project
