"""Kanzi Studio 3.6 bindings (`MultiExpressionPropertyBindings`: code with `{0}`-style
placeholders and a `referenceKeyValuesInCode` map; kzplayer.project.kzproj36), on files
written in that form here: read, validated at their position in the file, evaluated, shown
by inspect, and converted to .kzm bindings that evaluate the same (round trip included)."""
from __future__ import annotations

from click.testing import CliRunner

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.cli import main
from kzplayer.validate import validate_paths

ARRAYS = "http://schemas.microsoft.com/2003/10/Serialization/Arrays"


def prop(name: str, value: str, kind: str = "float") -> str:
    return (f'<d2p1:KeyValueOfstringDynamicPropertyeuDbPpRS xmlns:d2p1="{ARRAYS}"><d2p1:Key>{name}</d2p1:Key>'
            f'<d2p1:Value><propertyTypeReference>{name}</propertyTypeReference>'
            f'<value xmlns:d5p1="http://www.w3.org/2001/XMLSchema" i:type="d5p1:{kind}">{value}</value>'
            f'</d2p1:Value></d2p1:KeyValueOfstringDynamicPropertyeuDbPpRS>')


def multi(*bindings: tuple[str, str, dict]) -> str:
    """The MultiExpressionPropertyBindings property of (target, code, {key: reference})."""
    items = []
    for target, code, refs in bindings:
        pairs = "".join(f"<d8p1:KeyValueOfstringstring><d8p1:Key>{k}</d8p1:Key><d8p1:Value>{v}</d8p1:Value>"
                        "</d8p1:KeyValueOfstringstring>" for k, v in refs.items())
        items.append(f"<d7p1:MultiExpressionPropertyBinding>\n"
                     f"<d7p1:code>{code}</d7p1:code>\n"
                     f"<d7p1:propertyTypeReference>{target}</d7p1:propertyTypeReference>\n"
                     f'<d7p1:referenceKeyValuesInCode xmlns:d8p1="{ARRAYS}">\n{pairs}\n</d7p1:referenceKeyValuesInCode>\n'
                     f"</d7p1:MultiExpressionPropertyBinding>")
    return (f'<d2p1:KeyValueOfstringDynamicPropertyeuDbPpRS xmlns:d2p1="{ARRAYS}">'
            f"<d2p1:Key>MultiExpressionPropertyBindings</d2p1:Key><d2p1:Value>"
            f"<propertyTypeReference>MultiExpressionPropertyBindings</propertyTypeReference>\n"
            f'<value xmlns:d7p1="http://schemas.datacontract.org/2004/07/Rightware.Kanzi.Tool.Logic.Bindings" '
            f'i:type="d7p1:ArrayOfMultiExpressionPropertyBinding">\n' + "\n".join(items) +
            "\n</value></d2p1:Value></d2p1:KeyValueOfstringDynamicPropertyeuDbPpRS>")


def node(kind: str, name: str, props: str = "", children: str = "") -> str:
    return (f'<ProjectItem i:type="{kind}"><SerializedName>{name}</SerializedName>'
            f"<properties>{props}</properties><children>{children}</children></ProjectItem>\n")


def kzproj(tmp_path, target_props: str):
    controller = node("EmptyNode", "Controller", prop("Node.Width", "40") + prop("Node.Height", "3"))
    target = node("EmptyNode", "Target", target_props)
    text = ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<Project xmlns:i="http://www.w3.org/2001/XMLSchema-instance" '
            'xmlns="http://schemas.datacontract.org/2004/07/Rightware.Kanzi.Tool.Logic.Project">\n'
            "<SerializedName>Studio36</SerializedName><properties/>\n<children>\n" +
            node("ScreenLibrary", "Screens", children=node("Screen", "Screen", children=controller + target)) +
            "</children>\n</Project>\n")
    path = tmp_path / "Studio36.kzproj"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = multi(("Node.Opacity", "{0} / 100", {"0": "../Controller/Node.Width"}),
             ("Node.Width", "{0} * 10 + {1}", {"0": "{../Controller/Node.Height}", "1": "../Controller/Node.Width"}))


def target_of(project):
    return next(i for i in project.walk() if i.name == "Target")


def test_the_3_6_form_is_read_as_bindings_with_the_placeholders_resolved(tmp_path):
    project = kzplayer.load(str(kzproj(tmp_path, GOOD)))
    target = target_of(project)
    assert "MultiExpressionPropertyBindings" not in target.properties
    assert [(b.target, b.expression) for b in target.bindings] == [
        ("Node.Opacity", "{../Controller/Node.Width} / 100"),
        ("Node.Width", "{../Controller/Node.Height} * 10 + {../Controller/Node.Width}")]


def test_they_evaluate(tmp_path):
    project = kzplayer.load(str(kzproj(tmp_path, GOOD)))
    graph = resolve(project)
    target = target_of(project)
    assert graph.diagnostics == []
    assert graph.value(target, "Node.Opacity") == 0.4 and graph.value(target, "Node.Width") == 70.0


def test_a_broken_reference_is_reported_where_the_file_writes_it(tmp_path):
    path = kzproj(tmp_path, multi(("Node.Opacity", "{0} / 100 + {1}",
                                   {"0": "../Controller/Node.Width", "1": "../Nobody/Node.Width"})))
    found = validate_paths([str(path)]).diagnostics
    [d] = [d for d in found if d.rule == "path.unresolved"]
    lines = path.read_text().splitlines()
    assert lines[d.span.line - 1][d.span.column - 1:].startswith("../Nobody/Node.Width</d8p1:Value>")
    # a code error points into the code: an unknown function, at its name
    path = kzproj(tmp_path, multi(("Node.Opacity", "nosuch({0})", {"0": "../Controller/Node.Width"})))
    [d] = [d for d in validate_paths([str(path)]).diagnostics if d.rule == "expr.unknown-function"]
    lines = path.read_text().splitlines()
    assert lines[d.span.line - 1][d.span.column - 1:].startswith("nosuch({0})</d7p1:code>")


def test_inspect_shows_them(tmp_path):
    out = CliRunner().invoke(main, ["inspect", str(kzproj(tmp_path, GOOD))])
    assert out.exit_code == 0, out.output
    assert "Node.Opacity = 0.4  (bound)" in out.output and "Node.Width = 70  (bound)" in out.output


def test_convert_writes_kzm_bindings_that_evaluate_the_same_and_round_trip(tmp_path):
    runner = CliRunner()
    kzm, folder, back = tmp_path / "out.kzm", tmp_path / "folder", tmp_path / "back.kzm"
    for src, dst in ((kzproj(tmp_path, GOOD), kzm), (kzm, folder), (folder, back)):
        out = runner.invoke(main, ["convert", str(src), str(dst)])
        assert out.exit_code == 0, out.output
    assert '<Binding target="Node.Opacity">{../Controller/Node.Width} / 100</Binding>' in kzm.read_text()
    for path in (kzm, back):
        project = kzplayer.load(str(path))
        graph = resolve(project)
        target = target_of(project)
        assert graph.diagnostics == []
        assert (graph.value(target, "Node.Opacity"), graph.value(target, "Node.Width")) == (0.4, 70.0)
