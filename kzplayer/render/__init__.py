"""Pictures: the renderer, the frame loop (player.py) and its drivers (offline.py, window.py).

`kzplayer.render` is this package and also the scripts' render call:
`kzplayer.render("effect.kzm", "take.mp4", seconds=3)` is render/scripting.py's `render`
(docs/api.md, "Rendering"). The package is made callable, rather than a function put in its
place on `kzplayer`, because importing any module of it sets `kzplayer.render` back to the
package, and `kzplayer.render.player` must keep working.
"""
from __future__ import annotations

import sys
import types


class _RenderPackage(types.ModuleType):
    def __call__(self, *args, **kwargs):
        # lazy: the package stays light to import (scripting loads the whole frame loop)
        from kzplayer.render.scripting import render
        return render(*args, **kwargs)


sys.modules[__name__].__class__ = _RenderPackage
