"""The Player's clock: the effect's time against the wall's (pause and slow motion, the
window's Space, Up and Down keys; play --speed)."""
from __future__ import annotations

from dataclasses import dataclass

MIN_SPEED, MAX_SPEED = 0.1, 1.0
SPEEDS = (0.1, 0.25, 0.5, 1.0)          # the window's slow-motion steps (Up / Down)


def check_speed(speed: float) -> float:
    """A slow-motion factor, 0.1 to 1 (ValueError otherwise: NaN, 0, fast forward)."""
    speed = float(speed)
    if not MIN_SPEED <= speed <= MAX_SPEED:
        raise ValueError(f"{speed!r}: the speed is {MIN_SPEED:g} (slow motion) to {MAX_SPEED:g} (real time)")
    return speed


@dataclass
class Clock:
    """The effect's time against the wall's: `paused` stops it, `speed` scales it (0.25 is
    slow motion, 0.1 to 1); Player.step moves it on by hand either way."""
    paused: bool = False
    speed: float = 1.0

    def seconds(self, wall: float) -> float | None:
        """Effect seconds for `wall` seconds of the loop; None while paused."""
        return None if self.paused else float(wall) * self.speed

    def slower(self) -> None:
        """The next slower speed of SPEEDS (the window's Down key)."""
        self.speed = max([s for s in SPEEDS if s < self.speed - 1e-9] or [MIN_SPEED])

    def faster(self) -> None:
        """The next faster speed of SPEEDS, at most real time (the window's Up key)."""
        self.speed = min([s for s in SPEEDS if s > self.speed + 1e-9] or [MAX_SPEED])
