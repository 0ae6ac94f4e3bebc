#!/usr/bin/env bash
# Installs the official MCP TypeScript SDK (@modelcontextprotocol/sdk) for the MCP real-client run
# of .ci/run, from npm into a folder outside the repository (never a project dependency), as
# test/quickstarts/install.sh does for Google's clients. When it cannot be installed, run.ts
# prints the skip reason.
set -uo pipefail

MCP_CLIENT_DIR="${MCP_CLIENT_DIR:-${HOME:-/tmp}/.cache/local-calendar-emulator/mcp-client}"
SDK=@modelcontextprotocol/sdk@1.32.2

if [ ! -f "$MCP_CLIENT_DIR/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
  mkdir -p "$MCP_CLIENT_DIR"
  npm install --prefix "$MCP_CLIENT_DIR" --no-save --no-audit --no-fund --loglevel=error "$SDK" >/dev/null \
    || echo "npm could not install $SDK; the MCP client run will be skipped"
fi
exit 0
