#!/usr/bin/env bash
# Builds the workload tier's container images, since no registry is reachable, as docker-archive tarballs that
# `ctr images import` reads, into $KEYWARD_CACHE/images (default $HOME/.cache/keyward/images):
#   pause:    the pod sandbox, a static Go program (tools/pause) alone in its image (seconds)
#   keystone: Debian bookworm with Keystone 22 (OpenStack 2022.2), PyMySQL and uWSGI from Debian's packages, built with
#             mmdebstrap (minutes cold); the Keystone service's pods run it, and the tier's tests use its python3
#   keystone-next: the same from Debian trixie, Keystone 27 (OpenStack 2025.1): what an upgrade goes to
# Each image is named keyward.local/<name>:<tag>-<key>, where the key hashes what the image is built from (this script
# and the pause source), so a change to either builds a new image and an unchanged one is never rebuilt. A Keystone
# image's tag starts with its OpenStack release, as the Keystone object reads releases from tags.
# Prints one line per image: "<name> <reference> <tarball>".
# Usage: tools/build-images.sh [pause] [keystone] [keystone-next] (no argument: pause and keystone)
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
cache="${KEYWARD_CACHE:-$HOME/.cache/keyward}/images"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
mirror=http://deb.debian.org/debian
keystone_packages=python3-keystone,python3-pymysql,uwsgi-core,uwsgi-plugin-python3

key=$(cat "$0" "$tools/pause/main.go" "$tools/pause/go.mod" | sha256sum | cut -c1-12)

# reference NAME: the image's name and tag, the tag led by the release of a Keystone image.
reference() {
  case "$1" in
    keystone) echo "keyward.local/keystone:2022.2-$key" ;;
    keystone-next) echo "keyward.local/keystone:2025.1-$key" ;;
    *) echo "keyward.local/$1:$key" ;;
  esac
}

# write_archive NAME LAYER_TAR CONFIG_JSON_FRAGMENT OUT: a docker-archive with one layer and the image config
# fragment (the "config" object: Env, Cmd, WorkingDir) completed with the layer's digest.
write_archive() {
  local name=$1 layer=$2 config=$3 out=$4 work diff config_digest
  work=$(mktemp -d)
  diff=$(sha256sum "$layer" | cut -d' ' -f1)
  ln -s "$layer" "$work/layer.tar"
  printf '{"architecture":"amd64","os":"linux","config":%s,"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$config" "$diff" > "$work/config.json"
  config_digest=$(sha256sum "$work/config.json" | cut -d' ' -f1)
  mv "$work/config.json" "$work/$config_digest.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["layer.tar"]}]' \
    "$config_digest" "$(reference "$name")" > "$work/manifest.json"
  tar -C "$work" --dereference -cf "$out.partial" manifest.json "$config_digest.json" layer.tar
  mv "$out.partial" "$out"
  rm -rf "$work"
  # Images of older keys are never used again (a key is 12 hex digits, so "keystone-" does not match keystone-next's).
  find "$cache" -maxdepth 1 -name "$name-????????????.tar" ! -name "$name-$key.tar" -delete
}

build_pause() {
  local out="$cache/pause-$key.tar" work
  if [ ! -f "$out" ]; then
    echo "pause: building" >&2
    work=$(mktemp -d)
    (cd "$tools/pause" && go build -trimpath -ldflags "-s -w" -o "$work/root/pause" .)
    tar -C "$work/root" --numeric-owner --owner=0 --group=0 -cf "$work/layer.tar" pause
    write_archive pause "$work/layer.tar" '{"Entrypoint":["/pause"]}' "$out"
    rm -rf "$work"
  fi
  echo "pause $(reference pause) $out"
}

# build_keystone NAME SUITE: Keystone from one Debian release's packages.
build_keystone() {
  local name=$1 suite=$2 out="$cache/$1-$key.tar" work start
  if [ ! -f "$out" ]; then
    echo "$name: building a Debian $suite root filesystem (minutes cold)" >&2
    start=$(date +%s)
    work=$(mktemp -d)
    # Documentation and translations are left out: they are a third of the size and nothing reads them.
    mmdebstrap --quiet --variant=apt --include="$keystone_packages" \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' \
      --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
      "$suite" "$work/layer.tar" "$mirror" </dev/null >&2
    write_archive "$name" "$work/layer.tar" \
      '{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Cmd":["/bin/bash"]}' "$out"
    rm -rf "$work"
    echo "$name: built in $(( $(date +%s) - start ))s" >&2
  fi
  echo "$name $(reference "$name") $out"
}

mkdir -p "$cache"
images=("$@")
[ ${#images[@]} -gt 0 ] || images=(pause keystone)
for image in "${images[@]}"; do
  case "$image" in
    pause) build_pause ;;
    keystone) build_keystone keystone bookworm ;;
    keystone-next) build_keystone keystone-next trixie ;;
    *) echo "unknown image: $image (expected pause, keystone or keystone-next)" >&2; exit 2 ;;
  esac
done
