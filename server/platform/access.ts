import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import type { UserRole, UserStatus } from '../../common/constants';
import type { Database } from '../db/connect';
import { users } from '../db/schema';
import { AppError, forbidden, unauthorized } from './errors';
import type { TokenSigner } from './tokens';
import { spendToken } from './used-tokens';

/**
 * Who may call a route. Every route under /api declares it in its `config.access`; a route
 * without it fails at start-up, so nothing is public by accident.
 */
export type Access = 'public' | 'user' | 'admin';

export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  role: UserRole;
  status: UserStatus;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Also accept a signed download token in `?token=` (for links opened in a new tab). */
    allowDownloadToken?: boolean;
    /**
     * Also accept the access token in `?token=` (the /ws upgrade: browsers cannot set headers on
     * a WebSocket). logging.ts scrubs `token` from every logged URL.
     */
    allowAccessTokenQuery?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The access token the caller was admitted with (routes declared 'user' or 'admin'). */
    auth: RequestAuth | null;
  }
  interface FastifyInstance {
    routeAccess: Array<{ method: string; url: string; access: Access }>;
  }
}

/** An approved, not suspended user, with the token version their tokens must carry. */
export interface ActiveUser extends AuthUser {
  tokenVersion: number;
}

/** How a request was admitted: the token, when it expires and the version it carries. */
export interface RequestAuth {
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  tokenVersion: number;
}

/** The signed-in user of a route declared 'user' or 'admin'. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** The process's cache of active users (created and invalidated in active-users.ts). */
export interface ActiveUserCache {
  /** The approved, not suspended user; `minVersion`: a token version the caller holds. */
  get(id: string, minVersion?: number): Promise<ActiveUser | undefined>;
  invalidate(id: string): void;
  clear(): void;
  /** Whether the user is held now (tests). */
  has(id: string): boolean;
}

/**
 * The user row behind a token, if the account may act: approved and not suspended. Requests read
 * it through the process's ActiveUserCache (active-users.ts), which every change of a user's
 * access invalidates in every process at once; the socket hub's checks read it here.
 */
export async function loadActiveUser(db: Database, id: string): Promise<ActiveUser | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      role: users.role,
      status: users.status,
      tokenVersion: users.tokenVersion,
    })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.suspendedAt)))
    .limit(1);
  return row && row.status === 'approved' ? row : undefined;
}

/**
 * Resolves an access token to an approved user. Refused: bad signature, no or past expiry, and a
 * token version that is not the user's current one (they signed out, changed or were given a new
 * password, changed role, or were suspended since it was issued).
 */
export async function authenticateToken(
  db: Database,
  signer: TokenSigner,
  token: string,
  activeUsers?: ActiveUserCache,
): Promise<{ user: AuthUser; auth: RequestAuth } | undefined> {
  const claims = await signer.verify(token, 'access');
  if (!claims) return undefined;
  const row = activeUsers
    ? await activeUsers.get(claims.sub, claims.ver)
    : await loadActiveUser(db, claims.sub);
  if (!row || claims.ver !== row.tokenVersion) return undefined;
  const { tokenVersion, ...user } = row;
  return { user, auth: { token, expiresAt: claims.exp * 1000, tokenVersion } };
}

/**
 * A download token for `scope` (a path), for the caller of this request: it opens that path
 * once, within `ttlSeconds`, and dies with the caller's access tokens.
 */
export async function issueDownloadToken(
  signer: TokenSigner,
  request: FastifyRequest,
  scope: string,
  ttlSeconds: number,
): Promise<string> {
  const user = currentUser(request);
  if (!request.auth) throw unauthorized();
  return signer.sign(
    { sub: user.id, purpose: 'download', scope, ver: request.auth.tokenVersion },
    ttlSeconds,
  );
}

/** The user a download token opens `path` for, spending the token; undefined if it may not. */
async function authenticateDownloadToken(
  db: Database,
  signer: TokenSigner,
  token: string,
  path: string | undefined,
): Promise<AuthUser | undefined> {
  const claims = await signer.verify(token, 'download');
  if (!claims || claims.scope !== path || !claims.jti) return undefined;
  const row = await loadActiveUser(db, claims.sub);
  if (!row || claims.ver !== row.tokenVersion) return undefined;
  if (!(await spendToken(db, claims.jti, claims.exp))) return undefined;
  const { tokenVersion: _version, ...user } = row;
  return user;
}

export function registerAccessControl(
  app: FastifyInstance,
  db: Database,
  signer: TokenSigner,
  activeUsers?: ActiveUserCache,
): void {
  app.decorate('routeAccess', []);
  app.decorateRequest('user', null);
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith('/api') && url !== '/ws') return;
    const access = route.config?.access;
    if (!access) {
      throw new Error(`Route ${String(route.method)} ${url} does not declare config.access`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.routeAccess.push({ method, url, access });
    }
  });

  // preParsing, not onRequest: it runs after every onRequest hook (security headers, rate
  // limits), so a 401 or 403 carries the same headers as any other reply, and still before the
  // body is read, so nobody without access gets a body parsed.
  app.addHook('preParsing', async (request) => {
    const access = request.routeOptions.config?.access;
    if (access === 'public') return;
    if (!access) {
      // Only routes outside /api (static files) and unknown URLs get here; onRoute refuses an
      // /api route without a declaration, this is the second lock on that door.
      const url = request.routeOptions.url;
      if (url !== undefined && (url.startsWith('/api') || url === '/ws')) throw unauthorized();
      return;
    }
    let user: AuthUser | undefined;
    const token = bearer(request);
    const queryToken = request.routeOptions.config.allowAccessTokenQuery
      ? (request.query as Record<string, unknown> | undefined)?.token
      : undefined;
    const accessToken =
      token ?? (typeof queryToken === 'string' && queryToken !== '' ? queryToken : undefined);
    if (accessToken) {
      const found = await authenticateToken(db, signer, accessToken, activeUsers);
      if (found) {
        user = found.user;
        request.auth = found.auth;
      }
    } else if (request.routeOptions.config.allowDownloadToken) {
      const q = (request.query ?? {}) as Record<string, unknown>;
      if (typeof q.token === 'string') {
        user = await authenticateDownloadToken(db, signer, q.token, request.url.split('?')[0]);
      }
    }
    if (!user) {
      throw new AppError(
        'unauthorized',
        token
          ? 'Your session has expired or is no longer valid. Please sign in again.'
          : 'Authentication required',
      );
    }
    if (access === 'admin' && user.role !== 'admin') {
      throw forbidden('Admin privileges required');
    }
    request.user = user;
  });
}
