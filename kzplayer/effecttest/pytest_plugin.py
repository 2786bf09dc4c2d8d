"""pytest plugin (entry point `pytest11: kzplayer`): every `*.kztest.toml` under the paths
pytest collects becomes a file of test items, one per check, so a product's effects run in
the same session as its code. The spec is played once, on its first item; the others read
the results. `--kztest-update` rewrites the goldens. Importing this module is light: the
player is imported only when a spec runs."""
from __future__ import annotations

from pathlib import Path

import pytest

# The plugin is loaded into every pytest run where kzplayer is installed (entry point
# pytest11): kzplayer's stages are imported lazily, only once a *.kztest.toml is collected.

SUFFIX = ".kztest.toml"


def pytest_addoption(parser):
    group = parser.getgroup("kzplayer")
    group.addoption("--kztest-update", action="store_true", help="kzplayer: rewrite the golden pictures of *.kztest.toml specs")
    group.addoption("--kztest-artifacts", default="kztest-artifacts",
                    help="kzplayer: where failed pictures' difference strips go")


def pytest_collect_file(parent, file_path: Path):
    if file_path.name.endswith(SUFFIX):
        return KzTestFile.from_parent(parent, path=file_path)
    return None


def pytest_sessionfinish(session):
    import sys
    run = sys.modules.get("kzplayer.effecttest.run")
    if run is not None:
        run.release_context()


class KzTestFailure(Exception):
    pass


class KzTestFile(pytest.File):
    _result = None

    def collect(self):
        from kzplayer.effecttest.spec import read_spec      # lazy: see the top
        self.spec = read_spec(self.path)
        if self.spec.problems:
            yield KzTestItem.from_parent(self, name="spec", check=None)
            return
        for check in self.spec.checks:
            yield KzTestItem.from_parent(self, name=check.name, check=check)

    def result(self):
        if self._result is None:
            from kzplayer.effecttest.runner import Options, run_spec   # lazy: GL, see the top
            options = Options(update=self.config.getoption("kztest_update"),
                              artifacts=Path(self.config.getoption("kztest_artifacts")))
            self._result = run_spec(self.spec, options)
        return self._result


class KzTestItem(pytest.Item):
    def __init__(self, *, check, **kwargs):
        super().__init__(**kwargs)
        self.check = check

    def runtest(self):
        from kzplayer.validate.text import format_diagnostic    # lazy: see the top
        if self.check is None:
            raise KzTestFailure("\n".join(format_diagnostic(d) for d in self.parent.spec.problems))
        result = self.parent.result()
        outcome = next(o for o in result.outcomes if o.check is self.check)
        if not outcome.passed:
            mine = [d for d in result.diagnostics() if d.message.startswith(f"{self.check.kind}[{self.check.index}]:")]
            raise KzTestFailure("\n".join(format_diagnostic(d) for d in mine) or outcome.message)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, KzTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        line = self.check.span.line - 1 if self.check is not None else 0
        return self.path, line, self.name
