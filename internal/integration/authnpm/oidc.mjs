// Test material for plainmcp's authorization integration tests: a
// certified OpenID provider (oidc-provider) in front of a JWT-validating
// MCP resource server, in one process on two free loopback ports.
//
// The provider: dynamic client registration, PKCE, refresh tokens for
// offline_access (rotated, as it does for public clients), resource
// indicators (JWT access tokens whose audience is the MCP endpoint),
// revocation, its development login and consent pages, and DPoP when
// OIDC_DPOP=1.
//
// The resource server: an MCP Streamable HTTP endpoint at /mcp that checks
// the access token's signature against the provider's JWKS, its issuer,
// its audience (the endpoint) and its scope, and answers 401 with a
// WWW-Authenticate challenge naming its protected resource metadata
// (served at /.well-known/oauth-protected-resource/mcp). RS_MODE=bearer
// takes only "Authorization: Bearer" (and knows nothing of DPoP);
// RS_MODE=dpop takes only DPoP-bound tokens with a valid proof (RFC 9449:
// htm, htu, iat, jti once, ath, and the key's thumbprint = cnf.jkt). The
// tool "admin" needs the mcp:admin scope: without it the answer is 403
// insufficient_scope naming the larger scope (a step-up).
//
// ACCESS_TTL sets the access tokens' lifetime in seconds (default 300).
// The provider's metadata lists mcp:admin among its scopes; the resource's
// metadata does not.
// It prints one JSON line to stdout: {"mcp", "issuer", "control"}.
//   GET  /_test/stats   registrations, authorizations, grants by type, errors
//   POST /_test/revoke  revoke every grant (its refresh and access tokens)
import http from 'node:http';
import crypto from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import { createRemoteJWKSet, jwtVerify, EmbeddedJWK, calculateJwkThumbprint, generateKeyPair, exportJWK } from 'jose';
import { calledTools, listen, log, readJSON, sendJSON, serveMcp } from './common.mjs';

const dpopOn = process.env.OIDC_DPOP === '1';
const rsMode = process.env.RS_MODE === 'dpop' ? 'dpop' : 'bearer';
const accessTTL = Number(process.env.ACCESS_TTL || 300);

const asServer = http.createServer();
const rsServer = http.createServer();
const issuer = await listen(asServer);
const rsOrigin = await listen(rsServer);
const mcpURL = `${rsOrigin}/mcp`;
const metadataURL = `${rsOrigin}/.well-known/oauth-protected-resource/mcp`;

const stats = {
  registrations: 0, authorizations: 0, codeGrants: 0, refreshGrants: 0,
  grantErrors: [], revokedGrants: 0, mcpRequests: 0, unauthorized: 0, rsErrors: [],
};
const grants = new Set();

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: 'fixture-rs256', alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  scopes: ['openid', 'offline_access', 'mcp:tools', 'mcp:admin'],
  ttl: {
    AccessToken: accessTTL, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 86400,
    Grant: 86400, Session: 86400, Interaction: 600,
  },
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    revocation: { enabled: true },
    dPoP: { enabled: dpopOn },
    resourceIndicators: {
      enabled: true,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, resource) => {
        if (resource !== mcpURL) throw new errors.InvalidTarget(`unknown resource ${resource}`);
        return {
          scope: 'mcp:tools mcp:admin',
          audience: mcpURL,
          accessTokenTTL: accessTTL,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
});

provider.on('registration_create.success', (_ctx, client) => {
  stats.registrations++;
  log('register', client.clientId, JSON.stringify(client.redirectUris));
});
provider.on('authorization.success', (ctx) => {
  stats.authorizations++;
  log('authorize', ctx.oidc.client.clientId, 'scope', ctx.oidc.params.scope, 'prompt', ctx.oidc.params.prompt);
});
provider.on('grant.success', (ctx) => {
  const type = ctx.oidc.params.grant_type;
  if (type === 'refresh_token') stats.refreshGrants++;
  else stats.codeGrants++;
  log('grant', type, 'client', ctx.oidc.client.clientId, 'dpop', Boolean(ctx.oidc.dPoP));
});
provider.on('grant.error', (ctx, err) => {
  stats.grantErrors.push(`${ctx.oidc?.params?.grant_type}: ${err.message} ${err.error_description ?? ''}`.trim());
  log('grant error', err.message, err.error_description ?? '');
});
provider.on('grant.revoked', () => { stats.revokedGrants++; });
for (const model of ['refresh_token.saved', 'authorization_code.saved']) {
  provider.on(model, (token) => { if (token.grantId) grants.add(token.grantId); });
}

asServer.on('request', async (req, res) => {
  const path = new URL(req.url, issuer).pathname;
  if (path === '/_test/stats') return sendJSON(res, 200, stats);
  if (path === '/_test/revoke' && req.method === 'POST') {
    for (const id of grants) {
      await Promise.all([provider.RefreshToken.revokeByGrantId(id), provider.AccessToken.revokeByGrantId(id), provider.Grant.adapter.destroy(id)]);
      stats.revokedGrants++;
    }
    grants.clear();
    return sendJSON(res, 200, { ok: true });
  }
  return provider.callback()(req, res);
});

