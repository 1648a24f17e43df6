import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  createGuardedLookup,
  describeRange,
  ForbiddenAddressError,
  forbiddenRange,
  isLocalhostName,
} from '../../platform/ssrf';
import { BaseUrlRefusedError } from './errors';

// The address rules live in server/platform/ssrf.ts (shared with the outbound HTTP client).
export { findForbiddenAddress, ForbiddenAddressError, forbiddenRange } from '../../platform/ssrf';

/**
 * The SSRF guard for base URLs a user types into Settings: only public
 * http(s) addresses. Loopback, private, link-local (cloud metadata at 169.254.169.254),
 * unique-local, carrier-grade NAT, multicast and reserved ranges are refused, for literal
 * addresses and for every address a host name resolves to, checked again at connect time so
 * a DNS answer that changes between the check and the request (rebinding) is caught too.
 * Redirects are not followed. The administrator's own base URLs do not go through here.
 */

const FIX =
  'Use a public address, or ask an administrator to configure the model server on the server ' +
  '(OPENAI_COMPATIBLE_BASE_URL) or to allow private base URLs (LLM_ALLOW_PRIVATE_BASE_URLS=true).';

function refuse(origin: string, why: string): BaseUrlRefusedError {
  return new BaseUrlRefusedError(
    `Your model base URL (${origin}) points to ${why}, which this server does not allow for ` +
      `base URLs set in Settings > API Keys. ${FIX}`,
  );
}

/** Parses the URL and refuses schemes other than http(s) and literal non-public addresses. */
export function parseUserBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BaseUrlRefusedError(
      `Your model base URL is not a valid URL. Enter it as http(s)://host[:port]/path under ` +
        `Settings > API Keys.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BaseUrlRefusedError(
      `Your model base URL must start with http:// or https:// (Settings > API Keys).`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLocalhostName(host)) throw refuse(url.origin, describeRange('loopback'));
  if (ipaddr.isValid(host)) {
    const range = forbiddenRange(host);
    if (range) throw refuse(url.origin, describeRange(range));
  }
  return url;
}

/** Full check before a call: the URL and every address its host resolves to now. */
export async function checkUserBaseUrl(raw: string): Promise<void> {
  const url = parseUserBaseUrl(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return;
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    // Unresolvable now: the call itself reports it as a connection failure.
    return;
  }
  for (const { address } of addresses) {
    const range = forbiddenRange(address);
    if (range) throw refuse(url.origin, describeRange(range));
  }
}

type RangeCheck = (address: string) => string | undefined;

/**
 * A fetch whose every connection's addresses pass `check` (literal addresses in each request
 * URL too), and that returns redirects instead of following them. `check` is a parameter only
 * so tests can exercise the fetch itself against a local server.
 */
export function createGuardedFetch(check: RangeCheck = forbiddenRange): typeof globalThis.fetch {
  const agent = new Agent({ connect: { lookup: createGuardedLookup(check) } });
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host)) {
      const range = check(host);
      if (range) return Promise.reject(new ForbiddenAddressError(host, range));
    }
    // undici's fetch and the DOM fetch type differ only in their declarations.
    const undiciInit = { ...init, redirect: 'manual', dispatcher: agent } as Parameters<
      typeof undiciFetch
    >[1];
    return undiciFetch(url, undiciInit) as unknown as Promise<Response>;
  };
}

/** The fetch for user-supplied base URLs (one shared connection pool). */
export const guardedFetch = createGuardedFetch();

export function refusalFor(origin: string, error: ForbiddenAddressError): BaseUrlRefusedError {
  return refuse(origin, describeRange(error.range));
}
