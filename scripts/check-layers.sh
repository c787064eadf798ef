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
# App reaches the engine through its API (HostEngine+API), never its core, and an output is
# found by its type (docs/ARCHITECTURE.md, "Outputs"), never by a cast.
cast=$(grep -rnE 'engine\.core\b|as\?\s*(any\s+)?(TextTypingBackend|OutputChoosingBackend|LaserOverlayHook|LaserOutput|TextOutput|HostOutput|InjectorOutput|VirtualPadOutput)\b|\bis\s+(DSUServerHandler|LaserOverlayHook|InjectorOutput|VirtualPadOutput)\b' \
       Sources/App Sources/CLI || true)
if [[ -n "$cast" ]]; then
    echo "check-layers: App reaches past the engine's API or finds an output by a cast:"; echo "$cast"; exit 1
fi
# Every @unchecked Sendable has its proof beside it (a comment just above or below that
# says why it is sound) and is listed by name in docs/ARCHITECTURE.md ("Ownership and concurrency").
unproven=$(python3 - <<'PY'
import pathlib, re
decl = re.compile(r'^\s*(?:[a-z]+\s+)*(?:class|struct|enum|actor)\s+(\w+)[^/\n]*@unchecked Sendable')
doc = pathlib.Path("docs/ARCHITECTURE.md").read_text()
for path in sorted(pathlib.Path("Sources").rglob("*.swift")):
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        m = decl.match(line)
        if not m:
            continue
        near = "\n".join(lines[max(0, i - 14):i] + lines[i + 1:i + 4])
        if not re.search(r"//.*(@unchecked Sendable|[Pp]roof|sound)", near):
            print(f"{path}:{i + 1}: {m.group(1)} is @unchecked Sendable without a proof comment beside it")
        if f"{m.group(1)}`" not in doc:
            print(f"{path}:{i + 1}: {m.group(1)} is @unchecked Sendable but docs/ARCHITECTURE.md does not list it")
PY
)
if [[ -n "$unproven" ]]; then
    echo "check-layers: $unproven"; exit 1
fi
echo "check-layers: the sans-IO layers import no I/O; every @unchecked Sendable has its proof and is listed"
