"""Material type bindings: what their uniforms are, and the light uniform bindings evaluated
against a scene's lights.

Kanzi runs a material type's bindings for every node drawn with the material, `./` being that
node; kzplayer does not run them in the binding graph. They are still parsed and type-checked
here, with what is known about them:

* the uniform a binding fills: its type and array length (the material type's `uniforms`,
  `PointLightColor:color4[2]`, which an imported Kanzi Studio material type carries);
* `{##RenderPass/DrawObjectsRenderPass.PointLights}` (also `DirectionalLights`, `SpotLights`):
  the range of the light nodes of that type that the Draw Objects render pass lights the node
  with (Kanzi's "Controlling light uniforms");
* `{view ... PointLightColor}`: the light property of that name, whose type is the uniform's of
  that name (a light property type is bound to the uniform of its name), else the catalog's,
  else the type the project's light nodes hold.

A light uniform binding whose only inputs are those light lists is evaluated for each scene
with lights: Kanzi's Draw Objects render pass lights a scene with the lights a Gather Lights
render pass collects, by default every light node of the scene, in tree order ("Using lights
in rendering"); `createView<OutputSize>` caps the range at the uniform array's length. A Gather
Lights pass that takes its nodes from a Node List binding is not followed: kzplayer uses the
scene's lights.
"""
from __future__ import annotations

from dataclasses import dataclass

from kzplayer.bindings.programs import fold_source_fields, parse_program
from kzplayer.bindings.conversions import ConversionError, coerce
from kzplayer.bindings.problems import problem
from kzplayer.diagnostics import Severity
from kzplayer.expr import ExprError, evaluate, infer
from kzplayer.expr.types import normalize_type, sample
from kzplayer.values import ItemRef, Range, type_name

RENDER_PASS = "##RenderPass"
# Light properties Kanzi computes from the light node's transformation (the node's own value
# is a placeholder: every light of the demo projects holds (0, 0, 0) there, whatever its
# Layout Transformation): a binding reading them is Kanzi's to evaluate.
ENGINE_LIGHT_PROPERTIES = frozenset({"PointLightPosition", "DirectionalLightDirection",
                                     "SpotLightPosition", "SpotLightDirection"})
# a Draw Objects render pass's light lists -> the LightType of the light nodes in them
LIGHT_LISTS = {"DrawObjectsRenderPass.DirectionalLights": "DirectionalLight",
               "DrawObjectsRenderPass.PointLights": "PointLight",
               "DrawObjectsRenderPass.SpotLights": "SpotLight"}
LIGHT_NODE_TYPES = ("LightNode", "Light")       # Kanzi Studio's item type, the engine's class


def check(project, material, binding, program) -> list:
    """Type diagnostics of a material type binding: the program checked with the types of its
    light lists and light properties, and its result against the uniform it fills (a range
    fills a uniform array element by element; one value fills one uniform)."""

    def ref_type(ref):
        if light_list(binding, ref):
            return "range<item>"
        name = ref.property
        if ref.kind == "index":
            src = next((s for s in binding.sources if s.name == str(ref.index)), None)
            name = src.source if src is not None and not src.field else None
        spec = project.property_spec(name) if name else None
        return spec.type if spec is not None else None
    kind, length = uniforms(material).get(binding.target, (None, 1))
    result, found = infer(program, ref_type, target_type=kind,
                          property_type=light_property_type(project, material))
    result = normalize_type(result)
    if kind and result and not any(d.severity is Severity.ERROR for d in found):
        element = result[6:-1] if result.startswith("range<") else None if result == "range" else result
        try:
            if element is not None:
                coerce(sample(element), kind)
        except ConversionError as exc:
            many = f"an array of {length} " if length > 1 else ""
            found.append(problem("binding.type-mismatch", f"uniform {binding.target} is {many}{kind}: "
                                 f"{exc}", binding.expression_span or binding.span))
    return found


def uniforms(material) -> dict[str, tuple[str, int]]:
    """name -> (catalog type, array length) of the uniforms a material type's bindings fill."""
    out = {}
    for entry in (material.attributes.get("uniforms") or "").split():
        name, _, kind = entry.partition(":")
        length = 1
        if kind.endswith("]") and "[" in kind:
            kind, _, n = kind[:-1].partition("[")
            length = int(n) if n.isdigit() else 1
        if name and kind:
            out[name] = (kind, length)
    return out


