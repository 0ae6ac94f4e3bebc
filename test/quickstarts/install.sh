#!/usr/bin/env bash
# Installs the official client libraries that docs/quickstarts.md uses, for .ci/run: Debian's
# packages through apt-get (as root; a registry other than npm and Debian's is not reachable, so
# the Python, Go, Java and Ruby clients come from Debian), and googleapis + google-auth-library
# from npm into a folder outside the repository (never a project dependency). A client that
# cannot be installed is reported here and skipped, with its reason, by run.ts.
set -uo pipefail

NODE_CLIENT_DIR="${QUICKSTART_NODE_DIR:-${HOME:-/tmp}/.cache/local-calendar-emulator/quickstart-node}"
NPM_PACKAGES=(googleapis@188.0.0 google-auth-library@11.3.4)
# One group per language, installed apart, so that one that fails does not take the others along.
declare -A DEBIAN_PACKAGES=(
  [python]="python3-googleapi python3-google-auth-oauthlib"
  [go]="golang-go golang-google-api-dev golang-golang-x-oauth2-dev"  # used from /usr/share/gocode
  [java]="default-jdk-headless libgoogle-api-client-java libgoogle-http-client-java libgoogle-oauth-client-java"
  [ruby]="ruby ruby-google-api-client ruby-signet"
)

if [ ! -f "$NODE_CLIENT_DIR/node_modules/googleapis/package.json" ]; then
  mkdir -p "$NODE_CLIENT_DIR"
  npm install --prefix "$NODE_CLIENT_DIR" --no-save --no-audit --no-fund --loglevel=error "${NPM_PACKAGES[@]}" >/dev/null \
    || echo "npm could not install ${NPM_PACKAGES[*]}; the Node quickstart will be skipped"
fi

updated=no
log="$(mktemp)"
for language in python go java ruby; do
  missing=()
  for package in ${DEBIAN_PACKAGES[$language]}; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ "${#missing[@]}" -eq 0 ] && continue
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "not root or no apt-get: cannot install ${missing[*]}; the $language quickstart will be skipped"
    continue
  fi
  if [ "$updated" = no ]; then
    apt-get update -qq || echo "apt-get update failed"
    updated=yes
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    tail -n 5 "$log"
    echo "apt-get could not install ${missing[*]}; the $language quickstart will be skipped"
  fi
done
rm -f "$log"
exit 0
