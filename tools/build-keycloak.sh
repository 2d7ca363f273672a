#!/usr/bin/env bash
# Downloads the Keycloak server distribution (org.keycloak:keycloak-quarkus-dist, the version in
# tools/keycloak/VERSION) from Maven Central with mvn, and builds it once with `kc.sh build` and the options in
# tools/keycloak/build-options, so that the test environment can start it with --optimized. Layout under
# $KEYWARD_CACHE (default $HOME/.cache/keyward):
#   maven/                                  mvn's local repository: the downloaded zip, and the plugin that fetched it
#   keycloak/<version>/build-<hash>/home    the built server (<hash>: the first 12 hex digits of the options
#                                           file's sha256; test/env/src/keycloak-dist.ts computes the same path)
#   keycloak/<version>/build-<hash>/java-home   the JDK it was built with and runs on
# Java: the newest JDK >= 21 on the machine ($JAVA_HOME or /usr/lib/jvm), else Debian's OpenJDK 17, which
# Keycloak 26 still runs on (installed when no Java 17+ is present). A complete build is skipped.
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
cache="${KEYWARD_CACHE:-$HOME/.cache/keyward}"
version=$(cat "$tools/keycloak/VERSION")
options_file="$tools/keycloak/build-options"
hash=$(sha256sum <"$options_file" | cut -c1-12)
out="$cache/keycloak/$version/build-$hash"
repo="$cache/maven"
zip="$repo/org/keycloak/keycloak-quarkus-dist/$version/keycloak-quarkus-dist-$version.zip"

say() { echo "keycloak $version: $*"; }

# apt_install PACKAGE...: for a fresh machine; waits for a dpkg lock that another installer holds.
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: $*; run as root: apt-get install -y --no-install-recommends $*" >&2
    exit 1
  fi
  say "installing $* from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null
  apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "$@" >/dev/null
}

# java_major HOME: the major version of HOME/bin/java, or nothing.
java_major() {
  [ -x "$1/bin/java" ] || return 0
  "$1/bin/java" -version 2>&1 | sed -n 's/.* version "\([0-9]*\).*/\1/p' | head -n 1
}

# choose_java_home: prints the newest JDK >= 21, else a Java 17.
choose_java_home() {
  local home major best="" best_major=0 fallback=""
  for home in ${JAVA_HOME:+"$JAVA_HOME"} /usr/lib/jvm/*; do
    major=$(java_major "$home")
    [ -n "$major" ] || continue
    if [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then best=$home; best_major=$major; fi
    if [ "$major" -eq 17 ] && [ -z "$fallback" ]; then fallback=$home; fi
  done
  echo "${best:-$fallback}"
}

java_home=$(choose_java_home)
if [ -z "$java_home" ]; then
  apt_install openjdk-17-jre-headless
  java_home=$(choose_java_home)
fi
[ -n "$java_home" ] || { echo "no Java 17 or newer found after installing openjdk-17-jre-headless" >&2; exit 1; }

if [ -f "$out/complete" ]; then
  # A JDK that has gone since the build is replaced by the one found now; the build does not depend on it.
  recorded=$(cat "$out/java-home" 2>/dev/null || true)
  if [ -z "$recorded" ] || [ -z "$(java_major "$recorded")" ]; then echo "$java_home" >"$out/java-home"; fi
  say "cached in $out (Java $(java_major "$(cat "$out/java-home")"))"
  exit 0
fi

missing=()
command -v mvn >/dev/null || missing+=(maven)
command -v unzip >/dev/null || missing+=(unzip)
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"

if [ ! -f "$zip" ]; then
  say "downloading keycloak-quarkus-dist with mvn"
  start=$(date +%s)
  mkdir -p "$repo"
  # -C: fail on a checksum mismatch instead of warning. Its output is shown only on failure.
  mvn -B -q -C -Dmaven.repo.local="$repo" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
    -Dtransitive=false -Dartifact="org.keycloak:keycloak-quarkus-dist:$version:zip" >"$repo/keycloak-download.log" 2>&1 ||
    { tail -n 30 "$repo/keycloak-download.log" >&2; exit 1; }
  say "downloaded in $(( $(date +%s) - start ))s"
fi

say "building with $(grep -v '^#' "$options_file" | xargs) on Java $(java_major "$java_home")"
start=$(date +%s)
work="$out.partial-$$"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
unzip -q "$zip" -d "$work"
mv "$work/keycloak-$version" "$work/home"
mapfile -t build_options < <(grep -v '^#' "$options_file" | grep -v '^[[:space:]]*$')
JAVA_HOME="$java_home" "$work/home/bin/kc.sh" build "${build_options[@]}" >"$work/build.log" 2>&1 ||
  { tail -n 30 "$work/build.log" >&2; exit 1; }
echo "$java_home" >"$work/java-home"
touch "$work/complete"
# A whole build appears at once; if a concurrent run finished first, its build stays (it may be in use).
if [ -f "$out/complete" ]; then
  say "built meanwhile by another run; keeping that one"
else
  rm -rf "$out"
  mv "$work" "$out"
  say "built in $(( $(date +%s) - start ))s into $out"
fi
