"""The browser studio (`kzplayer serve`, docs/studio.md): a local web server that plays a
project with the same Player as `play`, streams its frames to a page, and edits the project
through the model, the binding graph and the validator.

    session.py   the project being edited: edits with undo/redo, save, reload (no GL)
    ops.py       the value and binding edits, each with its inverse
    tree_ops.py  the tree edits (add, remove, rename, duplicate, move) and subemitter wiring
    panel.py     what the page shows of the model: the item tree, an item's property panel
    binding_check.py  a binding expression checked as it is typed: error column, value
    engine.py    the render thread: the one GL context, the Player, jobs, JPEG frames
    camera.py    the mouse's orbit and zoom around the Player's camera
    security.py  the token, the Origin and Host checks, size bounds, paths kept inside
    server.py    the starlette app: pages, the JSON API, the websocket
    watch.py     the project file watched for edits made outside the studio
"""
