// An MCP client this project did not write: the official TypeScript SDK's
// Client, driven by a JSON script, for the gateway's end-to-end tests.
//
//   node client.mjs SCRIPT.json   ->   one JSON document on stdout
//
// SCRIPT is {"sessions": [{"name", "transport", "steps"}]}. transport is
// {"kind": "stdio", "command", "args", "env"} or {"kind": "http", "url"}.
// Each step is {"op", ...}: listTools, callTool {name, arguments,
// progress?}, listResources, listResourceTemplates, readResource {uri},
// listPrompts, getPrompt {name, arguments}. The lists follow nextCursor to
// the end. Every step answers {"op", "result"} or {"op", "error"}; callTool
// with progress also collects the progress notifications it received.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const script = JSON.parse(readFileSync(process.argv[2], "utf8"));

function transportOf(t) {
  if (t.kind === "stdio") {
    return new StdioClientTransport({
      command: t.command,
      args: t.args ?? [],
      env: { ...process.env, ...(t.env ?? {}) },
      stderr: "ignore",
    });
  }
  if (t.kind === "http") {
    return new StreamableHTTPClientTransport(new URL(t.url));
  }
  throw new Error(`unknown transport ${t.kind}`);
}

async function all(fetchPage, key) {
  const items = [];
  let cursor;
  for (let page = 0; page < 100; page++) {
    const res = await fetchPage(cursor ? { cursor } : undefined);
    items.push(...res[key]);
    if (!res.nextCursor) return items;
    cursor = res.nextCursor;
  }
  throw new Error(`${key}: more than 100 pages`);
}

async function step(client, s) {
  switch (s.op) {
    case "listTools":
      return { tools: await all((p) => client.listTools(p), "tools") };
    case "callTool": {
      const progress = [];
      const opts = s.progress ? { onprogress: (p) => progress.push(p) } : undefined;
      const result = await client.callTool({ name: s.name, arguments: s.arguments ?? {} }, undefined, opts);
      return s.progress ? { result, progress } : { result };
    }
    case "listResources":
      return { resources: await all((p) => client.listResources(p), "resources") };
    case "listResourceTemplates":
      return { resourceTemplates: await all((p) => client.listResourceTemplates(p), "resourceTemplates") };
    case "readResource":
      return await client.readResource({ uri: s.uri });
    case "listPrompts":
      return { prompts: await all((p) => client.listPrompts(p), "prompts") };
    case "getPrompt":
      return await client.getPrompt({ name: s.name, arguments: s.arguments ?? {} });
    default:
      throw new Error(`unknown op ${s.op}`);
  }
}

async function run(session) {
  const client = new Client({ name: "mcpterm-e2e", version: "1.0.0" });
  const out = { name: session.name, steps: [] };
  try {
    await client.connect(transportOf(session.transport));
    out.server = client.getServerVersion();
    for (const s of session.steps) {
      try {
        out.steps.push({ op: s.op, result: await step(client, s) });
      } catch (e) {
        out.steps.push({ op: s.op, error: String(e?.message ?? e) });
      }
    }
  } catch (e) {
    out.error = String(e?.stack ?? e);
  } finally {
    await client.close().catch(() => {});
  }
  return out;
}

// Sessions run concurrently: they talk to separate servers.
const sessions = await Promise.all(script.sessions.map(run));
// Exit only once the output is flushed: stdout to a pipe is asynchronous.
process.stdout.write(JSON.stringify({ sessions }) + "\n", () => process.exit(0));
