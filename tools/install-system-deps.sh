#!/usr/bin/env bash
# Installs the Debian packages the test environment runs (Keystone, MariaDB, uWSGI) when any is missing.
# The plain `keystone` package is avoided on purpose: it installs and starts a system service.
set -euo pipefail
packages=(python3-keystone python3-pymysql mariadb-server mariadb-client uwsgi-core uwsgi-plugin-python3)
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
echo "system packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
echo "system packages: installed"
