// A session through the official MCP TypeScript SDK's client (mcp_sdk_test.py): it starts the
// command it is given (assay mcp wrap ... -- the filesystem server) over stdio, then initializes,
// lists the tools and makes the calls in the plan, and prints one JSON object: the tool names, and
// each call's raw result (or the error the SDK raised).
//
// usage: node mcp_sdk_client.mjs TOOLS_DIR PLAN.json
//   PLAN: {"command": [...], "calls": [{"name", "arguments", "via": "request" | "callTool"}]}
// "request" sends tools/call through Client.request with the SDK's CallToolResultSchema (the
// result as the server or the gate sent it); "callTool" through Client.callTool, which also
// checks structuredContent against the tool's outputSchema.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [tools, planFile] = process.argv.slice(2);
const sdk = (p) => import(pathToFileURL(join(tools, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", p)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { CallToolResultSchema } = await sdk("types.js");

const plan = JSON.parse(readFileSync(planFile, "utf8"));
const transport = new StdioClientTransport({ command: plan.command[0], args: plan.command.slice(1), stderr: "inherit" });
const client = new Client({ name: "assay-sdk-test", version: "1.0.0" });
const out = { calls: [] };
await client.connect(transport);
out.server = client.getServerVersion();
const listed = await client.listTools();
out.tools = listed.tools.map((t) => t.name);
for (const call of plan.calls) {
  try {
    const params = { name: call.name, arguments: call.arguments };
    const result =
      call.via === "callTool" ? await client.callTool(params) : await client.request({ method: "tools/call", params }, CallToolResultSchema);
    out.calls.push({ name: call.name, result });
  } catch (e) {
    out.calls.push({ name: call.name, error: { code: e.code ?? null, message: String(e.message) } });
  }
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
