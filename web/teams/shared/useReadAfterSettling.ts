import { useEffect, useRef } from 'react';

/**
 * One more read `delayMs` after a session stops being live. The server writes a session's
 * closing log lines just after the status settles (server/agents/session-completion.ts), so a
 * screen whose polling stopped at that status would miss them without the socket.
 */
export function useReadAfterSettling(
  sessionId: string | undefined,
  live: boolean,
  delayMs: number,
  read: (sessionId: string, signal: AbortSignal) => Promise<void>,
): void {
  const wasLive = useRef(false);
  useEffect(() => {
    if (live) {
      wasLive.current = true;
      return;
    }
    if (!wasLive.current || !sessionId) return;
    wasLive.current = false;
    const controller = new AbortController();
    const timer = setTimeout(() => void read(sessionId, controller.signal), delayMs);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [sessionId, live, delayMs, read]);
}
