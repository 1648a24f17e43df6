import type { IncomingMessage } from 'node:http';

/** What a Host header may look like (name or address, optional port); anything else is unused. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * WebSocket sources for connect-src: ws: and wss: to this app's own host only. 'self' alone
 * does not cover WebSocket URLs in every browser, and a bare `ws: wss:` would let an injected
 * script send data to any host. The host is PUBLIC_URL's when set, else the one the page was
 * requested from.
 */
export function webSocketSources(publicUrl: string | undefined) {
  const fixed = publicUrl ? new URL(publicUrl).host : undefined;
  return (req: IncomingMessage): string => {
    const host = fixed ?? req.headers.host ?? '';
    return HOST.test(host) ? `ws://${host} wss://${host}` : "'self'";
  };
}

/**
 * Content-Security-Policy the built web app works under: scripts only from this origin; MUI's
 * emotion injects <style> elements, so inline styles are allowed; KaTeX fonts and data-URI
 * images; fetches and WebSockets to this origin only.
 */
export function cspDirectives(publicUrl: string | undefined) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", webSocketSources(publicUrl)],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: null,
  };
}