def light_list(binding, ref) -> str | None:
    """The light list a reference of a material binding reads (`DrawObjectsRenderPass.PointLights`),
    in the expression or through the BindingSourceItem that a RawCode `{N}` names."""
    if ref.kind == "index":
        src = next((s for s in binding.sources if s.name == str(ref.index)), None)
        if src is not None and src.item.strip().rstrip("/") == RENDER_PASS and src.source in LIGHT_LISTS:
            return src.source
        return None
    if ref.path == RENDER_PASS and ref.property in LIGHT_LISTS:
        return ref.property
    return None


def lights_of(scene, kind: str) -> list:
    """The light nodes of one LightType below a scene, in tree order (hidden ones left out)."""
    return [i for i in scene.walk() if i.type in LIGHT_NODE_TYPES and str(i.get("LightType", "")) == kind
            and i.get("Node.Visible", True) is not False]


def light_property_type(project, material):
    """property_type for the checker: the type of a property that a view reads from lights."""
    own = uniforms(material)
    lights = [i for i in project.walk() if i.type in LIGHT_NODE_TYPES]

    def property_type(name):
        if name in own:
            return own[name][0]
        spec = project.property_spec(name)
        if spec is not None:
            return spec.type
        for light in lights:
            prop = light.properties.get(name)
            if prop is not None and prop.value is not None:
                try:
                    return type_name(prop.value)
                except TypeError:
                    return None
        return None
    return property_type


def scenes_with_lights(project) -> list:
    """The scenes under the project's screens (not prefabs' edit-time previews) holding lights."""
    out = []
    for item in project.walk():
        if item.type == "Scene" and not any(a.type.endswith("PrefabTemplate") for a in _ancestors(item)):
            if any(i.type in LIGHT_NODE_TYPES for i in item.walk()):
                out.append(item)
    return out


def _ancestors(item):
    node = item.parent
    while node is not None:
        yield node
        node = node.parent


@dataclass
class LightUniform:
    """One light uniform binding evaluated against the lights of one scene."""
    material: object
    binding: object
    scene: object
    value: object                 # a Range of the light property (capped at the array length)
    length: int                   # the uniform array's length


def evaluate_light_uniforms(project) -> list[LightUniform]:
    """Every light uniform binding of every material type that reads nothing but light lists,
    evaluated against the lights of each scene that has lights."""
    out = []
    scenes = scenes_with_lights(project)
    for material in (i for i in project.walk() if i.type.endswith("MaterialType")):
        table = uniforms(material)
        for b in material.bindings:
            runs_raw = bool((b.raw_code or "").strip())
            program = parse_program(b, "raw_code" if runs_raw else "expression")
            if program.diagnostics or not program.references:
                continue
            if runs_raw:
                program = fold_source_fields(program, b.sources)
            if not all(light_list(b, r) for r in program.references):
                continue
            length = table.get(b.target, (None, 1))[1]
            for scene in scenes:
                try:
                    value = evaluate(program, _LightEnv(project, b, scene, length)).value
                except ExprError:
                    continue
                out.append(LightUniform(material, b, scene, value, length))
    return out


class _LightEnv:
    def __init__(self, project, binding, scene, length: int):
        self.project, self.binding, self.scene, self.length = project, binding, scene, length

    def lookup(self, ref):
        kind = LIGHT_LISTS[light_list(self.binding, ref)]
        return Range(tuple(ItemRef(light.path) for light in lights_of(self.scene, kind)))

    def current_value(self):
        raise LookupError("a uniform has no current value here")

    def read_property(self, item: ItemRef, name: str):
        if name in ENGINE_LIGHT_PROPERTIES:
            raise LookupError(f"{name} is computed by Kanzi from the light's transformation")
        light = self.project.find(item.path)
        value = light.get(name) if light is not None else None
        if value is None:
            raise LookupError(f"{item.path} has no {name}")
        return value

    def output_size(self) -> int:
        return self.length
