"""One module per command of kzplayer/cli.py; each exposes `run(...)`."""
