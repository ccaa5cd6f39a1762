#!/usr/bin/env bash
# `npm run setup`: makes a bare machine ready for `npm start`. Needs no node_modules.
#   1. node-canvas builds from source (no prebuilt binary is reachable): installs its Debian
#      build dependencies when missing, with apt-get as root or through sudo; on a system
#      without apt-get it names what to install and stops.
#   2. With --redis (or SETUP_REDIS=1): makes sure a Redis server answers on 127.0.0.1:6379,
#      installing and starting one if need be (the storage tests use a real one; CI asks).
#   3. Installs the npm packages (`npm ci` from the lock file).
# --check reports what it would install and changes nothing. --help prints this.
set -euo pipefail
cd "$(dirname "$0")/.."

CANVAS_DEPS=(libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev librsvg2-dev libpixman-1-dev build-essential)
BREW_DEPS="pkg-config cairo pango libpng jpeg giflib librsvg"

check=0
redis="${SETUP_REDIS:-0}"
for arg in "$@"; do
  case "$arg" in
    --check | --dry-run) check=1 ;;
    --redis) redis=1 ;;
    -h | --help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "setup: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

say() { echo "setup: $*"; }

SUDO=""
apt_updated=0
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
      echo "setup: installing $* needs root: run as root, or install sudo, or run" >&2
      echo "  apt-get update && apt-get install -y $*" >&2
      exit 1
    fi
  fi
  # On a shared machine another install may hold apt's lock: wait for it (up to 5 minutes)
  # rather than fail at once.
  if [ "$apt_updated" = 0 ]; then $SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
}

# 1. node-canvas's system libraries.
if command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
  missing=()
  for pkg in "${CANVAS_DEPS[@]}"; do
    if dpkg -s "$pkg" >/dev/null 2>&1; then
      [ "$check" = 1 ] && say "present $pkg"
    else
      missing+=("$pkg")
      [ "$check" = 1 ] && say "missing $pkg"
    fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$check" = 1 ]; then say "would install ${missing[*]}"; else
      say "installing ${missing[*]} (node-canvas builds against them)"
      apt_install "${missing[@]}"
    fi
  else
    say "node-canvas's system libraries are installed"
  fi
elif pkg-config --exists cairo pangocairo librsvg-2.0 2>/dev/null; then
  say "no apt-get here; pkg-config finds cairo, pango and librsvg: going on"
else
  cat >&2 <<EOF
setup: node-canvas builds from source and needs cairo, pango, libjpeg, giflib, librsvg and
setup: pixman with their headers, and a C++ compiler. This system has no apt-get, so install
setup: them yourself, then run npm run setup again:
  macOS (Homebrew):  brew install $BREW_DEPS
  Fedora:            sudo dnf install gcc-c++ cairo-devel pango-devel libjpeg-turbo-devel giflib-devel librsvg2-devel
  Alpine:            apk add build-base cairo-dev pango-dev jpeg-dev giflib-dev librsvg-dev pixman-dev
  Debian, Ubuntu:    apt-get install ${CANVAS_DEPS[*]}
EOF
  exit 1
fi

# 2. Redis, only when asked: the bot itself runs without it (the embedded file store).
redis_answers() {
  # PING over bash's /dev/tcp, so this works before redis-tools is installed.
  exec 3<>/dev/tcp/127.0.0.1/6379 || return 1
  printf 'PING\r\n' >&3
  local reply=""
  read -r -t 2 reply <&3 || true
  exec 3>&- 3<&-
  [[ "$reply" == "+PONG"* ]]
}
if [ "$redis" = 1 ]; then
  if redis_answers 2>/dev/null; then
    say "redis answers on 127.0.0.1:6379"
  elif [ "$check" = 1 ]; then
    if command -v redis-server >/dev/null 2>&1; then say "would start redis-server"; else
      say "missing redis-server"; say "would install redis-server redis-tools and start it"
    fi
  else
    if ! command -v redis-server >/dev/null 2>&1; then
      command -v apt-get >/dev/null 2>&1 || { echo "setup: install redis-server (brew install redis)" >&2; exit 1; }
      say "installing redis-server"
      apt_install redis-server redis-tools
    fi
    say "starting redis-server on 127.0.0.1:6379"
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
    for _ in $(seq 1 50); do redis_answers 2>/dev/null && break; sleep 0.2; done
    redis_answers 2>/dev/null || { echo "setup: redis-server did not answer on 127.0.0.1:6379" >&2; exit 1; }
  fi
fi

# 3. The npm packages.
if [ "$check" = 1 ]; then
  if [ -f package-lock.json ]; then say "would run npm ci --no-audit --no-fund"; else say "would run npm install --no-audit --no-fund"; fi
  exit 0
fi
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
say "done: npm start runs the bot (or a terminal game without DISCORD_TOKEN)"
