#!/usr/bin/env python3
"""A minimal MCP stdio server for bench/mcp_latency.py: one tool, echo, answered at once.

It answers initialize, tools/list and tools/call of echo; a notification gets no answer. It does
as little as a server can, so that a round trip measures the transport and whatever sits in it.
"""
import json
import sys

TOOLS = {"tools": [{"name": "echo", "description": "Returns its text.",
                    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                                    "required": ["text"]}}]}


def main():
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        msg = json.loads(line)
        if "id" not in msg:
            continue
        method = msg.get("method")
        if method == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "echo", "version": "1"}}
        elif method == "tools/list":
            result = TOOLS
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": msg["params"]["arguments"]["text"]}]}
        else:
            out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"],
                                  "error": {"code": -32601, "message": "Method not found"}}).encode() + b"\n")
            out.flush()
            continue
        out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}).encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