const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
const seenJTI = new Map();

rsServer.on('request', async (req, res) => {
  const path = new URL(req.url, rsOrigin).pathname;
  if (path === '/.well-known/oauth-protected-resource/mcp') {
    // mcp:admin is not advertised: a client learns of it from the step-up
    // challenge only, so that it asks for it only when a tool needs it.
    const prm = { resource: mcpURL, authorization_servers: [issuer], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] };
    if (rsMode === 'dpop') {
      prm.dpop_signing_alg_values_supported = ['ES256', 'RS256', 'PS256', 'EdDSA'];
      prm.dpop_bound_access_tokens_required = true;
    }
    return sendJSON(res, 200, prm);
  }
  if (path !== '/mcp') return sendJSON(res, 404, { error: 'not found' });
  stats.mcpRequests++;
  try {
    const body = req.method === 'POST' ? await readJSON(req) : undefined;
    const who = await authenticate(req, body);
    await serveMcp(req, res, body, who);
  } catch (err) {
    if (!(err instanceof Challenge)) throw err;
    stats.unauthorized++;
    stats.rsErrors.push(`${err.status} ${err.error ?? 'no token'}: ${err.description ?? ''}`);
    log('rs', err.status, err.error ?? 'no token', err.description ?? '');
    sendJSON(res, err.status, { error: err.error ?? 'invalid_request', error_description: err.description }, { 'www-authenticate': err.header() });
  }
});

// Challenge is an answer of 401 or 403 with its WWW-Authenticate header.
class Challenge extends Error {
  constructor(status, error, description, scope = 'mcp:tools') {
    super(description);
    Object.assign(this, { status, error, description, scope });
  }

  header() {
    const params = [];
    if (this.error) params.push(`error="${this.error}"`, `error_description="${this.description}"`);
    params.push(`scope="${this.scope}"`, `resource_metadata="${metadataURL}"`);
    if (rsMode === 'dpop') return `DPoP algs="ES256 RS256 PS256 EdDSA", ${params.join(', ')}`;
    return `Bearer ${params.join(', ')}`;
  }
}

// authenticate checks the request's token (and DPoP proof) and scope.
async function authenticate(req, body) {
  const header = req.headers.authorization;
  if (!header) throw new Challenge(401);
  const [scheme, token] = header.split(' ');
  const want = rsMode === 'dpop' ? 'dpop' : 'bearer';
  if (scheme.toLowerCase() !== want || !token) {
    throw new Challenge(401, 'invalid_token', `expected the ${want === 'dpop' ? 'DPoP' : 'Bearer'} scheme, got ${scheme}`);
  }
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, jwks, { issuer, audience: mcpURL, typ: 'at+jwt' }));
  } catch (err) {
    throw new Challenge(401, 'invalid_token', `access token: ${err.code ?? err.message}`);
  }
  if (rsMode === 'dpop') await checkProof(req, token, claims);
  const scopes = String(claims.scope ?? '').split(' ').filter(Boolean);
  if (!scopes.includes('mcp:tools')) throw new Challenge(403, 'insufficient_scope', 'mcp:tools is needed');
  if (calledTools(body ?? {}).includes('admin') && !scopes.includes('mcp:admin')) {
    throw new Challenge(403, 'insufficient_scope', 'the admin tool needs mcp:admin', 'mcp:tools mcp:admin');
  }
  return { subject: claims.sub, scopes };
}

// checkProof verifies a DPoP proof for a bound token (RFC 9449 section 4.3).
async function checkProof(req, token, claims) {
  const proof = req.headers.dpop;
  const bad = (why) => new Challenge(401, 'invalid_dpop_proof', why);
  if (!proof || proof.includes(',')) throw bad('one DPoP proof is needed');
  if (!claims.cnf?.jkt) throw new Challenge(401, 'invalid_token', 'the access token is not DPoP-bound');
  let p;
  try {
    p = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256', 'RS256', 'PS256', 'EdDSA'] });
  } catch (err) {
    throw bad(`proof: ${err.code ?? err.message}`);
  }
  const { payload, protectedHeader } = p;
  if (payload.htm !== req.method) throw bad('htm');
  if (payload.htu !== mcpURL) throw bad(`htu ${payload.htu}`);
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.iat !== 'number' || Math.abs(now - payload.iat) > 60) throw bad('iat');
  if (typeof payload.jti !== 'string' || seenJTI.has(payload.jti)) throw bad('jti replayed');
  seenJTI.set(payload.jti, now);
  const ath = crypto.createHash('sha256').update(token).digest('base64url');
  if (payload.ath !== ath) throw bad('ath');
  if (await calculateJwkThumbprint(protectedHeader.jwk) !== claims.cnf.jkt) throw bad('the proof key is not the one the token is bound to');
}

process.stdout.write(JSON.stringify({ mcp: mcpURL, issuer, control: `${issuer}/_test` }) + '\n');
