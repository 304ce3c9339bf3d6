// Test material for plainmcp's authorization integration tests: the parts
// the two protected MCP servers share. An MCP server over Streamable HTTP
// (stateless: a new server and transport per request, as the SDK's
// stateless example does) with three tools, and the small HTTP helpers.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

// The largest request body the servers read; a test never sends more.
const maxBody = 1 << 20;

// newMcpServer builds the server a request is answered by. who describes
// the caller (subject, scopes) as the resource server saw its token.
export function newMcpServer(who) {
  const server = new McpServer({ name: 'plainmcp-auth-fixture', version: '1.0.0' });
  server.registerTool('echo', {
    description: 'Echoes its text',
    inputSchema: { text: z.string() },
  }, async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }));
  server.registerTool('whoami', {
    description: 'Tells who the token belongs to and its scopes',
  }, async () => ({ content: [{ type: 'text', text: `subject=${who.subject} scopes=${who.scopes.join(' ')}` }] }));
  server.registerTool('admin', {
    description: 'Needs the mcp:admin scope (the resource server asks for it with 403 insufficient_scope)',
  }, async () => ({ content: [{ type: 'text', text: 'admin: granted' }] }));
  return server;
}

// serveMcp answers one MCP request with a fresh server.
export async function serveMcp(req, res, body, who) {
  const server = newMcpServer(who);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

// readJSON reads a bounded request body as JSON (undefined when empty).
export async function readJSON(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > maxBody) throw new Error('body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

// calledTools names the tools a JSON-RPC message (or batch) calls.
export function calledTools(body) {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.filter((m) => m && m.method === 'tools/call').map((m) => m.params && m.params.name);
}

export function sendJSON(res, status, value, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

// listen starts server on a free loopback port and returns its origin.
export function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

// log writes one line for the test's failure output (stderr is captured).
export function log(...args) {
  process.stderr.write(`${new Date().toISOString()} ${args.join(' ')}\n`);
}
