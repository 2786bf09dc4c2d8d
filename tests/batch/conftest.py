"""The Ray tests' local instance (2 CPUs), started once for the session by the first test
that asks for it, and their marker."""
from __future__ import annotations

import os

import pytest

from tests.conftest import on_ci

from .common import REPO


def pytest_configure(config):
    config.addinivalue_line("markers", "ray: runs batches on a real local Ray instance (pip install 'kzplayer[ray]')")


@pytest.fixture(scope="session")
def ray_instance():
    """A local Ray of 2 CPUs whose workers import this checkout. Without Ray installed the
    Ray tests are skipped, saying so (on CI, CI=true, they fail: the extra is installed there)."""
    try:
        import ray
    except ImportError:
        if on_ci():
            pytest.fail("ray is not installed; CI installs kzplayer[test] which has it", pytrace=False)
        pytest.skip("ray is not installed (pip install 'kzplayer[ray]'); the Ray tests need it")
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": path, "KZPLAYER_NO_PROGRESS": "1"}})
    yield ray
    ray.shutdown()


@pytest.fixture(scope="session")
def sweep_on_two_workers(tmp_path_factory):
    """common.render_sweep() run once on the local pool with 2 workers: (its BatchResult, its
    output folder), for the tests that compare against it. Read it, never write into it."""
    from kzplayer import batch

    from .common import render_sweep
    out = tmp_path_factory.mktemp("sweep-two-workers")
    return batch.run(render_sweep(), out=out, workers=2), out
