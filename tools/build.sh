#!/usr/bin/env bash
# Builds the Go binaries the test environment runs, each at the version pinned in its VERSION file,
# into $KEYWARD_CACHE/<component>/<version>/ (default $HOME/.cache/keyward):
#   kube: kube-apiserver and kube-controller-manager from k8s.io/kubernetes (10-30 minutes cold)
#   node: kubelet, kube-scheduler and kube-proxy from the same module, for the workload tier (minutes once kube is built)
#   etcd: etcd from go.etcd.io/etcd/server/v3 (about 2 minutes cold)
#   helm: helm from helm.sh/helm/v4 (6-11 minutes cold on 2 cores), which the chart's tests run
#   promtool: promtool from github.com/prometheus/prometheus, which runs the unit tests of the chart's alerts
#     (about 6 minutes of CPU cold; 18 minutes on a 2-core machine busy with other builds)
# A binary that already reports the pinned version is not rebuilt.
# Usage: tools/build.sh [kube] [node] [etcd] [helm] [promtool]
# (no argument: etcd and kube)
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
cache="${KEYWARD_CACHE:-$HOME/.cache/keyward}"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0

# reports_version BINARY TEXT: true when BINARY --version prints a line equal to TEXT.
reports_version() { [ -x "$1" ] && "$1" --version 2>/dev/null | grep -qx "$2"; }

# build_kube_binaries LABEL BINARY...: builds the named k8s.io/kubernetes commands at the pinned version into
# $cache/kube/<version>/ in one go build (shared compile), unless each already reports that version.
build_kube_binaries() {
  local label=$1 version minor out pkg start b missing=()
  shift
  version=$(cat "$tools/kube/VERSION")
  minor=${version#v1.}; minor=${minor%%.*}
  out="$cache/kube/$version"
  for b in "$@"; do
    reports_version "$out/$b" "Kubernetes $version" || missing+=("k8s.io/kubernetes/cmd/$b")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "$label $version: cached in $out"; return
  fi
  echo "$label $version: building $* (minutes cold on 2 cores)"
  start=$(date +%s)
  pkg=k8s.io/component-base/version
  mkdir -p "$out"
  (cd "$tools/kube" && go build -trimpath -tags selinux,notest,grpcnotrace \
    -ldflags "-s -w -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z" \
    -o "$out/" "${missing[@]}")
  echo "$label $version: built in $(( $(date +%s) - start ))s"
}

build_kube() { build_kube_binaries kube kube-apiserver kube-controller-manager; }

# The workload tier's node: kubelet, kube-scheduler and kube-proxy from the same module as the API server.
build_node() { build_kube_binaries node kubelet kube-scheduler kube-proxy; }

build_etcd() {
  local version out start
  version=$(cat "$tools/etcd/VERSION")
  out="$cache/etcd/$version"
  if reports_version "$out/etcd" "etcd Version: ${version#v}"; then
    echo "etcd $version: cached in $out"; return
  fi
  echo "etcd $version: building"
  start=$(date +%s)
  mkdir -p "$out"
  (cd "$tools/etcd" && go build -trimpath -ldflags "-s -w" -o "$out/etcd" .)
  echo "etcd $version: built in $(( $(date +%s) - start ))s"
}

build_helm() {
  local version out pkg start
  version=$(cat "$tools/helm/VERSION")
  out="$cache/helm/$version"
  if [ -x "$out/helm" ] && [ "$("$out/helm" version --template '{{.Version}}' 2>/dev/null)" = "$version" ]; then
    echo "helm $version: cached in $out"; return
  fi
  echo "helm $version: building"
  start=$(date +%s)
  pkg=helm.sh/helm/v4/internal/version
  mkdir -p "$out"
  (cd "$tools/helm" && go build -trimpath \
    -ldflags "-s -w -X $pkg.version=$version -X $pkg.metadata= -X $pkg.gitTreeState=clean" \
    -o "$out/helm" helm.sh/helm/v4/cmd/helm)
  echo "helm $version: built in $(( $(date +%s) - start ))s"
}

build_promtool() {
  local version out pkg start
  version=$(cat "$tools/promtool/VERSION")
  out="$cache/promtool/$version"
  if [ -x "$out/promtool" ] && "$out/promtool" --version 2>/dev/null | head -n 1 | grep -q "version $version "; then
    echo "promtool $version: cached in $out"; return
  fi
  echo "promtool $version: building"
  start=$(date +%s)
  pkg=github.com/prometheus/common/version
  mkdir -p "$out"
  (cd "$tools/promtool" && go build -trimpath -ldflags "-s -w -X $pkg.Version=$version" \
    -o "$out/promtool" github.com/prometheus/prometheus/cmd/promtool)
  echo "promtool $version: built in $(( $(date +%s) - start ))s"
}

components=("$@")
[ ${#components[@]} -gt 0 ] || components=(etcd kube)
for c in "${components[@]}"; do
  case "$c" in
    kube) build_kube ;;
    node) build_node ;;
    etcd) build_etcd ;;
    helm) build_helm ;;
    promtool) build_promtool ;;
    *) echo "unknown component: $c (expected kube, node, etcd, helm or promtool)" >&2; exit 2 ;;
  esac
done
