"""The examples of Kanzi's own reference pages, with the values they state: "Bindings
expressions reference" (Range functions, Accessor functions, Matrix and transformation
functions, Light uniform bindings) and "Using the light nodes" (Controlling light uniforms),
Kanzi 4.1 (docs.kanzi.com/4.1.0/en/working-with/...)."""
import pytest

from kzplayer.expr import ExprError, check, evaluate, infer, parse, to_text
from kzplayer.values import Color4, ItemRef, Matrix, Range, Srt2D, Srt3D, Vector

POINT_LIGHTS = "{##RenderPass/DrawObjectsRenderPass.PointLights}"
LIGHTS = {"Point Light 1": {"PointLightColor": Color4(1, 0.5, 0.25, 1), "Node.Opacity": 0.5,
                            "PointLightAttenuation": Vector((1, 0, 0))},
          "Point Light 2": {"PointLightColor": Color4(0, 1, 0, 1), "Node.Opacity": 0.5,
                            "PointLightAttenuation": Vector((1, 0.1, 0))},
          "Point Light 3": {"PointLightColor": Color4(0, 0, 1, 1), "Node.Opacity": 0.8,
                            "PointLightAttenuation": Vector((2, 0, 0.5))}}


class Lights:
    """A Draw Objects render pass with three point lights, drawing into arrays of `size`."""

    def __init__(self, size=2, values=None):
        self.size, self.values = size, values or {}

    def lookup(self, ref):
        if ref.property == "DrawObjectsRenderPass.PointLights":
            return Range(tuple(ItemRef(n) for n in LIGHTS))
        return self.values[(ref.path, ref.property)]

    def current_value(self):
        return None

    def read_property(self, item, name):
        return LIGHTS[item.path][name]

    def output_size(self):
        return self.size


def run(text, env=None):
    program = parse(text)
    assert program.diagnostics == [], [str(d) for d in program.diagnostics]
    assert parse(to_text(program)) == program          # the grammar prints back
    return evaluate(program, env or Lights()).value


# -- "Using the light nodes": Controlling light uniforms -------------------------------------

def test_default_light_binding_caps_the_view_at_the_uniform_array():
    text = f"pointLightsView = createView<OutputSize>({POINT_LIGHTS})\n{{pointLightsView ... PointLightColor}}"
    assert run(text, Lights(size=2)) == Range((Color4(1, 0.5, 0.25, 1), Color4(0, 1, 0, 1)))
    assert len(run(text, Lights(size=8))) == 3          # fewer lights than the array holds


def test_halving_red_and_green_of_each_point_light():
    text = (f"pointLightsView = createView<OutputSize>({POINT_LIGHTS})\n"
            "{pointLightsView ... PointLightColor} * Color4(0.5, 0.5, 1, 1)")
    assert run(text) == Range((Color4(0.5, 0.25, 0.25, 1), Color4(0, 0.5, 0, 1)))


def test_dimming_every_light_by_the_product_of_opacities():
    text = ("rangeA = {##RenderPass/DrawObjectsRenderPass.PointLights ... PointLightColor}\n"
            "rangeB = {##RenderPass/DrawObjectsRenderPass.PointLights ... Node.Opacity}\n"
            "totalOpacity = ...* rangeB\n"
            "rangeA * totalOpacity")
    k = 0.5 * 0.5 * 0.8
    assert run(text) == Range(tuple(Color4(*(c * k for c in v["PointLightColor"])) for v in LIGHTS.values()))


# -- Light uniform bindings --------------------------------------------------------------------

def test_adding_to_each_attenuation():
    text = (f"pointLightsView = createView<OutputSize>({POINT_LIGHTS})\n"
            "{pointLightsView ... PointLightAttenuation} + Vector3(0.5, 0.0, 0.0)")
    assert run(text, Lights(size=3)) == Range((Vector((1.5, 0, 0)), Vector((1.5, 0.1, 0)), Vector((2.5, 0, 0.5))))


