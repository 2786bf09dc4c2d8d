"""One code per rule, everywhere: the validator's rule modules, the table, and what every
stage puts into a Diagnostic agree."""
import importlib
import pkgutil

from kzplayer.codes import CODES
from kzplayer.diagnostics import Diagnostic, Severity


def test_codes_are_unique_and_grouped():
    assert len(set(CODES.values())) == len(CODES)
    groups = {"file": "0", "xml": "0", "schema": "0", "item": "0", "path": "1", "binding": "1",
              "expr": "2", "property": "3", "material": "4", "subemitter": "5", "emitter": "5",
              "events": "5", "shader": "6", "mesh": "7", "texture": "7", "light": "7", "gpu": "9", "play": "9", "cli": "9", "internal": "0"}
    for rule, code in CODES.items():
        family = rule.split(".")[0]
        if family == "path" and rule == "path.outside-project":
            continue                      # a file-structure check that the loader makes
        assert code[2] == groups[family], (rule, code)


def test_validator_rule_modules_use_the_table():
    import kzplayer.validate.rules as rules
    for info in pkgutil.iter_modules(rules.__path__):
        mod = importlib.import_module(f"kzplayer.validate.rules.{info.name}")
        assert CODES[mod.RULE] == mod.CODE, mod.__name__


def test_diagnostic_takes_its_code_from_the_table():
    d = Diagnostic("KZ777", "binding.cycle", Severity.ERROR, "loop")
    assert d.code == "KZ105"
    assert Diagnostic("KZ777", "some.new-rule", Severity.NOTE, "x").code == "KZ777"
