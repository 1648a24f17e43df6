import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { UserRole, UserStatus } from '../../common/constants';
import type { Database } from '../db/connect';
import { users } from '../db/schema';
import { AppError, forbidden, unauthorized } from './errors';
import type { TokenSigner } from './tokens';

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
  }
  interface FastifyInstance {
    routeAccess: Array<{ method: string; url: string; access: Access }>;
  }
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

export async function loadActiveUser(db: Database, id: string): Promise<AuthUser | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      role: users.role,
      status: users.status,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row && row.status === 'approved' ? row : undefined;
}

/**
 * Resolves an access token to an approved user. The user row is read on every request, so a
 * rejected or demoted user loses access at once, not only at the next refresh.
 */
export async function authenticateToken(
  db: Database,
  signer: TokenSigner,
  token: string,
): Promise<AuthUser | undefined> {
  const claims = await signer.verify(token, 'access');
  if (!claims) return undefined;
  return loadActiveUser(db, claims.sub);
}

export function registerAccessControl(
  app: FastifyInstance,
  db: Database,
  signer: TokenSigner,
): void {
  app.decorate('routeAccess', []);
  app.decorateRequest('user', null);

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
    if (token) {
      user = await authenticateToken(db, signer, token);
    } else if (typeof queryToken === 'string' && queryToken !== '') {
      user = await authenticateToken(db, signer, queryToken);
    } else if (request.routeOptions.config.allowDownloadToken) {
      const q = (request.query ?? {}) as Record<string, unknown>;
      if (typeof q.token === 'string') {
        const claims = await signer.verify(q.token, 'download');
        const path = request.url.split('?')[0];
        if (claims && claims.scope === path) user = await loadActiveUser(db, claims.sub);
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
