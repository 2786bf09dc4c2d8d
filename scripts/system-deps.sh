#!/usr/bin/env bash
# What `make` needs before it can create .venv: Python 3.11+ with venv, and an OpenGL 4.3
# context, which without a GPU is Mesa's llvmpipe through EGL. Installs what is missing when
# we are allowed to (root + apt); otherwise says what to install. ffmpeg comes from the
# imageio-ffmpeg wheel. Usage: scripts/system-deps.sh [PYTHON]
set -u
PY="${1:-python3}"
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
apt_install() {
  echo "installing: $*"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  found=$(command -v "$PY" >/dev/null && "$PY" --version 2>&1 | head -n 1)
  echo "error: kzplayer needs Python 3.11 or newer; '$PY' is ${found:-not installed}." >&2
  echo "       Install one and run: make PYTHON=python3.11 (or python3.12 ...)" >&2
  exit 1
fi
if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null; then
  venv_pkg="python$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')-venv"
  if can_install; then
    apt_install "$venv_pkg"
  else
    echo "error: '$PY' cannot create a virtual environment; install $venv_pkg (Debian/Ubuntu)." >&2
    exit 1
  fi
fi

have() { ldconfig -p 2>/dev/null | grep -q "$1"; }
if ! { have libEGL_mesa.so && have libGL.so.1; }; then
  pkgs="libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri libgles2"
  if can_install; then
    apt_install $pkgs
  else
    echo "warning: Mesa EGL/OpenGL libraries not found; install: $pkgs (or your GPU driver)" >&2
  fi
fi

# The studio's tests (tests/studio/) drive Debian's chromium through Playwright (Playwright's
# own browser download is not used); with CI=true they fail without it.
if [ ! -x "${KZPLAYER_CHROMIUM:-/usr/bin/chromium}" ]; then
  if can_install; then
    apt_install chromium
  else
    echo "warning: chromium not found; the studio's browser tests need it: install chromium (Debian/Ubuntu)" >&2
  fi
fi

# The real-window test (tests/render/test_window_x11.py) opens a glfw window on Xvfb; with
# CI=true it fails without it.
if ! command -v Xvfb >/dev/null; then
  if can_install; then
    apt_install xvfb
  else
    echo "warning: Xvfb not found; the real-window test needs it: install xvfb (Debian/Ubuntu)" >&2
  fi
fi
