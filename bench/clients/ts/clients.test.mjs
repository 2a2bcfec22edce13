// The TypeScript SDK's MCP clients against toolgen's default server
// (examples/conformance, built and started here): the 1.x client
// (@modelcontextprotocol/sdk, revisions up to 2025-11-25, so a session)
// and the 2.x client (@modelcontextprotocol/client, 2026-07-28, stateless).
// Each connects, lists, calls, answers sampling and elicitation, receives
// progress, and gets the result of a call whose stream the server closes.
// Run with `npm ci && node --test` in this folder (.ci/run does).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
let server, url, dir;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'toolgen-ts-clients-'));
  const bin = path.join(dir, 'conformance');
  execFileSync('go', ['build', '-o', bin, '.'], { cwd: path.join(here, '..', '..', '..', 'examples', 'conformance'), stdio: 'inherit' });
  server = spawn(bin, ['-addr', '127.0.0.1:0', '-history', 'memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  server.stderr.on('data', d => { logs += d; });
  url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', d => {
      out += d;
      const m = out.match(/Serving on (http:\/\/\S+?)\/\n/);
      if (m) resolve(m[1]);
    });
    server.on('exit', code => reject(new Error(`the server exited (${code}):\n${logs}`)));
  });
});

after(() => {
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sampled = { model: 'test-model', role: 'assistant', content: { type: 'text', text: '4, said the model' } };
const elicited = { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
const text = r => {
  assert.ok(!r.isError, JSON.stringify(r));
  return r.content[0].text;
};

// exercise runs the same checks with either client; call(params, onprogress)
// is the client's callTool.
async function exercise(client, call) {
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 10, `${tools.length} tools`);
  assert.ok(tools.some(t => t.name === 'test_sampling'));

  assert.equal(text(await call({ name: 'test_simple_text', arguments: {} })), 'This is a simple text response for testing.');
  assert.equal(text(await call({ name: 'test_sampling', arguments: { prompt: 'What is 2+2?' } })), 'LLM response: 4, said the model');
  assert.equal(text(await call({ name: 'test_elicitation', arguments: { message: 'Who are you?' } })),
    'User response: action=accept, content={"email":"ada@example.com","username":"ada"}');

  const progress = [];
  assert.equal(text(await call({ name: 'test_tool_with_progress', arguments: {} }, p => progress.push(p.progress))), 'Progress tool completed');
  assert.deepEqual(progress, [0, 50, 100]);

  // The server closes this call's stream mid-call; the client reconnects
  // (with Last-Event-ID, in a session) and still gets the result.
  assert.equal(text(await call({ name: 'test_reconnection', arguments: {} })), 'Reconnection test completed successfully.');

  // A tool error is a result, not a failure of the call.
  const failed = await call({ name: 'test_error_handling', arguments: {} });
  assert.equal(failed.isError, true);
}

test('TypeScript SDK 1.x client', { timeout: 60_000 }, async () => {
  const client = new Client1({ name: 'ts-1', version: '1' }, { capabilities: { sampling: {}, elicitation: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => sampled);
  client.setRequestHandler(ElicitRequestSchema, async () => elicited);
  const transport = new Transport1(new URL(`${url}/mcp`), {
    reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  await client.connect(transport);
  try {
    assert.equal(client.getServerVersion().name, 'toolgen-conformance');
    assert.ok(transport.sessionId, 'a session');
    assert.equal(transport.protocolVersion, '2025-11-25');
    await exercise(client, (params, onprogress) => client.callTool(params, undefined, onprogress ? { onprogress } : undefined));
  } finally {
    await client.close();
  }
});

// The 1.x client at the older revisions it still speaks, which have no
// way to resume a stream: the server must not close the stream of
// test_reconnection early (the result would never arrive). A fetch that
// asks for the revision at initialize makes the client speak it.
for (const version of ['2025-06-18', '2025-03-26']) {
  test(`TypeScript SDK 1.x client at ${version}`, { timeout: 60_000 }, async () => {
    const client = new Client1({ name: 'ts-1-old', version: '1' }, { capabilities: {} });
    const fetchAt = async (input, init) => {
      if (init?.body && typeof init.body === 'string' && init.body.includes('"initialize"')) {
        const msg = JSON.parse(init.body);
        msg.params.protocolVersion = version;
        init = { ...init, body: JSON.stringify(msg) };
      }
      return fetch(input, init);
    };
    // No reconnection: a stream closed early would lose the result.
    const transport = new Transport1(new URL(`${url}/mcp`), {
      fetch: fetchAt,
      reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1.5, maxRetries: 0 },
    });
    await client.connect(transport);
    try {
      assert.equal(transport.protocolVersion, version);
      assert.equal(text(await client.callTool({ name: 'test_reconnection', arguments: {} })), 'Reconnection test completed successfully.');
      assert.equal(text(await client.callTool({ name: 'test_simple_text', arguments: {} })), 'This is a simple text response for testing.');
    } finally {
      await client.close();
    }
  });
}

// The 2.x client speaks 2025-11-25 unless told to negotiate ('auto' probes
// with server/discover and takes 2026-07-28): both, on the same endpoint.
for (const [name, negotiation, version] of [
  ['default', undefined, '2025-11-25'],
  ["versionNegotiation 'auto'", { mode: 'auto' }, '2026-07-28'],
]) {
  test(`TypeScript SDK 2.x client, ${name}`, { timeout: 60_000 }, async () => {
    const client = new Client2({ name: 'ts-2', version: '1' }, {
      capabilities: { sampling: {}, elicitation: {} },
      ...(negotiation && { versionNegotiation: negotiation }),
    });
    client.setRequestHandler('sampling/createMessage', async () => sampled);
    client.setRequestHandler('elicitation/create', async () => elicited);
    const transport = new Transport2(new URL(`${url}/mcp`));
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion().name, 'toolgen-conformance');
      assert.equal(client.protocolVersion ?? transport.protocolVersion, version);
      await exercise(client, (params, onprogress) => client.callTool(params, onprogress ? { onprogress } : undefined));
    } finally {
      await client.close();
    }
  });
}
