#!/usr/bin/env bash
# Builds the Go binaries the test environment runs, each at the version pinned in its VERSION file,
# into $KEYWARD_CACHE/<component>/<version>/ (default $HOME/.cache/keyward):
#   kube: kube-apiserver and kube-controller-manager from k8s.io/kubernetes (10-30 minutes cold)
#   etcd: etcd from go.etcd.io/etcd/server/v3 (about 2 minutes cold)
#   helm: helm from helm.sh/helm/v4 (6-11 minutes cold on 2 cores), which the chart's tests run
# A binary that already reports the pinned version is not rebuilt. Usage: tools/build.sh [kube] [etcd] [helm]
# (no argument: etcd and kube)
set -euo pipefail
tools=$(cd "$(dirname "$0")" && pwd)
cache="${KEYWARD_CACHE:-$HOME/.cache/keyward}"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0

# reports_version BINARY TEXT: true when BINARY --version prints a line equal to TEXT.
reports_version() { [ -x "$1" ] && "$1" --version 2>/dev/null | grep -qx "$2"; }

build_kube() {
  local version minor out pkg start
  version=$(cat "$tools/kube/VERSION")
  minor=${version#v1.}; minor=${minor%%.*}
  out="$cache/kube/$version"
  if reports_version "$out/kube-apiserver" "Kubernetes $version" &&
     reports_version "$out/kube-controller-manager" "Kubernetes $version"; then
    echo "kube $version: cached in $out"; return
  fi
  echo "kube $version: building kube-apiserver and kube-controller-manager (10-30 minutes cold on 2 cores)"
  start=$(date +%s)
  pkg=k8s.io/component-base/version
  mkdir -p "$out"
  (cd "$tools/kube" && go build -trimpath -tags selinux,notest,grpcnotrace \
    -ldflags "-s -w -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z" \
    -o "$out/" k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager)
  echo "kube $version: built in $(( $(date +%s) - start ))s"
}

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

components=("$@")
[ ${#components[@]} -gt 0 ] || components=(etcd kube)
for c in "${components[@]}"; do
  case "$c" in
    kube) build_kube ;;
    etcd) build_etcd ;;
    helm) build_helm ;;
    *) echo "unknown component: $c (expected kube, etcd or helm)" >&2; exit 2 ;;
  esac
done
