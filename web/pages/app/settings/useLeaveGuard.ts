import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { getAuth } from '../../../api/session';

/** Where the user tried to go while there were unsaved changes. */
export type PendingLeave = { kind: 'url'; to: string; replace: boolean } | { kind: 'back' };

type HistoryWrite = History['pushState'];

function pathOf(url: string | URL): string {
  return new URL(url, window.location.href).pathname;
}

function relative(url: string | URL): string {
  const u = new URL(url, window.location.href);
  return `${u.pathname}${u.search}${u.hash}`;
}

/**
 * Asks before leaving a page with unsaved changes, for a router without data APIs (the app
 * renders `useRoutes` under `<BrowserRouter>`, where react-router's `useBlocker` is not
 * available):
 *
 * - reload, closing the tab or typing an address: the browser's own `beforeunload` question;
 * - every in-app navigation (links, menus, redirects) goes through `history.pushState` /
 *   `replaceState`; while `active`, a call that leaves this page's path is held back and the
 *   caller is asked (react-router's browser history reads the address from `window.location`
 *   after the call, so a held-back call leaves the router where it was). Changes of the query
 *   on the same path (the page's own tabs) pass;
 * - Back: a second history entry for this page is pushed, so Back lands on the first one (still
 *   this page) and asks. It is taken away again when the changes are saved or dropped.
 *
 * `leave()` continues to where the user wanted to go; `stay()` keeps the page and its changes.
 */
export function useLeaveGuard(active: boolean) {
  const navigate = useNavigate();
  const location = useLocation();
  const [pending, setPending] = useState<PendingLeave | undefined>();
  /** Set while leave() carries out the held-back navigation. */
  const bypass = useRef(false);
  const here = useRef('');
  here.current = `${location.pathname}${location.search}${location.hash}`;
  const mounted = useRef(true);
  /** The extra entry for Back is on the history stack. */
  const armed = useRef(false);
  /** The next popstate is ours (taking the extra entry away), not the user's Back. */
  const ownPop = useRef(false);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the question only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);

  useEffect(() => {
    if (!active) return;
    const h = window.history;
    const push = h.pushState;
    const replace = h.replaceState;
    const guard = (original: HistoryWrite, isReplace: boolean): HistoryWrite =>
      function guarded(this: History, data, unused, url) {
        const leaves =
          url !== undefined &&
          url !== null &&
          pathOf(url) !== window.location.pathname &&
          // Signed out meanwhile: the changes cannot be saved any more, nothing to protect.
          getAuth() !== undefined;
        if (leaves && !bypass.current) {
          setPending({ kind: 'url', to: relative(url), replace: isReplace });
          return;
        }
        original.call(this, data, unused, url);
      };
    h.pushState = guard(push, false);
    h.replaceState = guard(replace, true);
    return () => {
      h.pushState = push;
      h.replaceState = replace;
    };
  }, [active]);

  const arm = useCallback(() => {
    if (armed.current) return;
    window.history.pushState(window.history.state, '', window.location.href);
    armed.current = true;
  }, []);

  useEffect(() => {
    const onPop = () => {
      // react-router has moved to the entry under the extra one; stay on this page's address.
      const stayAt = here.current;
      if (ownPop.current) {
        ownPop.current = false;
        navigate(stayAt, { replace: true });
        return;
      }
      if (!armed.current) return;
      armed.current = false;
      navigate(stayAt, { replace: true });
      setPending({ kind: 'back' });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [navigate]);

  useEffect(() => {
    if (!active) return;
    arm();
    return () => {
      // Saved or dropped while still on the page: take the extra entry away. (After leaving,
      // it stays: it is this page's address, one step back.)
      queueMicrotask(() => {
        if (!mounted.current || !armed.current || bypass.current) return;
        armed.current = false;
        ownPop.current = true;
        window.history.back();
      });
    };
  }, [active, arm]);

  const stay = useCallback(() => {
    if (pending?.kind === 'back' && active) arm();
    setPending(undefined);
  }, [pending, active, arm]);

  const leave = useCallback(() => {
    const target = pending;
    setPending(undefined);
    if (!target) return;
    bypass.current = true;
    if (target.kind === 'url') {
      navigate(target.to, { replace: target.replace });
      return;
    }
    window.history.back();
    // Nothing before this page (it was opened directly): Back went nowhere, keep guarding.
    setTimeout(() => {
      if (!mounted.current) return;
      bypass.current = false;
      if (active) arm();
    }, 1000);
  }, [pending, navigate, active, arm]);

  return { pending, stay, leave };
}
