#!/usr/bin/env bash
# kzplayer needs an OpenGL 4.3 context. Without a GPU that is Mesa's llvmpipe through EGL.
# Install Mesa's EGL/GL libraries when they are missing and we are allowed to (root + apt);
# otherwise say what is missing. ffmpeg comes from the imageio-ffmpeg wheel.
set -u
have() { ldconfig -p 2>/dev/null | grep -q "$1"; }
if have libEGL_mesa.so && have libGL.so.1; then
  exit 0
fi
pkgs="libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri libgles2"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Mesa EGL/OpenGL: $pkgs"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null
else
  echo "warning: Mesa EGL/OpenGL libraries not found; install: $pkgs (or your GPU driver)" >&2
fi
