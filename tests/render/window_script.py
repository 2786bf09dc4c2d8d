"""Run by tests/render/test_window_x11.py in a process of its own, with DISPLAY set to an Xvfb
server: a real glfw window (render/window.py, play_in_window) whose keys are pressed
through glfw's key callback by a scripted Keys, one batch per turn of the loop. Prints one
JSON object: per turn what the Player's clock and time were, the window's titles, and
whether the debug view's first glyph was on the screen."""
from __future__ import annotations

import json
import sys

import glfw
import numpy as np

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.render import window
from kzplayer.render.hud import CELL, PAD, font_atlas

SCRIPT = {2: ["SPACE"], 4: ["RIGHT", "RIGHT"], 6: ["LEFT"], 8: ["DOWN"], 10: ["H"], 13: ["H"], 15: ["R"]}
TURNS = 17
turns, titles, shown = [], [], []


class ScriptedKeys(window.Keys):
    turn = 0

    def apply(self, player, fps):
        for name in SCRIPT.get(self.turn, ()):
            self.on_key(None, getattr(glfw, f"KEY_{name}"), 0, glfw.PRESS, 0)
        super().apply(player, fps)
        turns.append({"turn": self.turn, "time": player.time, "frames": player.sim.frames,
                      "paused": player.clock.paused, "speed": player.clock.speed, "hud": self.hud})
        self.turn += 1
        self.player = player
        if self.turn >= TURNS:
            self.quit = True


keys = ScriptedKeys()
window.Keys = lambda hud=False: keys
swap, title = glfw.swap_buffers, glfw.set_window_title


def swapped(win):
    # the frame just drawn, before the swap: does the first glyph ('t') sit where the font says?
    w, h = glfw.get_framebuffer_size(win)
    ctx = keys.player.ctx
    data = ctx.screen.read(components=3, alignment=1)
    image = np.frombuffer(data, np.uint8).reshape(h, w, 3)[::-1]
    glyph = font_atlas()[:, (ord("t") - 32) * CELL[0]:(ord("t") - 31) * CELL[0]] > 0
    cell = image[PAD:PAD + CELL[1], PAD:PAD + CELL[0]]
    shown.append(bool((cell[glyph] == 255).all()))
    swap(win)


glfw.swap_buffers = swapped
glfw.set_window_title = lambda win, text: (titles.append(text), title(win, text))

project = kzplayer.load(str(kzplayer.sample(sys.argv[1] if len(sys.argv) > 1 else "demo_fountain.kzm")))
window.play_in_window(project, resolve(project), (320, 180), fps=30.0, seed=1)
print(json.dumps({"turns": turns, "titles": titles, "shown": shown}))
