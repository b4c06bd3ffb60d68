#!/usr/bin/env bash
# The container image and compose.yaml, proven on this machine (issue 34, ADR 020); run by .ci/run
# before `npm test`. Podman (runtime runc) builds the project's Containerfile unchanged against
# local stand-ins for the official base images (standins/standins.sh: no image registry is reachable
# here; real deployments pull the official images) and prints the image's size, failing above its
# 250 MB budget (issue 40), then:
#  1. one container, --read-only with a tmpfs /tmp and a volume on /data: /healthz, a page, the
#     HEALTHCHECK, tini as PID 1 and the server as user node, nothing writable but /data and /tmp;
#     the first Admin (ADMIN_EMAIL/ADMIN_PASSWORD) signs in and adds a partner, which is still
#     served after `podman restart`; a backup taken in the container restores into a new volume;
#     an image upload, a PDF and a letter's preview (what the bundles load lazily or leave in
#     node_modules); SIGTERM under a stream of contact posts loses no request (drain.ts);
#  2. compose.yaml and compose.instances.yaml validated by docker-compose (Debian's 1.29, which
#     checks them against the Compose schema) and run together by podman-compose: PostgreSQL
#     healthy, then app, then app2, behind Caddy (HTTPS for localhost from Caddy's own CA), which
#     sends requests to both; a card gift through the local Stripe fake recorded in PostgreSQL
#     (gift.ts).
# Without podman: skipped with the reason, except under CI=true, where it fails.
# Ports on the host: free ones, asked of the system (other servers on this machine take theirs
# where they find them).
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)

missing=()
for tool in podman runc podman-compose docker-compose debootstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${CI:-}" = true ]; then
    echo "container checks: FAIL: not installed: ${missing[*]} (apt-get install -y podman runc podman-compose docker-compose debootstrap)" >&2
    exit 1
  fi
  echo "container checks skipped: not installed: ${missing[*]} (apt-get install -y podman runc podman-compose docker-compose debootstrap)"
  exit 0
fi

# Podman, without its complaints that there is no systemd to run health checks on a timer.
pm() { podman --runtime runc "$@" 2> >(grep -v 'systemd connection' >&2); }
IMAGE=localhost/thv-site:test
APP=thv-check-app
VOLUME=thv-check-data
RESTORED=thv-check-restored
PROJECT=thv-check
PC=(podman-compose -p "$PROJECT" -f compose.yaml -f tests/container/compose.test.yaml)
tmp=$(mktemp -d /tmp/thv-container.XXXXXX)
step() { echo "container: $*"; }
fail() {
  echo "container checks: FAIL: $*" >&2
  pm logs --tail 30 "$APP" >&2 2>/dev/null || true
  exit 1
}
cleanup() {
  pm rm -f -t 0 "$APP" "$APP-restored" >/dev/null 2>&1 || true
  pm volume rm -f "$VOLUME" "$RESTORED" >/dev/null 2>&1 || true
  # What compose made for this project (by its label: `down` would need every variable set).
  local made
  made=$(podman ps -aq --filter "label=io.podman.compose.project=$PROJECT")
  [ -z "$made" ] || pm rm -f -t 10 $made >/dev/null 2>&1 || true
  made=$(podman volume ls -q --filter "label=io.podman.compose.project=$PROJECT")
  [ -z "$made" ] || pm volume rm -f $made >/dev/null 2>&1 || true
  pm network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true
}
mkdir -p "$tmp"
# This sandbox refuses Podman's default process limits (nofile 1048576, nproc at the host's) and
# crun cannot set limits at all: runc, with limits it accepts, for every podman (and podman-compose)
# command below.
cat > "$tmp/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=16384:16384"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$tmp/containers.conf"
free_port() { node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})"; }
APP_PORT=$(free_port) RESTORED_PORT=$(free_port) RELAY_PORT=$(free_port)
export TEST_PG_PORT=$(free_port) TEST_SITE_PORT=$(free_port)
trap 'cleanup; rm -rf "$tmp"' EXIT
cleanup

