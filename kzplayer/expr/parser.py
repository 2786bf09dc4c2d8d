"""Tokens -> Program. One method per precedence level, lowest first, as in jinja's parser:

    statement  := NAME '=' expr | NAME '.' NAME '=' expr | expr
    ternary    := or ('?' ternary ':' ternary)?
    or := and ('||' and)*     and := bitor ('&&' bitor)*     bitor := xor ('|' xor)*
    xor := bitand ('^' bitand)*     bitand := equality ('&' equality)*
    equality := compare (('=='|'!=') compare)*     compare := shift (('<'|'>'|'<='|'>=') shift)*
    shift := additive (('<<'|'>>') additive)*     additive := term (('+'|'-') term)*
    term := unary (('*'|'/') unary)*
    unary := ('-'|'!'|'~') unary | '...' ('+'|'-'|'*'|'/') unary | postfix
    postfix := primary ('.' NAME)*
    primary := NUMBER | STRING | true | false | NAME | NAME generic? '(' args ')' | REF | VIEW | '(' expr ')'

`...* range` is Kanzi's prefix fold (the range reduced with `*`); a VIEW token is
`{source ... Property}`, its source a variable or a reference.

Every error goes through `fail`; the parser then skips to the next line and goes on, so one
run reports every broken statement. The limits (kzplayer/expr/limits.py: length, nesting,
depth) are `expr.limit` errors at the spot.
"""
from __future__ import annotations

from typing import Callable

from kzplayer.diagnostics import Diagnostic, Span
from kzplayer.expr import ast
from kzplayer.expr.errors import diagnostic
from kzplayer.expr.lexer import tokenize
from kzplayer.expr.limits import MAX_DEPTH, MAX_LENGTH, MAX_NESTING, deep_recursion
from kzplayer.expr.tokens import EOF, NAME, NEWLINE, NUMBER, REF, STRING, VIEW, Token, TokenStream


# Tokens that are a whole node by themselves.
_LITERALS = {NUMBER: ast.Number, STRING: ast.String, REF: ast.Ref}
FOLD_OPS = ("+", "-", "*", "/")


class _Fail(Exception):
    def __init__(self, diag: Diagnostic):
        self.diag = diag


class ParseCache:
    """One syntax tree per distinct text: a project repeats the same few binding texts
    (`{../Hub/Emission.Rate} * 2` on every emitter of a kind), and `parse` hands out copies
    of the tree relocated to where each is written (ast.relocate), which is a fraction of a
    parse. Only clean trees are kept (a text with errors is parsed where it stands, so every
    message has its exact position); `parses` counts the texts actually parsed (tests count
    them). Bounded: emptied when it holds MAX_TEXTS texts."""
    MAX_TEXTS = 20_000

    def __init__(self):
        self.trees: dict[str, ast.Program | None] = {}      # None: the text has errors
        self.parses = 0

    def clear(self) -> None:
        self.trees.clear()


CACHE = ParseCache()
SHALLOW = 50        # levels of a tree that the evaluator walks within Python's own recursion limit


def parse(text: str, *, file: str | None = None, line: int = 1, column: int = 1,
          span: Span | None = None, position: Callable[[int], tuple[int, int]] | None = None
          ) -> ast.Program:
    """Parse a binding program. (line, column) is where `text` starts in `file` (lines after
    the first start at column 1); `span` may give the three at once. Where the file spells
    the text otherwise (XML entities: `a &lt; b`), `position(offset) -> (line, column)` maps
    every offset of `text` into the file (`Binding.expression_position` does). Never raises
    for bad input: syntax errors are in `program.diagnostics` (rule `expr.syntax`)."""
    if span is not None:
        file, line, column = span.file, span.line, span.column
    text = text or ""
    if len(text) > MAX_LENGTH:      # refused before any work: a 100 MB attribute is no binding
        where = Span(file or "<expression>", *(position(0) if position else (line, column)))
        program = ast.Program([], text=text, span=where)
        program.diagnostics = [diagnostic(
            "expr.limit", f"this expression is {len(text):,} characters long; the limit is "
            f"{MAX_LENGTH:,}", where, hint="split the computation over several bindings")]
        return program
    tree = shared(text)
    if tree is None:
        return _parse(text, file, line, column, position)
    return ast.relocate(tree, file or "<expression>", _mover(text, line, column, position))


def shared(text: str) -> ast.Program | None:
    """The one tree of `text`, parsed as if it started at line 1, column 1 of '<expression>'
    (its positions are not the file's: for running and checking a clean program, where no
    position is shown), or None when the text has errors. Do not change it: it is shared."""
    tree = CACHE.trees.get(text, CACHE)
    if tree is CACHE:                    # a text not seen yet: parsed once, at (1, 1)
        tree = _parse(text, None, 1, 1, None) if len(text) <= MAX_LENGTH else None
        if len(CACHE.trees) >= CACHE.MAX_TEXTS:
            CACHE.clear()
        tree = CACHE.trees[text] = tree if tree is not None and not tree.diagnostics else None
        if tree is not None:
            tree.shared_references = tree.unique_references     # walked once per text, not per use
            tree.shallow = ast.depth(tree.statements) <= SHALLOW  # runs without deep_recursion()
    return tree


