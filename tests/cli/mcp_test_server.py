#!/usr/bin/env python3
"""A small MCP stdio server for the gate's tests: it appends every byte it receives to LOG (so a
test can assert what reached it), answers initialize, tools/list (one tool, `echo`, whose
description is DESCRIPTION) and tools/call (echoing the arguments' "text"), and exits with
EXIT_CODE at the end of its input. A call to the tool `die` makes it kill itself with SIGTERM; a
call to `exit` makes it exit with status 7 at once.

usage: mcp_test_server.py LOG [DESCRIPTION] [EXIT_CODE]
"""
import json
import os
import signal
import sys

log_path = sys.argv[1]
description = sys.argv[2] if len(sys.argv) > 2 else "Echo the text back"
exit_code = int(sys.argv[3]) if len(sys.argv) > 3 else 0
SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
out = sys.stdout.buffer
inp = sys.stdin.buffer
with open(log_path, "ab", buffering=0) as log:
    for raw in inp:
        log.write(raw)
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(msg, dict) or "id" not in msg or "method" not in msg:
            continue
        m, i = msg["method"], msg["id"]
        if m == "initialize":
            result = {"protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-06-18"),
                      "capabilities": {"tools": {}}, "serverInfo": {"name": "assay-test-server", "version": "1.0.0"}}
        elif m == "tools/list":
            result = {"tools": [{"name": n, "description": description, "inputSchema": SCHEMA}
                                for n in ("echo", "die", "exit")]}
        elif m == "tools/call":
            name = msg["params"].get("name")
            if name == "die":
                os.kill(os.getpid(), signal.SIGTERM)
            if name == "exit":
                sys.exit(7)
            text = (msg["params"].get("arguments") or {}).get("text", "")
            result = {"content": [{"type": "text", "text": text}]}
        else:
            result = {}
        out.write(json.dumps({"jsonrpc": "2.0", "id": i, "result": result}).encode() + b"\n")
        out.flush()
sys.exit(exit_code)