partners() { curl -fsS -H 'Cookie: lng=fr' "$1/partenaires"; }
wait_for() { # URL [curl options…]: up to 90 s for a 200
  local url=$1
  shift
  for _ in $(seq 1 180); do
    curl -fsS -o /dev/null "$@" "$url" 2>/dev/null && return 0
    sleep 0.5
  done
  return 1
}

# ——— Stand-ins and the image ———
tests/container/standins/standins.sh
# The machine's extra certificate authorities (an intercepting proxy before the npm registry) reach
# the build's npm through a mount that is not part of the image.
ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  printf 'cafile=/run/thv-host-ca/ca.crt\n' > "$tmp/npmrc"
  ca=(-v "$tmp/npmrc:/usr/local/etc/npmrc:ro" -v "$NODE_EXTRA_CA_CERTS:/run/thv-host-ca/ca.crt:ro")
fi
step "building the Containerfile against the stand-ins (--pull=never)"
build_started=$(date +%s)
previous=$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
pm build --pull=never --format docker --build-arg NODE_IMAGE=docker.io/library/node:24-bookworm-slim \
  --build-arg DEBIAN_IMAGE=docker.io/library/debian:bookworm-slim \
  "${ca[@]}" -t "$IMAGE" -f Containerfile . > "$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log" >&2; fail "the image did not build"; }
step "built in $(( $(date +%s) - build_started )) s"
# Size (issue 40): at most 250 MB (10^6 bytes, as Podman and Docker count), and what takes the room.
BUDGET_MB=250
bytes=$(pm image inspect --format '{{.Size}}' "$IMAGE")
base=$(pm image inspect --format '{{.Size}}' docker.io/library/debian:bookworm-slim)
echo "Image size: $(( (bytes + 500000) / 1000000 )) MB (budget $BUDGET_MB MB; base image debian:bookworm-slim $(( (base + 500000) / 1000000 )) MB)"
step "what takes the room (MB, on disk):"
pm run --rm --entrypoint sh "$IMAGE" -c 'du -sm /usr/local/bin/node /app/node_modules /app/build; du -sm /app/node_modules/* /app/node_modules/@*/* 2>/dev/null | sort -rn | head -6' | sed 's/^/    /'
[ "$bytes" -le $(( BUDGET_MB * 1000000 )) ] || fail "the image is $(( (bytes + 500000) / 1000000 )) MB, over its budget of $BUDGET_MB MB"
# The previous run's image, replaced by this one, goes (its build stage stays: the layer cache).
if [ -n "$previous" ] && [ "$previous" != "$(podman image inspect --format '{{.Id}}' "$IMAGE")" ]; then
  pm rmi "$previous" >/dev/null 2>&1 || true
fi

# ——— One container: read-only, tmpfs /tmp, a volume on /data ———
ADMIN_EMAIL=admin@example.org
ADMIN_PASSWORD='Conteneur-mot-de-passe-2026'
pm volume create "$VOLUME" >/dev/null
pm run -d --name "$APP" --read-only --tmpfs /tmp -v "$VOLUME:/data" -p 127.0.0.1:$APP_PORT:3000 \
  -e ADMIN_EMAIL="$ADMIN_EMAIL" -e ADMIN_PASSWORD="$ADMIN_PASSWORD" -e LOG_LEVEL=warn \
  -e SHUTDOWN_DRAIN_MS=3000 -e HTML_CACHE=off -e CONTACT_RATE_LIMIT=100000 "$IMAGE" >/dev/null
