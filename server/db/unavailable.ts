/**
 * Whether an error means the database could not be reached or dropped the connection, as
 * opposed to a statement it refused. A phase that meets the first has not failed: the session
 * stays as it was written last and is taken over once the database is back (see the agent
 * runner). Only PostgreSQL fails this way; the embedded PGlite lives in the process.
 *
 * Drizzle wraps the driver's error in its own (`cause`), and node-postgres reports a refused
 * connection as the socket's error (an AggregateError when several addresses were tried).
 */

/** Socket errors, and PostgreSQL's SQLSTATEs for a server shutting down or starting up. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: terminating connection due to administrator command
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database system is starting up / shutting down
]);

/** node-postgres' own messages for a connection that ended or could not be made in time. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const { code, message, cause } = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08/.test(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  if (err instanceof AggregateError && err.errors.some((e) => isDatabaseUnavailable(e, depth + 1)))
    return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
