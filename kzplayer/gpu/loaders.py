"""The generated parameter loaders of a variant (kzplayer.gpu.variants): GLSL that assigns
its parameter globals from the system's parameter words, and its per-step globals from and
to the derived words the count program writes (docs/player.md, Parameters)."""
from __future__ import annotations

from kzplayer.gpu.variants import Variant, type_words


def loaders(v: Variant, bakes: dict) -> str:
    """`<prefix>load(b)` assigns the variant's parameter globals from words b, b+1, ...;
    `<prefix>loadStep(d)` / `storeStep(d)` its per-step globals from / to derived words.
    `bakes`: {(prefix, uniform): GLSL literal} compiled in instead (variants.zero_bakes)."""
    lines = [f"void {v.prefix}load(uint b) {{"]
    at = 0
    for u in v.uniforms:
        baked = bakes.get((v.prefix, u.name))
        value = baked if baked is not None else _from_param(u.type, f'b + {at}u')
        lines.append(f"    {v.prefix}{u.name} = {value};" + ("     // compiled in" if baked else ""))
        at += type_words(u.type)
    lines.append("}")
    if v.per_step:
        load = [f"void {v.prefix}loadStep(uint d) {{"]
        store = [f"void {v.prefix}storeStep(uint d) {{"]
        at = 0
        for name, type_ in v.per_step:
            words = [f"kz_scheduleWord(kz_derivedWords + d + {at + k}u)" for k in range(type_words(type_))]
            load.append(f"    {v.prefix}{name} = {_from_words(type_, words)};")
            for k, expr in enumerate(_to_words(f"{v.prefix}{name}", type_)):
                store.append(f"    kz_setScheduleWord(kz_derivedWords + d + {at + k}u, {expr});")
            at += type_words(type_)
        lines += load + ["}"] + store + ["}"]
    return "\n".join(lines)


def _from_param(glsl_type: str, at: str) -> str:
    name = {"float": "Float", "int": "Int", "uint": "", "bool": "Bool"}.get(glsl_type, glsl_type.capitalize())
    return f"kz_param{name}({at})"


def _from_words(glsl_type: str, words: list[str]) -> str:
    if glsl_type == "uint":
        return words[0]
    if glsl_type == "int":
        return f"int({words[0]})"
    if glsl_type == "bool":
        return f"({words[0]} != 0u)"
    floats = [f"uintBitsToFloat({w})" for w in words]
    if glsl_type == "float":
        return floats[0]
    if glsl_type.startswith(("ivec", "uvec")):
        cast = "int" if glsl_type[0] == "i" else ""
        return f"{glsl_type}({', '.join(f'{cast}({w})' if cast else w for w in words)})"
    return f"{glsl_type}({', '.join(floats)})"


def _to_words(expr: str, glsl_type: str) -> list[str]:
    n = type_words(glsl_type)
    if glsl_type == "uint":
        return [expr]
    if glsl_type in ("int", "bool"):
        return [f"uint({expr})"]
    if glsl_type == "float":
        return [f"floatBitsToUint({expr})"]
    if glsl_type.startswith("mat"):
        size = int(glsl_type[3])
        return [f"floatBitsToUint({expr}[{c}][{r}])" for c in range(size) for r in range(size)]
    if glsl_type.startswith(("ivec", "uvec")):
        return [f"uint({expr}[{k}])" for k in range(n)]
    return [f"floatBitsToUint({expr}[{k}])" for k in range(n)]


__all__ = ["loaders"]