def test_range_times_range_pairs_the_elements():
    text = ("rangeA = {##RenderPass/DrawObjectsRenderPass.PointLights ... PointLightColor}\n"
            "rangeB = {##RenderPass/DrawObjectsRenderPass.PointLights ... Node.Opacity}\n"
            "rangeA * rangeB")
    assert run(text) == Range(tuple(Color4(*(c * v["Node.Opacity"] for c in v["PointLightColor"]))
                                   for v in LIGHTS.values()))


@pytest.mark.parametrize("text, expected", [
    (f"createView({POINT_LIGHTS}, 1)", 1), (f"createView<2>({POINT_LIGHTS})", 2),
    (f"createView({POINT_LIGHTS}, 10)", 3), (f"createView<0>({POINT_LIGHTS})", 0)])
def test_create_view_lengths(text, expected):
    assert len(run(text)) == expected


def test_create_view_length_from_a_variable():
    text = f"length = {{./MyLengthProperty}}\npointLightsView = createView({POINT_LIGHTS}, length)\n" \
           "{pointLightsView ... PointLightColor}"
    assert len(run(text, Lights(values={(".", "MyLengthProperty"): 1}))) == 1


def test_folds():
    assert run("...+ {##RenderPass/DrawObjectsRenderPass.PointLights ... Node.Opacity}") == pytest.approx(1.8)
    assert run("r = createView<0>({##RenderPass/DrawObjectsRenderPass.PointLights})\n...* {r ... Node.Opacity}") == 1
    with pytest.raises(ExprError) as e:
        run("r = createView<0>({##RenderPass/DrawObjectsRenderPass.PointLights})\n...- {r ... Node.Opacity}")
    assert e.value.diagnostic.rule == "expr.value"


def test_output_size_needs_a_uniform_array():
    class NoArray(Lights):
        def output_size(self):
            return None
    with pytest.raises(ExprError) as e:
        run(f"createView<OutputSize>({POINT_LIGHTS})", NoArray())
    assert e.value.diagnostic.rule == "expr.not-evaluable"


# -- Range functions: evaluate, splitString ----------------------------------------------------

def test_evaluate_steps_the_iterator():
    assert run('myRange = splitString("one,two,three", ",")\nevaluate(myRange)\nstring(evaluate(myRange))') == "two"
    assert run('myRange = splitString("one, two, three", ", ")\nevaluate(myRange)\nevaluate(myRange)\n'
               'string(myRange)') == "three"


def test_evaluate_a_location_leaves_it():
    assert run('r = splitString("100, 50", ",")\nx = evaluate(r)\ny = evaluate(r)\n'
               'Vector2(float(x), float(y))') == Vector((100, 50))
    assert run('r = splitString("a,b,c", ",")\nx = evaluate(r)\nstring(evaluate(x)) + string(x)') == "ba"


def test_split_text_into_a_translation():
    text = ("renderTransformation = getCurrentValue()\n"
            'stringRange = splitString({@../Text Box 2D/TextConcept.Text}, ",")\n'
            "renderTransformation.translationX = float(stringRange)\n"
            "evaluate(stringRange)\n"
            "renderTransformation.translationY = float(stringRange)\n"
            "renderTransformation")

    class Text(Lights):
        def lookup(self, ref):
            return "100, 50"

        def current_value(self):
            return Srt2D()
    assert run(text, Text()).translation == (100, 50)


def test_colors_from_a_text_range():
    text = ('colors = splitString("0.25 0.5 0.75", " ")\ncolor = Color4(0,0,0,1)\n'
            "color.r = float(string(evaluate(colors)))\ncolor.g = float(string(evaluate(colors)))\n"
            "color.b = float(string(evaluate(colors)))\ncolor")
    assert run(text) == Color4(0.25, 0.5, 0.75, 1)


# -- Accessor functions ----------------------------------------------------------------------------

M3 = "myMatrix = Matrix3(0, 1, 2,  3, 4, 5,  6, 7, 8)\n"


