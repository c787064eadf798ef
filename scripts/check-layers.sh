#!/usr/bin/env bash
# The sans-IO layers (Sources/Protocol, Sources/HostLogic) import no sockets, no event
# loops, no OS input and no Foundation networking. Package.swift already keeps NIO out of
# them (they do not depend on it); this also keeps Glibc/Darwin and URLSession out.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=$(grep -rnE '^\s*(@testable\s+)?import\s+(NIO[A-Za-z]*|Glibc|Darwin|Musl|FoundationNetworking|Dispatch|Network|CX11|CAvahi|Hummingbird[A-Za-z]*)\b' \
      Sources/Protocol Sources/HostLogic || true)
if [[ -n "$bad" ]]; then
    echo "check-layers: a sans-IO file imports an I/O module:"; echo "$bad"
    echo "check-layers: 0 passed, 1 failed"; exit 1
fi
if grep -rn 'as? HostPipeline' Sources >/dev/null; then
    echo "check-layers: the host pipeline is reached by downcast (use the typed handle)"; exit 1
fi
echo "check-layers: the sans-IO layers import no I/O"