def _mover(text: str, line: int, column: int, position):
    """(line, column) in the text parsed at (1, 1) -> (line, column) in the file, as the lexer
    would have placed it: through `position(offset)` when given, else from (line, column)."""
    if position is None:
        return lambda l, c: (line, c + column - 1) if l == 1 else (line + l - 1, c)
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"] if "\n" in text else [0]
    return lambda l, c: position(starts[l - 1] + c - 1)


def _parse(text: str, file: str | None, line: int, column: int, position) -> ast.Program:
    CACHE.parses += 1
    tokens, errors = tokenize(text, file=file, line=line, column=column, position=position)
    with deep_recursion():
        program = _Parser(tokens).parse_program()
    if not errors and not program.diagnostics and (deep := ast.too_deep(program.statements)):
        node, depth = deep
        program.diagnostics.append(diagnostic(
            "expr.limit", f"this expression is {depth:,} levels deep; the limit is {MAX_DEPTH:,} "
            "(each operator of a chain such as a + b + c is one level)", node.span,
            hint="sum long lists in several bindings, or in variables: A = a + b, then A + c"))
    program.text = text
    program.diagnostics = sorted(errors + program.diagnostics, key=Diagnostic.sort_key)
    return program


class _Parser:
    def __init__(self, tokens: list[Token]):
        self.stream = TokenStream(tokens)
        self.nesting = 0        # brackets, calls, unary operators and ?: open around here

    def nested(self, parse):
        """parse() one level of nesting deeper; past MAX_NESTING an expr.limit error."""
        if self.nesting >= MAX_NESTING:
            raise _Fail(diagnostic(
                "expr.limit", f"brackets, calls and operators nested more than {MAX_NESTING} deep",
                self.stream.current.span, hint="compute the inner part in a variable first: A = ..."))
        self.nesting += 1
        try:
            return parse()
        finally:
            self.nesting -= 1

    # -- helpers ---------------------------------------------------------------------------
    def fail(self, message: str, token: Token | None = None, hint: str | None = None):
        token = token or self.stream.current
        raise _Fail(diagnostic("expr.syntax", message, token.span, hint=hint))

    def expect_op(self, op: str, what: str) -> Token:
        tok = self.stream.skip_op(op)
        if tok is None:
            self.fail(f"expected '{op}' {what}, got {self.stream.current.describe()}")
        return tok

    def span_from(self, start: Token) -> Span:
        end = self.stream.last
        return Span(start.file, start.line, start.column, end.end_line, end.end_column)

    # -- statements ------------------------------------------------------------------------
    def parse_program(self) -> ast.Program:
        s = self.stream
        statements, errors = [], []
        first = s.current
        while s.current.kind != EOF:
            if s.next_if(NEWLINE):
                continue
            try:
                statements.append(self.parse_statement())
                if s.current.kind not in (NEWLINE, EOF):
                    self.fail(f"expected end of line, got {s.current.describe()}",
                              hint="put each statement on its own line")
            except _Fail as fail:
                errors.append(fail.diag)
                while s.current.kind not in (NEWLINE, EOF):
                    s.next()
        if not statements and not errors:
            errors.append(diagnostic("expr.syntax", "empty expression", first.span,
                                     hint="write an expression, e.g. {./Emission.Rate} * 2"))
        return ast.Program(statements, diagnostics=errors,
                           span=Span(first.file, first.line, first.column,
                                     s.current.end_line, s.current.end_column))

    def parse_statement(self) -> ast.Node:
        s, start = self.stream, self.stream.current
        if start.kind == NAME and s.look(1).is_op("="):
            s.next(), s.next()
            return ast.Assign(start.value, self.parse_expression(), span=self.span_from(start))
        if start.kind == NAME and s.look(1).is_op(".") and s.look(2).kind == NAME and s.look(3).is_op("="):
            s.next(), s.next()
            fld = s.next().value
            s.next()
            return ast.Assign(start.value, self.parse_expression(), fld, span=self.span_from(start))
        if start.kind == NAME and start.value.lower() == "if" and s.look(1).kind in (NAME, NUMBER, REF):
            self.fail("there is no if statement", start, hint="write condition ? value : other")
        node = self.parse_expression()
        if s.current.is_op("="):
            self.fail("only a variable or a variable's field can be assigned",
                      hint="write NAME = expression or NAME.field = expression")
        return node

    # -- expressions, lowest precedence first ----------------------------------------------
    def parse_expression(self) -> ast.Node:
        return self.parse_ternary()

    def parse_ternary(self) -> ast.Node:
        start = self.stream.current
        cond = self.parse_or()
        if not self.stream.skip_op("?"):
            return cond
        then = self.nested(self.parse_ternary)
        self.expect_op(":", "between the branches of '?:'")
        otherwise = self.nested(self.parse_ternary)
        return ast.Ternary(cond, then, otherwise, span=self.span_from(start))

    def _binary(self, ops: tuple[str, ...], operand) -> ast.Node:
        start = self.stream.current
        left = operand()
        while (tok := self.stream.skip_op(*ops)):
            left = ast.Binary(tok.value, left, operand(), span=self.span_from(start))
        return left

    def parse_or(self):
        return self._binary(("||",), self.parse_and)

    def parse_and(self):
        return self._binary(("&&",), self.parse_bitor)

    def parse_bitor(self):
        return self._binary(("|",), self.parse_xor)

    def parse_xor(self):
        return self._binary(("^",), self.parse_bitand)

    def parse_bitand(self):
        return self._binary(("&",), self.parse_equality)

    def parse_equality(self):
        return self._binary(("==", "!="), self.parse_compare)

    def parse_compare(self):
        return self._binary(("<", ">", "<=", ">="), self.parse_shift)

    def parse_shift(self):
        return self._binary(("<<", ">>"), self.parse_additive)

    def parse_additive(self):
        return self._binary(("+", "-"), self.parse_term)

    def parse_term(self):
        return self._binary(("*", "/"), self.parse_unary)

    def parse_unary(self) -> ast.Node:
        start = self.stream.current
        if self.stream.skip_op("-", "!", "~"):
            operand = self.nested(self.parse_unary)
            return ast.Unary(start.value, operand, span=self.span_from(start))
        if self.stream.skip_op("..."):
            op = self.stream.skip_op(*FOLD_OPS)
            if op is None:
                self.fail(f"expected an arithmetic operator after '...', got {self.stream.current.describe()}",
                          hint="fold a range with ...+ or ...*, e.g. ...* {lights ... Node.Opacity}")
            operand = self.parse_unary()
            return ast.Fold(op.value, operand, span=self.span_from(start))
        return self.parse_postfix()

    def parse_postfix(self) -> ast.Node:
        s, start = self.stream, self.stream.current
        node = self.parse_primary()
        while s.current.is_op("."):
            s.next()
            name = s.next_if(NAME)
            if name is None:
                self.fail(f"expected a field name after '.', got {s.current.describe()}",
                          hint="fields are x y z w, r g b a, translationX ...")
            node = ast.Field(node, name.value, name.span, span=self.span_from(start))
        return node

    def parse_primary(self) -> ast.Node:
        s, tok = self.stream, self.stream.current
        if tok.kind in _LITERALS:
            s.next()
            return _LITERALS[tok.kind](tok.value, span=tok.span)
        if tok.kind == VIEW:
            s.next()
            source, prop = tok.value
            node = ast.Name(source, span=tok.span) if isinstance(source, str) else ast.Ref(source, span=tok.span)
            return ast.View(node, prop, span=tok.span)
        if tok.kind == NAME:
            if s.look(1).is_op("(") or self._generic_ahead():
                return self.parse_call()
            s.next()
            if tok.value.lower() in ("true", "false"):
                return ast.Bool(tok.value.lower() == "true", span=tok.span)
            return ast.Name(tok.value, span=tok.span)
        if tok.is_op("("):
            s.next()
            node = self.nested(self.parse_expression)
            self.expect_op(")", "to close '('")
            return node
        self.fail(f"expected an expression, got {tok.describe()}")

    def _generic_ahead(self) -> bool:
        """`name<A, B>(`: an engine generic such as createView<N>(...). Only when the '<'
        touches the name, so `a < b > (c)` stays a comparison."""
        s = self.stream
        name, lt = s.current, s.look(1)
        if not (lt.is_op("<") and (lt.line, lt.column) == (name.end_line, name.end_column)):
            return False
        i = 2
        while s.look(i).kind in (NAME, NUMBER):
            if s.look(i + 1).is_op(">"):
                return s.look(i + 2).is_op("(")
            if not s.look(i + 1).is_op(","):
                return False
            i += 2
        return False

    def parse_call(self) -> ast.Call:
        s, name = self.stream, self.stream.next()
        type_args = []
        if s.skip_op("<"):
            while not s.skip_op(">"):
                type_args.append(str(s.next().value))
                s.skip_op(",")
        self.expect_op("(", f"after the function name '{name.value}'")
        args = []
        if not s.current.is_op(")"):
            args.append(self.nested(self.parse_expression))
            while s.skip_op(","):
                args.append(self.nested(self.parse_expression))
        self.expect_op(")", f"to close the arguments of '{name.value}'")
        return ast.Call(name.value, tuple(args), tuple(type_args), name.span, span=self.span_from(name))