@pytest.mark.parametrize("text, expected", [
    (M3 + "getField(myMatrix, 2)", 2.0),
    ("myVector = Vector4(0, 1, 2, 3)\ngetField(myVector, 1)", 1.0),
    (M3 + "setField(myMatrix, 5, 0)", Matrix((0, 1, 2, 3, 4, 0, 6, 7, 8))),
    (M3 + "setField(myMatrix, 5, 0)\nmyMatrix", Matrix((0, 1, 2, 3, 4, 0, 6, 7, 8))),
    (M3 + "getRow(myMatrix, 2)", Vector((2, 5, 8))),
    (M3 + "setRow(myMatrix, 2, Vector3(9, 10, 11))\ngetRow(myMatrix, 2)", Vector((9, 10, 11))),
    (M3 + "setRow(myMatrix, 2, Vector3(9, 10, 11))", Matrix((0, 1, 9, 3, 4, 10, 6, 7, 11))),
    (M3 + "getColumn(myMatrix, 2)", Vector((6, 7, 8))),
    (M3 + "setColumn(myMatrix, 2, Vector3(9, 10, 11))", Matrix((0, 1, 2, 3, 4, 5, 9, 10, 11))),
    ("v = Vector3(1, 2, 3)\nsetField(v, 0, 7)\nv", Vector((7, 2, 3)))])
def test_accessors(text, expected):
    assert run(text) == expected


@pytest.mark.parametrize("text", [M3 + "getField(myMatrix, 9)", M3 + "getRow(myMatrix, -1)",
                                  M3 + "getColumn(myMatrix, 1.5)"])
def test_accessor_index_out_of_range(text):
    with pytest.raises(ExprError) as e:
        run(text)
    assert e.value.diagnostic.rule == "expr.value"


@pytest.mark.parametrize("text", [M3 + "setRow(myMatrix, 0, Vector4(1, 2, 3, 4))", "getRow(Vector3(1, 2, 3), 0)",
                                  "getField(1.5, 0)"])
def test_accessor_types_are_checked(text):
    assert [d.rule for d in check(parse(text))] == ["expr.type"]


# -- Matrix and transformation functions ---------------------------------------------------------

def test_extract_srt():
    assert run("extractSRT2D(Matrix3(1, 0, 0,  0, 1, 0,  100, 100, 1))") == Srt2D((1, 1), 0, (100, 100))
    assert run("extractSRT3D(Matrix4(1, 0, 0, 0,  0, 0, 1, 0,  0, -1, 0, 0,  2, 2, 0, 1))") == \
        Srt3D((1, 1, 1), (90, 0, 0), (2, 2, 0))


# -- the checker on ranges ---------------------------------------------------------------------------

def node_list(ref):
    return "range<item>" if ref.property == "DrawObjectsRenderPass.PointLights" else "float"


def light_type(name):
    return {"PointLightColor": "color4", "Node.Opacity": "float"}.get(name)


def test_range_types_name_their_elements():
    text = f"v = createView<OutputSize>({POINT_LIGHTS})\n{{v ... PointLightColor}} * 0.5"
    assert infer(parse(text), node_list, property_type=light_type) == ("range<color4>", [])
    assert infer(parse(f"{{{POINT_LIGHTS[1:-1]} ... Unknown}}"), node_list, property_type=light_type)[0] == "range"
    assert infer(parse(f"...* {{{POINT_LIGHTS[1:-1]} ... Node.Opacity}}"), node_list,
                 property_type=light_type)[0] == "float"


@pytest.mark.parametrize("text, rule", [
    (f'{{{POINT_LIGHTS[1:-1]} ... PointLightColor}} + "x"', "expr.type"),
    ("x = 2\n{x ... PointLightColor}", "expr.type"),
    ('r = splitString("a", ",")\n{r ... PointLightColor}', "expr.type"),
    (f"createView<Many>({POINT_LIGHTS})", "expr.arguments"),
    ("createView(1)", "expr.type"),
    ("...* 3", "expr.type"),
    (f"{{{POINT_LIGHTS[1:-1]} ... Node.Opacity}} && true", "expr.type")])
def test_range_mistakes(text, rule):
    found = check(parse(text), node_list, property_type=light_type)
    assert [d.rule for d in found] == [rule], [str(d) for d in found]
