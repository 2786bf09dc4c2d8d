#!/usr/bin/env python3
"""Thin runner so `python cli.py ...` works from a checkout; the installed command is `kzplayer`."""
from kzplayer.cli import main

if __name__ == "__main__":
    main()
