"""The parser's cache (kzplayer/expr/parser.py, ParseCache): one parse per distinct text, and
copies relocated to where each text is written, with exactly the positions a parse there
gives. Expected positions are worked out from the texts by hand."""
from kzplayer.expr import ast as A
from kzplayer.expr import parse, parser
from kzplayer.expr.printer import to_text


def spans(program):
    """(node type, line, column, end line, end column) of every node and reference."""
    out = []
    for node in A.walk(program):
        out.append((type(node).__name__, node.span.line, node.span.column, node.span.end_line, node.span.end_column))
        if isinstance(node, A.Ref):
            s = node.reference.span
            out.append(("Reference", s.line, s.column, s.end_line, s.end_column))
    return out


def test_a_text_is_parsed_once_wherever_it_is_written():
    parser.CACHE.clear()
    before = parser.CACHE.parses
    text = "{./Emission.Rate} * 2"
    first = parse(text, file="a.kzm", line=3, column=10)
    again = parse(text, file="b.kzm", line=40, column=1)
    assert parser.CACHE.parses - before == 1
    assert first == again and to_text(first) == to_text(again)
    assert first.statements[0] is not again.statements[0]         # copies: nothing is shared
    # `{./Emission.Rate}` is 17 characters, ` * ` 3, `2` 1
    assert spans(first) == [("Binary", 3, 10, 3, 31), ("Ref", 3, 10, 3, 27), ("Reference", 3, 10, 3, 27),
                            ("Number", 3, 30, 3, 31)]
    assert spans(again)[0] == ("Binary", 40, 1, 40, 22)
    assert {first.span.file, first.statements[0].span.file} == {"a.kzm"}
    assert again.statements[0].left.reference.span.file == "b.kzm"


def test_lines_after_the_first_start_at_column_one():
    text = "a = {./X.Y}\nmax(a,\n   2)"
    program = parse(text, file="f", line=7, column=25)
    assign, call = program.statements
    assert (assign.span.line, assign.span.column) == (7, 25)
    assert (assign.value.span.line, assign.value.span.column, assign.value.span.end_column) == (7, 29, 36)
    assert (call.span.line, call.span.column, call.span.end_line, call.span.end_column) == (8, 1, 9, 6)
    assert (call.name_span.line, call.name_span.column, call.name_span.end_column) == (8, 1, 4)
    assert (call.args[1].span.line, call.args[1].span.column) == (9, 4)


def test_a_position_function_places_every_offset():
    # as the loader's anchors do where the file spells characters as entities
    text = "({./A.B} +\n {./C.D})"       # offsets: ( 0, {./A.B} 1-8, + 9, {./C.D} 12-19, ) 19
    def position(offset):
        return 100 + offset // 4, 1 + offset % 4
    program = parse(text, file="g", position=position)
    assert program.diagnostics == []
    [binary] = program.statements
    assert (binary.span.line, binary.span.column) == position(1)
    assert (binary.span.end_line, binary.span.end_column) == position(19)
    right = binary.right.reference.span
    assert (right.line, right.column, right.end_line, right.end_column) == (*position(12), *position(19))


def test_a_text_with_errors_is_parsed_where_it_stands_each_time():
    parser.CACHE.clear()
    before = parser.CACHE.parses
    text = "1 +* 2"
    one = parse(text, file="f", line=2, column=5)
    two = parse(text, file="f", line=9, column=1)
    [d1], [d2] = one.diagnostics, two.diagnostics
    assert d1.rule == d2.rule == "expr.syntax"
    assert (d1.span.line, d1.span.column) == (2, 8) and (d2.span.line, d2.span.column) == (9, 4)
    assert parser.CACHE.trees[text] is None
    assert parser.CACHE.parses - before == 3        # once to learn it has errors, then each in place


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(parser.ParseCache, "MAX_TEXTS", 5)
    parser.CACHE.clear()
    for k in range(12):
        parse(f"{k} + 1")
    assert 0 < len(parser.CACHE.trees) <= 5
    assert [s[1:] for s in spans(parse("11 + 1", line=4))] == [(4, 1, 4, 7), (4, 1, 4, 3), (4, 6, 4, 7)]
