import { useQuery } from '@tanstack/react-query';
import type { VersionInfo } from '../../common/api';
import { DEFAULT_VERSION, DEFAULT_VERSION_PREFIX } from '../../common/constants';

export const DEFAULT_VERSION_INFO: VersionInfo = {
  version: DEFAULT_VERSION,
  prefix: DEFAULT_VERSION_PREFIX,
};

/** Reads the static version file; failures are only logged (platform.md §8) and the defaults stay. */
export async function fetchVersion(signal?: AbortSignal): Promise<VersionInfo> {
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

export function useVersion(): VersionInfo {
  const query = useQuery({
    queryKey: ['version'],
    queryFn: ({ signal }) => fetchVersion(signal),
    staleTime: Infinity,
  });
  return query.data ?? DEFAULT_VERSION_INFO;
}
