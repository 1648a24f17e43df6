import { cleanup, configure } from '@testing-library/react';
import { afterAll, vi } from 'vitest';
import { resetVersionCache } from '../api/version';

/**
 * The web test files share their worker's jsdom window and loaded modules (isolate: false in
 * vitest.config.ts), which saves setting up a window and loading React, MUI and the pages
 * again for every file. What one file leaves behind is undone when it ends, so the next file
 * starts as if it ran alone: its rendered trees unmounted, the real fetch back (mockFetch
 * replaces it), storage empty, the version cache and the URL reset, real timers, spies and
 * stubbed globals undone. Within a file nothing
 * changes: tests that ran one after another in the same window still do.
 */
const realFetch = globalThis.fetch;

// findBy/waitFor resolve as soon as what they wait for is there; the default of one second is
// too short for a screen that loads a lazy chunk on a loaded two-core CI machine.
configure({ asyncUtilTimeout: 5000 });
const startUrl = window.location.href;

afterAll(() => {
  cleanup();
  document.body.innerHTML = '';
  globalThis.fetch = realFetch;
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', startUrl);
  resetVersionCache();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
