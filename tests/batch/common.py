"""What the batch tests share: call jobs, a small render sweep, reading an output tree."""
from __future__ import annotations

from pathlib import Path

from kzplayer import batch
from kzplayer.batch.plan import Job

REPO = Path(__file__).resolve().parents[2]
FOUNTAIN = REPO / "sample_projects" / "demo_fountain.kzm"
NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"


def call(name: str, variant: str | None = None, timeout=None, memory=None, **options) -> Job:
    """A job running tests/batch/faults.py's `name` (options: what it reads from the job)."""
    return Job(kind="call", project="", name="faults", variant=variant or name,
               target=f"tests.batch.faults:{name}", options=tuple(sorted(options.items())),
               timeout=timeout, memory=memory)


def render_sweep(fmt: str = "gif") -> list[Job]:
    """3 rates x 2 seeds of the fountain, 12 frames at 96x54, and a validate job each."""
    return batch.plan(["render", "validate"], [FOUNTAIN],
                      batch.sweep([f"{NOZZLE}:Emission.Rate=20,60,180"], seeds=[1, 2]),
                      {"frames": 12, "size": "96x54", "format": fmt})


def tree(out: Path) -> dict[str, bytes]:
    """Every output file under out/KIND/ by its relative path (the markers and the results
    file hold timings and worker names, so they are left out)."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(Path(out).rglob("*"))
            if p.is_file() and p.name != ".done.json" and p.parent != Path(out)}
