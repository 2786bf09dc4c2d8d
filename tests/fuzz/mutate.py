"""Mutations, as an attacker or a careless user makes them: hostile numbers and strings in
values and attributes, hostile snippets between elements, deleted, repeated and swapped
lines, renamed tags, flipped characters, pieces of other files. Deterministic: the same
`random.Random` state gives the same input, so every finding can be replayed."""
from __future__ import annotations

import random
import re
from xml.sax.saxutils import escape, quoteattr

NUMBERS = ("nan", "inf", "-inf", "NaN", "1e400", "-1e400", "1e309", "1e-320", "0", "-0", "-0.0",
           "2147483647", "2147483648", "-2147483649", "4294967296", "9223372036854775807",
           "100000000000", "1e9", "1e38", "1e308", "-1", "0.0000001", "99999999999999999999999",
           "1" + "0" * 400, "16385", "100000", "0x10", "1,5", "")

STRINGS = ("../../../../../../../../etc/passwd", "/etc/passwd", "C:\\Windows\\win.ini",
           "\\\\server\\share\\x", "shaders/../../../x.glsl", '"\\U00110000"', '"\\ud800"',
           "\ufffd", "\U00010000", "\u203f", "{DataContext}", "{DataContext.x}", "{0}", "{9}",
           "{../Nope/Emission.Rate}", "{./Emission.Rate}", "{@../Source/ParticleEmitter.EventBuffer}",
           "(" * 300 + "1" + ")" * 300, "+".join(["1"] * 2100), 'format("{:99999999999}", 1)',
           "1 & 9223372036854775807", "1 << 40", "x" * 3000, "Gravty", "Emitter_Pyramid",
           "ParticlesAssetPackage/Materials/Particles/Emitter_Box", "Materials/Swirl",
           "Screens/Screen/Nope", "", " ", "true", "True", "Verlet", "(0, 1)", "(1, 2, 3, 4, 5)",
           "Color4(1, 0, 0)", "Srt3D(1,1,1, 0,0,0, 0,0,0)", "#ff00ff", "#zz")

SNIPPETS = (
    '<Foo\ufffd name="x"><Property name="A.B" junk="1">1</Property></Foo\ufffd>',
    '<Bar\U00010000 name="y"/>',
    '<Child name="../../x"/>', '<Child name="missing"/>',
    '<Alias name="a" target="../.."/>',
    '<Binding target="Emission.Rate">{../Nope/Emission.Rate}</Binding>',
    '<Binding target="ParticleEmitter.MaximumAmount">' + "(" * 250 + "1" + ")" * 250 + "</Binding>",
    '<Binding target="Emission.Rate">1 &amp; 100000000000</Binding>',
    '<BindingItem name="B"><Property name="BindingItem.Target">Emission.SourceEventBuffer</Property>'
    '<Property name="BindingItem.SourceExpression">{DataContext}</Property>'
    '<Property name="BindingItem.RawCode">{0}</Property><BindingSourceItem name="0">'
    '<Property name="BindingSourceItem.Item">Screens</Property>'
    '<Property name="BindingSourceItem.Source">Node.Width</Property></BindingSourceItem></BindingItem>',
    '<Property name="Emission.OffDuration">1e-320</Property>',
    '<Property name="ParticleSystem.Framerate">1e9</Property>',
    '<Property name="Node.Width">1e309</Property>',
    '<Property name="Particle.Texture">../../../../etc/passwd</Property>',
    '<Property name="Emission.Rate">nan</Property>',
    '<Property name="ParticleEmitter.MaximumAmount">99999999999</Property>',
    '<MaterialType name="M" slot="Affector" shader="/etc/passwd"/>',
    '<MaterialType name="N" slot="Affector" shader="../../../../etc/passwd"/>',
    "<!-- c -->", "&#x1F600;",
)
BROKEN = ('<!DOCTYPE x [<!ENTITY a "b">]>', "<![CDATA[ ]]> ]]>", "&#0;", "&undefined;", "<", "&",
          "</Project>", "<Project>")

TAGS = ("Project", "Screens", "Screen", "Scene", "ParticleSystem", "ParticleEmitter", "ParticleAffector",
        "ParticleCollider", "Property", "Binding", "BindingItem", "BindingSourceItem", "Child", "Alias",
        "Materials", "MaterialType", "PropertyType", "PropertyTypes", "Viewport2D", "Camera", "EmptyNode",
        "Foo", "x\ufffd")

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_TEXT = re.compile(r">([^<]*)<")
_ATTR = re.compile(r'(\s[\w.:-]+=)("[^"]*"|\'[^\']*\')')
_TAG = re.compile(r"<(/?)([A-Za-z_][\w.\-]*)")


def _pick_match(rng: random.Random, pattern: re.Pattern, text: str):
    found = list(pattern.finditer(text))
    return rng.choice(found) if found else None


def _hostile_text(rng: random.Random) -> str:
    return rng.choice(STRINGS + NUMBERS)


