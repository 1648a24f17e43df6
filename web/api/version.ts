import { useEffect, useState } from 'react';
import type { VersionInfo } from '../../common/api';
import { DEFAULT_VERSION, DEFAULT_VERSION_PREFIX } from '../../common/constants';

const DEFAULT_VERSION_INFO: VersionInfo = {
  version: DEFAULT_VERSION,
  prefix: DEFAULT_VERSION_PREFIX,
};

/** Reads the static version file; failures are only logged and the defaults stay. */
async function fetchVersion(signal?: AbortSignal): Promise<VersionInfo> {
  try {
    const res = await fetch('/version.json', { signal, cache: 'no-cache' });
    if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
    // A two-field check by hand: importing the zod schema here would put zod (25 KB gzip) on
    // the landing page's critical path.
    const body = (await res.json()) as Partial<Record<keyof VersionInfo, unknown>>;
    if (typeof body.version !== 'string' || typeof body.prefix !== 'string') {
      throw new Error('version.json has an unexpected shape');
    }
    return { version: body.version, prefix: body.prefix };
  } catch (err) {
    if (signal?.aborted) throw err;
    console.error('Failed to load version', err);
    return DEFAULT_VERSION_INFO;
  }
}

/** '{prefix} {version}', e.g. 'Demo Version 0.0.1'. */
export function versionLabel(info: VersionInfo): string {
  return `${info.prefix} ${info.version}`;
}

/**
 * The version file is static for the life of the page, so it is fetched once per page load and
 * shared. Deliberately not a TanStack Query query: the public pages show the version and must not
 * carry the query library (platform issue: landing route under 150 KB gzip).
 */
let versionRequest: Promise<VersionInfo> | undefined;
let loadedVersion: VersionInfo | undefined;

function loadVersionOnce(): Promise<VersionInfo> {
  versionRequest ??= fetchVersion().then((info) => (loadedVersion = info));
  return versionRequest;
}

/** Forgets the loaded version (tests start each case from a fresh page). */
export function resetVersionCache(): void {
  versionRequest = undefined;
  loadedVersion = undefined;
}

export function useVersion(): VersionInfo {
  const [info, setInfo] = useState(loadedVersion);
  useEffect(() => {
    let mounted = true;
    void loadVersionOnce().then((loaded) => mounted && setInfo(loaded));
    return () => {
      mounted = false;
    };
  }, []);
  return info ?? DEFAULT_VERSION_INFO;
}
