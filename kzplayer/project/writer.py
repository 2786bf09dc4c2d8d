"""Writing a project fresh, in either layout: one .kzm (`write_single`) or a folder of one
.kzm per item (`write_folder`). Values keep the text the author wrote when it still reads
as the value; everything else is formatted by kzplayer.project.literals. The saver
(saver.py) uses this when more than values changed, and for converting.
"""
from __future__ import annotations

import os
import re
from xml.sax.saxutils import escape, quoteattr

from kzplayer.diagnostics import KzError
from kzplayer.project.literals import LiteralError, format_literal, parse_literal
from kzplayer.project.layout import FORMAT_VERSION, ITEM_FILE_SUFFIX, PROJECT_FILE_SUFFIX, item_file_name
from kzplayer.project.model import Binding, Item, Project, Property
from kzplayer.project.source import _diag
from kzplayer.atomic import write_all

INDENT = "  "
UNWRITABLE = ("KZ012", "file.unwritable")   # a save or convert that cannot write (nothing changed)
_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n'

def _attrs(pairs) -> str:
    return "".join(f" {k}={quoteattr(v)}" for k, v in pairs if v is not None)


def property_text(prop: Property, type_name: str | None = None) -> str:
    """The literal to write: the text as the author wrote it when it still reads as the
    value, else the value formatted (values set by the API, or imported from a .kzproj)."""
    text = prop.text.strip()
    if prop.value is None:
        return text
    if text:
        try:
            back = parse_literal(text, type_name)
            if back == prop.value and type(back) is type(prop.value):
                return text
        except LiteralError:
            pass
    return format_literal(prop.value, type_name)


def type_of(item: Item, name: str) -> str | None:
    project = item.project
    spec = project.property_spec(name) if project is not None else None
    return spec.type if spec is not None else None


def _prop_line(pad: str, name: str, text: str) -> str:
    if text == "":
        return f"{pad}<Property{_attrs([('name', name)])}/>"
    return f"{pad}<Property{_attrs([('name', name)])}>{escape(text)}</Property>"


def _binding_lines(b: Binding, pad: str) -> list[str]:
    if b.short:
        attrs = [("target", b.target), ("name", b.name),
                 ("field", None if b.field == "WHOLE_PROPERTY" else b.field),
                 ("mode", None if b.mode == "ONE_WAY" else b.mode)]
        return [f"{pad}<Binding{_attrs(attrs)}>{escape(b.expression)}</Binding>"]
    inner = pad + INDENT
    out = [f"{pad}<BindingItem{_attrs([('name', b.name)])}>"]
    fields = [("BindingItem.Target", b.target), ("BindingItem.TargetPropertyAttribute", b.field),
              ("BindingItem.BindingMode", b.mode), ("BindingItem.PushTarget", b.push_target),
              ("BindingItem.IsBindingEnabled", "true" if b.enabled else "false"),
              ("BindingItem.SourceExpression", b.expression), ("BindingItem.RawCode", b.raw_code)]
    out += [_prop_line(inner, n, v) for n, v in fields if v is not None]
    for s in b.sources:
        out.append(f"{inner}<BindingSourceItem{_attrs([('name', s.name)])}>")
        for n, v in (("BindingSourceItem.Item", s.item), ("BindingSourceItem.Source", s.source),
                     ("BindingSourceItem.PropertyAttribute", s.field)):
            if v is not None:
                out.append(_prop_line(inner + INDENT, n, v))
        out.append(f"{inner}</BindingSourceItem>")
    out.append(f"{pad}</BindingItem>")
    return out


def studio_only(item: Item, name: str) -> bool:
    """A Kanzi Studio editor property (Name, CreationTime, ScreenPreviewMesh...: no type
    prefix, no PropertyType) on an item type kzplayer plays. An imported .kzproj keeps them
    in the model; a .kzm leaves them out (docs/format.md), since the validator would call
    them unknown properties. On item types kzplayer does not model, plain names are kept:
    kzplayer cannot tell Kanzi's own properties (a brush's Texture) from bookkeeping there."""
    if "." in name or type_of(item, name) is not None:
        return False
    project = item.project
    cat = project.catalog if project is not None else None
    return cat is not None and cat.item_type(item.type) is not None


def _item_lines(item: Item, depth: int, as_child_files: bool) -> list[str]:
    """The element of `item`; its children inline, or as <Child> placeholders."""
    pad = INDENT * depth
    library = item.parent is not None and item.parent.parent is None
    name = None if library and item.name == item.type else item.name
    head = f"{pad}<{item.type}{_attrs([('name', name), *item.attributes.items()])}"
    body = []
    inner = pad + INDENT
    for a in item.aliases.values():
        body.append(f"{inner}<Alias{_attrs([('name', a.name), ('target', a.target)])}/>")
    for prop in item.properties.values():
        if studio_only(item, prop.name):
            continue
        body.append(_prop_line(inner, prop.name, property_text(prop, type_of(item, prop.name))))
    for b in item.bindings:
        body += _binding_lines(b, inner)
    for c in item.children:
        if as_child_files:
            body.append(f"{inner}<Child{_attrs([('name', c.name)])}/>")
        else:
            body += _item_lines(c, depth + 1, False)
    if not body:
        return [head + "/>"]
    return [head + ">", *body, f"{pad}</{item.type}>"]


