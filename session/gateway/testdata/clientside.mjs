// The official TypeScript SDK's Client with the client side declared:
// roots, sampling and elicitation, for the tests of what the gateway
// forwards (forward_sdk_test.go).
//
//   node clientside.mjs SCRIPT.json   ->   one JSON document on stdout
//
// SCRIPT is {"sessions": [{"name", "transport", "capabilities", "roots",
// "samplingReply", "elicitContent", "steps"}]}. capabilities is what the
// client declares (roots, sampling, elicitation: each answered by a handler
// that records what it was asked). Steps: callTool {name, arguments},
// setLoggingLevel {level}, waitLog {contains} (until a log message holding
// that text has arrived), setRoots {roots} (then roots/list_changed). The
// roots/list handler answers only once the first setLoggingLevel step is
// done, so a log message about the roots cannot arrive before the client
// listens for it.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

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
  return new StreamableHTTPClientTransport(new URL(t.url));
}

async function run(session) {
  const out = { name: session.name, steps: [], asked: { sampling: [], elicitation: [], roots: 0 } };
  const caps = session.capabilities ?? {};
  const client = new Client({ name: "sdk-clientside", version: "1.0.0" }, { capabilities: caps });
  let roots = session.roots ?? [];
  let listening;
  const listens = new Promise((resolve) => (listening = resolve));
  const logs = [];
  const waiters = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    const text = typeof n.params.data === "string" ? n.params.data : JSON.stringify(n.params.data);
    logs.push(text);
    for (const w of waiters.splice(0)) w();
  });
  if (caps.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      await listens;
      out.asked.roots++;
      return { roots };
    });
  }
  if (caps.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      out.asked.sampling.push(req.params);
      return { role: "assistant", content: { type: "text", text: session.samplingReply }, model: "sdk-model", stopReason: "endTurn" };
    });
  }
  if (caps.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      out.asked.elicitation.push(req.params);
      return { action: "accept", content: session.elicitContent ?? {} };
    });
  }
  const waitLog = async (text) => {
    while (!logs.some((l) => l.includes(text))) {
      await new Promise((resolve) => waiters.push(resolve));
    }
    return { log: logs.find((l) => l.includes(text)) };
  };
  try {
    await client.connect(transportOf(session.transport));
    for (const s of session.steps) {
      try {
        let result;
        switch (s.op) {
          case "callTool":
            result = await client.callTool({ name: s.name, arguments: s.arguments ?? {} });
            break;
          case "setLoggingLevel":
            result = await client.setLoggingLevel(s.level);
            listening();
            break;
          case "waitLog":
            result = await waitLog(s.contains);
            break;
          case "setRoots":
            roots = s.roots;
            result = await client.sendRootsListChanged();
            break;
          default:
            throw new Error(`unknown op ${s.op}`);
        }
        out.steps.push({ op: s.op, result: result ?? {} });
      } catch (e) {
        out.steps.push({ op: s.op, error: String(e?.message ?? e) });
      }
    }
  } catch (e) {
    out.error = String(e?.stack ?? e);
  } finally {
    listening();
    await client.close().catch(() => {});
  }
  return out;
}

const sessions = await Promise.all(script.sessions.map(run));
process.stdout.write(JSON.stringify({ sessions }) + "\n", () => process.exit(0));
