// The official TypeScript SDK's Client asking for completions and resource
// subscriptions, for the gateway's end-to-end tests (subscribe_test.go).
//
//   node compsub.mjs SCRIPT.json   ->   one JSON document on stdout
//
// SCRIPT is {"url", "steps"}: the client connects over streamable HTTP and
// runs each step: complete {ref, argument, context}, subscribe {uri},
// unsubscribe {uri}, callTool {name, arguments}, awaitUpdated {uri} (the
// first notifications/resources/updated for uri, received at any time
// since connecting, waiting at most 30 s). The output is {"capabilities",
// "steps": [{"op", "result"} or {"op", "error"}], "updated": [uri...]}.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const script = JSON.parse(readFileSync(process.argv[2], "utf8"));
const updated = [];
const waiters = [];
const client = new Client({ name: "mcpterm-compsub", version: "1.0.0" });
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  updated.push(n.params.uri);
  for (const w of waiters.splice(0)) w();
});

function awaitUpdated(uri) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no resources/updated for ${uri} in 30 s`)), 30000);
    const check = () => {
      if (updated.includes(uri)) {
        clearTimeout(timer);
        resolve({ uri });
      } else {
        waiters.push(check);
      }
    };
    check();
  });
}

async function step(s) {
  switch (s.op) {
    case "complete":
      return await client.complete({ ref: s.ref, argument: s.argument, ...(s.context ? { context: s.context } : {}) });
    case "subscribe":
      return await client.subscribeResource({ uri: s.uri });
    case "unsubscribe":
      return await client.unsubscribeResource({ uri: s.uri });
    case "callTool":
      return await client.callTool({ name: s.name, arguments: s.arguments ?? {} });
    case "awaitUpdated":
      return await awaitUpdated(s.uri);
    default:
      throw new Error(`unknown op ${s.op}`);
  }
}

const out = { steps: [] };
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(script.url)));
  out.capabilities = client.getServerCapabilities();
  for (const s of script.steps) {
    try {
      out.steps.push({ op: s.op, result: await step(s) });
    } catch (e) {
      out.steps.push({ op: s.op, error: String(e?.message ?? e) });
    }
  }
} catch (e) {
  out.error = String(e?.stack ?? e);
} finally {
  await client.close().catch(() => {});
}
out.updated = updated;
process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
