// An MCP client this project did not write: the official TypeScript SDK's
// Client, driven by a JSON script, for the gateway's end-to-end tests.
//
//   node client.mjs SCRIPT.json   ->   one JSON document on stdout
//
// SCRIPT is {"sessions": [{"name", "transport", "steps"}]}. transport is
// {"kind": "stdio", "command", "args", "env"} or {"kind": "http", "url"}.
// Each step is {"op", ...}: listTools, callTool {name, arguments,
// progress?}, listResources, listResourceTemplates, readResource {uri},
// listPrompts, getPrompt {name, arguments}, kill {file} (SIGKILL to the
// pid written in file: an upstream's process, killed mid-session), writeFile
// {file} (creates it: tells a wrapper script to go on), callUntil
// {name, arguments, contains, timeoutMs} (callTool again until an answer
// that is no error and holds contains, or the deadline: the event a restart
// test waits on). The lists follow nextCursor to
// the end. Every step answers {"op", "result"} or {"op", "error"}; callTool
// with progress also collects the progress notifications the SDK handed its
// onprogress callback, and those that reached the transport before and after
// the answer (wire). The SDK runs notification handlers a microtask after the
// read that carried them and forgets a call's callback once its answer is
// settled, so the callback misses progress that arrives in the same read as
// the answer however well the server orders them (mcpterm's stdio servers
// hold an answer until the client has read the progress before it); wire is
// the order on the wire.
import { readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
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

// watchWire records, for the callTool pending on a session (steps run one at
// a time), the progress notifications the transport delivers before and
// after its answer.
function watchWire(transport) {
  const w = { call: null };
  const send = transport.send.bind(transport);
  transport.send = (m, opts) => {
    if (w.call && m.method === "tools/call") w.call.id = m.id;
    return send(m, opts);
  };
  const inner = transport.onmessage;
  transport.onmessage = (m, extra) => {
    const c = w.call;
    if (c && m.method === "notifications/progress") {
      const { progressToken, ...params } = m.params ?? {};
      (c.answered ? c.after : c.before).push(params);
    } else if (c && m.id !== undefined && m.id === c.id && ("result" in m || "error" in m)) {
      c.answered = true;
    }
    inner?.(m, extra);
  };
  return w;
}

async function step(client, s, wire) {
  switch (s.op) {
    case "listTools":
      return { tools: await all((p) => client.listTools(p), "tools") };
    case "callTool": {
      const progress = [];
      const opts = s.progress ? { onprogress: (p) => progress.push(p) } : undefined;
      const call = s.progress ? { id: undefined, answered: false, before: [], after: [] } : null;
      wire.call = call;
      const result = await client.callTool({ name: s.name, arguments: s.arguments ?? {} }, undefined, opts);
      // Late progress is counted until the session's next step starts.
      return s.progress ? { result, progress, wire: call } : { result };
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
    case "kill": {
      const pid = Number(readFileSync(s.file, "utf8").trim());
      if (!Number.isInteger(pid) || pid <= 1) throw new Error(`no pid in ${s.file}`);
      process.kill(pid, "SIGKILL");
      return { pid };
    }
    case "writeFile":
      writeFileSync(s.file, "");
      return {};
    case "callUntil": {
      const deadline = Date.now() + (s.timeoutMs ?? 60000);
      const failures = [];
      for (;;) {
        try {
          const result = await client.callTool({ name: s.name, arguments: s.arguments ?? {} });
          const text = JSON.stringify(result.content ?? []);
          if (!result.isError && text.includes(s.contains ?? "")) return { result, failures };
          failures.push(text.slice(0, 300));
        } catch (e) {
          failures.push(String(e?.message ?? e));
        }
        if (Date.now() > deadline) throw new Error(`no answer with ${JSON.stringify(s.contains)} in time: ${JSON.stringify(failures.slice(-3))}`);
        // The condition is the event: the answer itself says when the
        // upstream is back; this only spaces the tries.
        await sleep(50);
      }
    }
    default:
      throw new Error(`unknown op ${s.op}`);
  }
}

async function run(session) {
  const client = new Client({ name: "mcpterm-e2e", version: "1.0.0" });
  const out = { name: session.name, steps: [] };
  try {
    const transport = transportOf(session.transport);
    await client.connect(transport);
    const wire = watchWire(transport);
    out.server = client.getServerVersion();
    for (const s of session.steps) {
      wire.call = null;
      try {
        out.steps.push({ op: s.op, result: await step(client, s, wire) });
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
