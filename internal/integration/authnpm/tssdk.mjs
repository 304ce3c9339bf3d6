// Test material for plainmcp's authorization integration tests: an MCP
// server protected the way the official TypeScript SDK teaches. One
// Express app on a free loopback port holds the SDK's mcpAuthRouter (its
// metadata, /authorize, /token, /register, and the protected resource
// metadata of /mcp) over the SDK's demo in-memory provider, and
// requireBearerAuth in front of a Streamable HTTP MCP endpoint at /mcp.
//
// The demo provider approves every authorization at once (no login page)
// and issues no refresh tokens; its access tokens live an hour.
//
// It prints one JSON line to stdout: {"mcp": url, "issuer": url,
// "control": url}. The control routes, for the test only:
//   GET  /_test/stats   registrations and authorizations seen
//   POST /_test/revoke  forget every access token (a revocation)
//   POST /_test/expire  make every access token expired
import http from 'node:http';
import express from 'express';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { calledTools, listen, log, serveMcp } from './common.mjs';

const app = express();
const server = http.createServer(app);
const origin = await listen(server);
const issuer = new URL(`${origin}/`);
const mcpURL = new URL(`${origin}/mcp`);

const stats = { registrations: 0, authorizations: 0, tokens: 0, mcpRequests: 0, unauthorized: 0 };
const provider = new DemoInMemoryAuthProvider((resource) => resource !== undefined && resource.href.replace(/\/$/, '') === mcpURL.href);

// Counting wrappers: the test asserts how many clients were registered and
// how many browser authorizations reached the provider.
const register = provider.clientsStore.registerClient.bind(provider.clientsStore);
provider.clientsStore.registerClient = async (client) => {
  stats.registrations++;
  log('register', client.client_id, JSON.stringify(client.redirect_uris));
  return register(client);
};
const authorize = provider.authorize.bind(provider);
provider.authorize = async (client, params, res) => {
  stats.authorizations++;
  log('authorize', client.client_id, 'scopes', JSON.stringify(params.scopes), 'resource', String(params.resource));
  return authorize(client, params, res);
};
const exchange = provider.exchangeAuthorizationCode.bind(provider);
provider.exchangeAuthorizationCode = async (...args) => {
  const t = await exchange(...args);
  stats.tokens++;
  return t;
};

app.use('/_test', express.json());
app.get('/_test/stats', (_req, res) => res.json(stats));
app.post('/_test/revoke', (_req, res) => { provider.tokens.clear(); res.json({ ok: true }); });
app.post('/_test/expire', (_req, res) => {
  for (const t of provider.tokens.values()) t.expiresAt = Date.now() - 1000;
  res.json({ ok: true });
});

app.use(mcpAuthRouter({
  provider,
  issuerUrl: issuer,
  scopesSupported: ['mcp:tools'],
  resourceServerUrl: mcpURL,
  resourceName: 'plainmcp TypeScript SDK fixture',
}));

// The demo provider refuses an unknown or expired token with a plain Error,
// which requireBearerAuth answers with 500; the SDK's own example server
// verifies through a verifier that throws InvalidTokenError (401), and so
// does this one.
const verifier = {
  verifyAccessToken: async (token) => {
    try {
      return await provider.verifyAccessToken(token);
    } catch (err) {
      throw new InvalidTokenError(err.message);
    }
  },
};
const bearer = requireBearerAuth({
  verifier,
  requiredScopes: ['mcp:tools'],
  resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpURL),
  expectedResource: mcpURL,
});
app.all('/mcp', (req, res, next) => {
  stats.mcpRequests++;
  res.on('finish', () => { if (res.statusCode === 401 || res.statusCode === 403) stats.unauthorized++; });
  next();
}, bearer, express.json({ limit: '1mb' }), async (req, res) => {
  log('mcp', req.method, JSON.stringify(calledTools(req.body ?? {})));
  await serveMcp(req, res, req.body, { subject: 'demo_user', scopes: req.auth.scopes });
});

process.stdout.write(JSON.stringify({ mcp: mcpURL.href, issuer: issuer.href, control: `${origin}/_test` }) + '\n');
