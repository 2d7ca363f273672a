#!/usr/bin/env bash
# Installs the Debian packages the test environment runs when any is missing. Usage: install-system-deps.sh [workloads]
#   (default) Keystone, MariaDB and uWSGI. The plain `keystone` package is avoided on purpose: it installs and starts a
#             system service. And OpenLDAP's slapd with ldap-utils, for the tests of LDAP user federation (they start
#             their own slapd; while apt runs, the policy-rc.d below keeps the package's service from starting).
#   workloads the opt-in workload tier's node: containerd, runc, the CNI plugins, iptables and conntrack (kube-proxy),
#             and mmdebstrap (image root filesystems). containerd ships a system service: while apt runs, a policy-rc.d
#             that refuses every start keeps it from starting (the tier runs its own containerd with its own state).
set -euo pipefail
case "${1:-identity}" in
  identity) packages=(python3-keystone python3-pymysql mariadb-server mariadb-client uwsgi-core uwsgi-plugin-python3 slapd ldap-utils) ;;
  workloads) packages=(containerd runc containernetworking-plugins iptables conntrack mmdebstrap) ;;
  *) echo "unknown package set: $1 (expected workloads or nothing)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages: ${missing[*]}; run as root: apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi
echo "system packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Both sets may be installed at once (the environment starts its parts in parallel): wait for the other's dpkg lock.
apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}" >/dev/null
echo "system packages: installed"