def mutate_project(text: str, rng: random.Random, others=()) -> str:
    """1 to 4 mutations of a project file's text."""
    for _ in range(rng.randint(1, 4)):
        text = rng.choice(_PROJECT_MUTATIONS)(text, rng, others)[:400_000]
    return text


def _number(text, rng, others):
    m = _pick_match(rng, _NUMBER, text)
    return text if m is None else text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]


def _element_text(text, rng, others):
    m = _pick_match(rng, _TEXT, text)
    if m is None:
        return text
    value = _hostile_text(rng)
    value = escape(value) if rng.random() < 0.8 else value        # now and then raw, unescaped
    return text[:m.start(1)] + value + text[m.end(1):]


def _attribute(text, rng, others):
    m = _pick_match(rng, _ATTR, text)
    return text if m is None else text[:m.start(2)] + quoteattr(_hostile_text(rng)) + text[m.end(2):]


def _snippet(text, rng, others):
    cuts = [m.start() for m in re.finditer("<", text)] or [0]
    at = rng.choice(cuts)
    return text[:at] + rng.choice(BROKEN if rng.random() < 0.2 else SNIPPETS) + text[at:]


def _lines(text, rng, others):
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i = rng.randrange(len(lines))
    j = min(len(lines), i + rng.randint(1, 6))
    kind = rng.random()
    if kind < 0.4:
        del lines[i:j]                                       # deleted lines
    elif kind < 0.7:
        lines[i:i] = lines[i:j] * rng.randint(1, 3)          # repeated lines
    else:
        k = rng.randrange(len(lines))                        # swapped lines
        lines[i], lines[k] = lines[k], lines[i]
    return "\n".join(lines)


def _tag(text, rng, others):
    """A tag renamed: every start and end tag of that name (now and then only one)."""
    m = _pick_match(rng, _TAG, text)
    if m is None:
        return text
    new = rng.choice(TAGS)
    if rng.random() < 0.15:
        return text[:m.start(2)] + new + text[m.end(2):]
    return re.sub(rf"<(/?){re.escape(m.group(2))}(?=[\s/>])", lambda t: f"<{t.group(1)}{new}", text)


def _chars(text, rng, others):
    if not text:
        return "<"
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.4:
            chars[i] = rng.choice('<>&"\'/={}()[]#;%\\\x00\ufffd\U00010000 \n\t0123456789.-eE')
        elif op < 0.7:
            del chars[i]
        else:
            chars.insert(i, rng.choice("<>&\"'{}()\n"))
        if not chars:
            break
    return "".join(chars)


def _splice(text, rng, others):
    if not others:
        return text
    other = rng.choice(others).split("\n")
    lines = text.split("\n")
    i, k = rng.randrange(len(lines) + 1), rng.randrange(len(other))
    return "\n".join(lines[:i] + other[k:k + rng.randint(1, 8)] + lines[i:])


_PROJECT_MUTATIONS = (_number, _number, _number, _element_text, _element_text, _element_text, _attribute,
                      _attribute, _snippet, _snippet, _lines, _tag, _chars, _splice)


# -- expressions --------------------------------------------------------------------------------

_EXPR_PIECES = ("(", ")", "+", "-", "*", "/", "&", "|", "^", "<<", ">>", "&&", "||", "!", "~", "?", ":",
                "==", "<", ">", ",", ".", "=", "\n", "#", '"', "'", "\\", "{", "}", "<./", ">",
                "x", "A", "1", "0", "2147483648", "1e400", "nan", "0.5", '"s"', "{./Emission.Rate}",
                "{DataContext.a}", "{0}", "max(", "clamp(", "format(", "int(", "string(", "sqrt(",
                "pow(", "splitString(", "createRotationZ(", "Vector3(", "Color4(", "Srt3D(", "mod(",
                "getCurrentValue()", "continueIf(", "abs(", "\ud800", "\ufffd", "{view x}")


def mutate_expression(text: str, rng: random.Random, others=()) -> str:
    """1 to 5 edits of an expression: pieces of the language inserted, deleted, repeated,
    nested; hostile numbers; parts of other expressions."""
    for _ in range(rng.randint(1, 5)):
        op = rng.random()
        i = rng.randint(0, len(text))
        if op < 0.35:
            text = text[:i] + rng.choice(_EXPR_PIECES) + text[i:]
        elif op < 0.5 and text:
            j = min(len(text), i + rng.randint(1, 8))
            text = text[:i] + text[j:]
        elif op < 0.6:
            m = _pick_match(rng, _NUMBER, text)
            if m:
                text = text[:m.start()] + rng.choice(NUMBERS[:24]) + text[m.end():]
        elif op < 0.7:
            n = rng.choice((5, 50, 199, 201, 400))
            text = "(" * n + text + ")" * n
        elif op < 0.8:
            text = " + ".join([text] * rng.choice((2, 10, 300)))
        elif op < 0.9 and others:
            other = rng.choice(others)
            text = text[:i] + other[:rng.randint(0, len(other))] + text[i:]
        else:
            text = f"{rng.choice(('A', 's', 'v'))} = {text}\n" + text
        text = text[:150_000]            # past the language's length limit, and bounded
    return text
