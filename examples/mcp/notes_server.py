#!/usr/bin/env python3
"""A small MCP stdio server for the demo and docs/mcp.md: notes kept in a directory.

Tools: read_note {name}, list_notes {}, delete_note {name}. It trusts its arguments, as many
servers do: a name like "../x" reads outside the directory, and delete_note deletes. Behind
`assay mcp wrap` a policy decides which calls reach it.

usage: notes_server.py DIRECTORY
"""
import json
import os
import sys

root = sys.argv[1]
NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
TOOLS = [
    {"name": "read_note", "description": "Read a note by name.", "inputSchema": NAME},
    {"name": "list_notes", "description": "List the notes.", "inputSchema": {"type": "object"}},
    {"name": "delete_note", "description": "Delete a note by name.", "inputSchema": NAME},
]


def call(name, args):
    if name == "list_notes":
        return "\n".join(sorted(os.listdir(root)))
    path = os.path.join(root, args["name"])
    if name == "read_note":
        with open(path) as f:
            return f.read()
    if name == "delete_note":
        os.remove(path)
        return "deleted " + args["name"]
    raise KeyError(name)


def main():
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" not in msg or "method" not in msg:
            continue
        method, result = msg["method"], None
        if method == "initialize":
            result = {"protocolVersion": msg["params"].get("protocolVersion", "2025-06-18"),
                      "capabilities": {"tools": {}}, "serverInfo": {"name": "notes", "version": "1.0.0"}}
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            p = msg["params"]
            try:
                result = {"content": [{"type": "text", "text": call(p["name"], p.get("arguments") or {})}]}
            except (OSError, KeyError) as e:
                result = {"content": [{"type": "text", "text": str(e)}], "isError": True}
        if result is None:
            reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}}
        else:
            reply = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