URL=http://127.0.0.1:$APP_PORT
wait_for "$URL/healthz" || fail "/healthz did not answer within 90 s"
step "/healthz: $(curl -fsS "$URL/healthz")"
# (Texts are captured before grep -q reads them: in a pipeline, grep -q's early exit could fail
# the writer with SIGPIPE, and pipefail the test.)
grep -q '<html' <<<"$(curl -fsSL "$URL/")" || fail "the home page was not served"
step "a page is served (GET / → HTML)"
pm healthcheck run "$APP" >/dev/null || fail "the image's HEALTHCHECK failed"
step "HEALTHCHECK: healthy"
pid1=$(pm exec "$APP" cat /proc/1/cmdline | tr '\0' ' ')
case "$pid1" in /usr/bin/tini*) ;; *) fail "PID 1 is not tini: $pid1" ;; esac
users=$(pm top "$APP" user args | tail -n +2)
echo "$users" | sed 's/^/    /'
grep -q 'node server.js' <<<"$users" || fail "no server process"
[ -z "$(awk '$1 != "node"' <<<"$users")" ] || fail "a process runs as another user than node"
step "PID 1 is tini, every process runs as user node (uid $(pm exec "$APP" id -u))"
pm exec "$APP" sh -c 'touch /app/x' 2>/dev/null && fail "/app is writable"
pm exec "$APP" sh -c 'touch /data/.w /tmp/.w && rm /data/.w /tmp/.w' || fail "/data or /tmp is not writable"
step "the root file system is read-only; /data and /tmp are writable"