def _project_open(project: Project) -> str:
    # The format this writer writes, whatever the source said (a .kzproj says "Kanzi3:98").
    return f"<Project{_attrs([('name', project.name), ('format', FORMAT_VERSION)])}>"


def single_file_text(project: Project) -> str:
    lines = [_project_open(project)]
    for lib in project.libraries:
        lines += _item_lines(lib, 1, False)
    lines.append("</Project>")
    return _DECLARATION + "\n".join(lines) + "\n"


def write_text(path: str, text: str, encoding: str = "utf-8", newline: str | None = "\n") -> None:
    """Write one file atomically (write_files)."""
    write_files({path: text}, encoding, newline)


# What XML 1.0 cannot hold in any form (not even as a character reference).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def encode_text(path: str, text: str, encoding: str = "utf-8", newline: str | None = "\n") -> bytes:
    """The bytes of a project file. A character the file's declared encoding cannot hold
    (an accented name saved into an `encoding="us-ascii"` file) is written as an XML
    character reference (`&#233;`), which reads back as the same character. What no XML
    file can hold at all (a control character or a lone surrogate in a name) is a KzError
    (file.unwritable), raised before any file is touched."""
    bad = _NOT_XML.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise KzError(_diag(UNWRITABLE, f"cannot write {path}: line {line} would hold {bad.group()!r}, "
                                        "which no XML file can hold; nothing was written",
                            hint="remove the character from the name or value set through the API"),
                      exit_code=2)
    if newline not in (None, "", "\n"):
        text = text.replace("\n", newline)
    try:
        return text.encode(encoding, errors="xmlcharrefreplace")
    except LookupError:
        raise KzError(_diag(UNWRITABLE, f"cannot write {path}: unknown encoding {encoding!r}"),
                      exit_code=2) from None


def write_files(files: dict[str, str], encoding: str = "utf-8", newline: str | None = "\n") -> None:
    """Write project files so that a failure leaves every old file whole: each file's bytes
    are made first, then written to a temporary file beside it; only when every one is
    written (and flushed to disk) do they replace the old files (os.replace, atomic). A disk
    that is full, a file size limit, a folder that cannot be made: a KzError (exit code 2,
    rule file.unwritable), and no file has changed."""
    write_blobs({path: encode_text(path, text, encoding, newline) for path, text in files.items()})


def write_blobs(data: dict[str, bytes]) -> None:
    """write_files for bytes already encoded: all or nothing (kzplayer.atomic.write_all; a
    linked project file is saved where it lies)."""
    try:
        write_all(data, follow=True)
    except (OSError, UnicodeError) as e:        # UnicodeError: a name no file system holds
        where = getattr(e, "filename", None) or next(iter(data), "")
        why = getattr(e, "strerror", None) or ("a character no file name can hold"
                                               if isinstance(e, UnicodeError) else str(e))
        raise KzError(_diag(UNWRITABLE, f"cannot write {where}: {why}; no file was changed"),
                      exit_code=2) from None


def write_single(project: Project, path: str) -> list[str]:
    """The whole project as one .kzm file."""
    write_text(path, single_file_text(project))
    return [path]


def folder_files(project: Project) -> dict[str, str]:
    """Relative file path -> text, for the folder layout."""
    files = {}
    name = item_file_name(project.name or "project")
    lines = [_project_open(project)]
    lines += [f"{INDENT}<Child{_attrs([('name', lib.name)])}/>" for lib in project.libraries]
    lines.append("</Project>")
    files[name + PROJECT_FILE_SUFFIX] = _DECLARATION + "\n".join(lines) + "\n"

    def visit(item: Item, folder: str) -> None:
        fname = item_file_name(item.name)
        files[os.path.join(folder, fname + ITEM_FILE_SUFFIX)] = \
            _DECLARATION + "\n".join(_item_lines(item, 0, True)) + "\n"
        for c in item.children:
            visit(c, os.path.join(folder, fname))

    for lib in project.libraries:
        visit(lib, "")
    return files


# where convert / save-as may not write: a wrong command line, not an unreadable file
DESTINATION = ("KZ905", "cli.destination")


def check_folder(folder: str) -> None:
    """A project folder is written into a new or empty folder, so that no stale item file
    stays behind: KzError (exit 2) otherwise."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise KzError(_diag(DESTINATION, f"{folder} is a file; a project folder needs a new or "
                                        "empty folder (or end the name in .kzm for one file)"), exit_code=2)
    if os.path.isdir(folder) and os.listdir(folder):
        raise KzError(_diag(DESTINATION, f"{folder} is not empty; write a project folder into "
                                        "a new or empty folder"), exit_code=2)


def write_folder(project: Project, folder: str, checked: bool = False) -> list[str]:
    """The project as a folder: NAME.proj.kzm and one .kzm per item. The folder must be
    empty or absent (check_folder; `checked`: the caller did, convert before it put the
    project's assets there)."""
    if not checked:
        check_folder(folder)
    files = {os.path.join(folder, rel): text for rel, text in folder_files(project).items()}
    write_files(files)
    return list(files)