# The back office: the first Admin from the environment signs in and adds a partner.
code=$(curl -sS -c "$tmp/jar" -o /dev/null -w '%{http_code}' -H "Origin: $URL" --data-urlencode "email=$ADMIN_EMAIL" --data-urlencode "password=$ADMIN_PASSWORD" "$URL/admin/login")
[ "$code" = 303 ] || fail "sign-in answered $code"
PARTNER="Partenaire du conteneur $(date +%s)"
code=$(curl -sS -b "$tmp/jar" -o /dev/null -w '%{http_code}' -H "Origin: $URL" --data-urlencode "name=$PARTNER" --data-urlencode 'logoUrl=https://example.org/logo.png' --data-urlencode 'website=https://example.org/conteneur' "$URL/admin/partners/new")
[ "$code" -lt 400 ] || fail "adding a partner answered $code"
grep -qF "$PARTNER" <<<"$(partners "$URL")" || fail "the new partner is not on /partenaires"
# What the image's bundles load lazily or leave in node_modules (scripts/image-bundle.js): an image
# uploaded to the media library (sharp), the attendance sheet as PDF (pdfkit and its fonts), a
# letter's preview (mjml).
node -e "$(cat <<'PNG'
const zlib = require('node:zlib'); const table = [];
for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; table[n] = c >>> 0; }
const crc = (b) => { let x = 0xffffffff; for (const v of b) x = table[(x ^ v) & 255] ^ (x >>> 8); return (x ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => { const head = Buffer.alloc(4); head.writeUInt32BE(data.length); const body = Buffer.concat([Buffer.from(type), data]); const tail = Buffer.alloc(4); tail.writeUInt32BE(crc(body)); return Buffer.concat([head, body, tail]); };
const w = 64, h = 48, header = Buffer.alloc(13); header.writeUInt32BE(w, 0); header.writeUInt32BE(h, 4); header[8] = 8; header[9] = 2;
const raw = Buffer.alloc((w * 3 + 1) * h); for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set([x * 4, y * 5, 128], y * (w * 3 + 1) + 1 + x * 3);
process.stdout.write(Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
PNG
)" > "$tmp/check.png"
upload=$(curl -sS -b "$tmp/jar" -H "Origin: $URL" -F "file=@$tmp/check.png;type=image/png" "$URL/admin/media/televerser")
grep -q '"ok":true' <<<"$upload" && grep -q '"width":64' <<<"$upload" || fail "uploading an image answered: $upload"
code=$(curl -sS -b "$tmp/jar" -o "$tmp/sheet.pdf" -w '%{http_code}' "$URL/admin/adhesions/assemblee/feuille.pdf")
[ "$code" = 200 ] && [ "$(head -c 5 "$tmp/sheet.pdf")" = '%PDF-' ] || fail "the attendance sheet (PDF) answered $code"
letter=$(curl -sS -b "$tmp/jar" -o /dev/null -w '%{redirect_url}' -H "Origin: $URL" --data-urlencode 'fr.subject=Lettre du conteneur' \
  --data-urlencode 'fr.body=Bonjour depuis le conteneur.' "$URL/admin/lettres/nouvelle")
letter=${letter%%\?*}
[ -n "$letter" ] || fail "writing a letter was refused"
grep -q 'Bonjour depuis le conteneur' <<<"$(curl -fsS -b "$tmp/jar" "$letter/apercu/fr")" || fail "the letter's preview (mjml) failed"
step "an uploaded image is resized (sharp), a PDF is made (pdfkit), a letter is rendered (mjml)"

pm restart "$APP" >/dev/null
wait_for "$URL/readyz" || fail "not ready again after podman restart"
grep -qF "$PARTNER" <<<"$(partners "$URL")" || fail "the partner did not survive podman restart"
step "a partner added in the back office is still served after podman restart"

# Backup in the running container, restored into a new volume, served from there.
pm exec "$APP" node build/cli/backup.js /data/backups/check.tar.gz | sed 's/^/    /'
pm volume create "$RESTORED" >/dev/null
pm cp "$APP:/data/backups/check.tar.gz" "$tmp/check.tar.gz"
chmod 644 "$tmp/check.tar.gz"
pm run --rm --read-only --tmpfs /tmp -v "$RESTORED:/data" -v "$tmp/check.tar.gz:/backup.tar.gz:ro" "$IMAGE" node build/cli/restore.js /backup.tar.gz | sed 's/^/    /'
pm run -d --name "$APP-restored" --read-only --tmpfs /tmp -v "$RESTORED:/data" -p 127.0.0.1:$RESTORED_PORT:3000 -e LOG_LEVEL=warn "$IMAGE" >/dev/null
wait_for http://127.0.0.1:$RESTORED_PORT/readyz || fail "the restored site did not start"
grep -qF "$PARTNER" <<<"$(partners "http://127.0.0.1:$RESTORED_PORT")" || fail "the restored site lacks the partner"
pm rm -f -t 10 "$APP-restored" >/dev/null
step "a backup taken in the container restores into an empty volume, partner included"

# SIGTERM under load.
npx tsx tests/container/drain.ts "$APP" "$APP_PORT" "$(pm volume inspect --format '{{.Mountpoint}}' "$VOLUME")" || fail "drain"

pm rm -f -t 0 "$APP" >/dev/null

# ——— compose.yaml ———
export APP_IMAGE=$IMAGE DOMAIN=localhost:$TEST_SITE_PORT ACME_EMAIL=webmaster@example.org HTTP_PORT=$(free_port) HTTPS_PORT=$(free_port)
export APP_SECRET=container-check-secret-0123456789abcdef POSTGRES_PASSWORD=container-check-password
export STRIPE_API_BASE=http://host.containers.internal:$RELAY_PORT LOG_LEVEL=info WEB_CONCURRENCY=1 ADMIN_EMAIL= ADMIN_PASSWORD=
docker-compose -f compose.yaml config > "$tmp/config.yaml" 2>/dev/null || fail "docker-compose config refused compose.yaml"
grep -q 'condition: service_healthy' "$tmp/config.yaml" || fail "the app does not wait for the database's health"
docker-compose -f compose.yaml -f compose.instances.yaml config > /dev/null 2>&1 || fail "docker-compose config refused compose.instances.yaml"
if (unset DOMAIN; docker-compose -f compose.yaml config >/dev/null 2>&1); then fail "compose.yaml accepted a missing DOMAIN"; fi
step "compose.yaml and compose.instances.yaml validated (docker-compose config); a missing DOMAIN is refused"

# With compose.instances.yaml: two app instances behind Caddy. podman-compose 1.0.3 (Debian 12)
# starts services in dependency order but does not wait for a condition, and this machine has no
# systemd to run health checks on a timer: each `service_healthy` condition is waited for here,
# with the health check run as the timer would run it: PostgreSQL, then app, then app2 and Caddy.
PC+=(-f compose.instances.yaml)
healthy_within() { # CONTAINER SECONDS
  for _ in $(seq 1 "$2"); do
    pm healthcheck run "$1" >/dev/null 2>&1 && return 0
    sleep 1
  done
  return 1
}
"${PC[@]}" up -d --no-build db > "$tmp/compose.log" 2>&1 || { cat "$tmp/compose.log" >&2; fail "compose: the database did not start"; }
healthy_within "${PROJECT}_db_1" 60 || fail "compose: PostgreSQL never became healthy"
step "compose: PostgreSQL healthy (pg_isready)"
"${PC[@]}" up -d --no-build app >> "$tmp/compose.log" 2>&1 || { cat "$tmp/compose.log" >&2; fail "compose: app did not start"; }
healthy_within "${PROJECT}_app_1" 120 || { pm logs --tail 20 "${PROJECT}_app_1" >&2; fail "compose: app never became healthy"; }
"${PC[@]}" up -d --no-build >> "$tmp/compose.log" 2>&1 || { cat "$tmp/compose.log" >&2; fail "compose: up failed"; }
healthy_within "${PROJECT}_app2_1" 120 || { pm logs --tail 20 "${PROJECT}_app2_1" >&2; fail "compose: app2 never became healthy"; }
step "compose: app healthy on PostgreSQL, then app2 (the first one migrated and seeded)"
for _ in $(seq 1 60); do
  pm cp "${PROJECT}_caddy_1:/data/caddy/pki/authorities/local/root.crt" "$tmp/caddy-root.crt" 2>/dev/null && break
  sleep 1
done
[ -s "$tmp/caddy-root.crt" ] || fail "compose: Caddy made no local certificate authority"
SITE=https://localhost:$TEST_SITE_PORT
wait_for "$SITE/readyz" --cacert "$tmp/caddy-root.crt" || { pm logs --tail 20 "${PROJECT}_app_1" >&2; pm logs --tail 20 "${PROJECT}_caddy_1" >&2; fail "compose: the site did not answer through Caddy"; }
# Caddy checks /readyz every 2 s: an instance it found not ready yet gets requests from the next
# check on. Requests until both instances have logged one (20 s at most).
reached() { grep -q '"path":"/caddy-spreads-' <<<"$(pm logs "${PROJECT}_$1_1" 2>&1)"; }
for i in $(seq 1 40); do
  curl -sS -o /dev/null --cacert "$tmp/caddy-root.crt" "$SITE/caddy-spreads-$i"
  if [ $((i % 4)) = 0 ] && reached app && reached app2; then break; fi
  sleep 0.5
done
for instance in app app2; do reached "$instance" || fail "compose: Caddy sent no request to $instance"; done
step "compose: Caddy spreads requests over app and app2"
headers=$(curl -fsS -D - -o /dev/null --cacert "$tmp/caddy-root.crt" "$SITE/")
grep -qi '^cross-origin-resource-policy: same-origin' <<<"$headers" || fail "compose: Caddy's headers are missing"
grep -qi '^strict-transport-security:' <<<"$headers" || fail "compose: no HSTS (the app did not see HTTPS through TRUST_PROXY)"
step "compose: the app on PostgreSQL answers through Caddy over HTTPS (certificate for localhost verified, Caddy's and the app's headers)"
SITE=$SITE APP_SECRET=$APP_SECRET DATABASE_URL="postgres://thv:$POSTGRES_PASSWORD@127.0.0.1:$TEST_PG_PORT/thv" RELAY_PORT=$RELAY_PORT \
  NODE_EXTRA_CA_CERTS="$tmp/caddy-root.crt" npx tsx tests/container/gift.ts || { pm logs --tail 30 "${PROJECT}_app_1" >&2; fail "compose: the gift"; }
cleanup

echo "container checks passed in $(( ($(date +%s) - started + 30) / 60 )) min ($(( $(date +%s) - started )) s)"
