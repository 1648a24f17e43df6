import type { DatasetSource } from './datasets';

/**
 * Which catalog source values the platform can actually fetch from: World Bank, FRED and IMF
 * have connectors (server/sources; a test checks each has one), and `custom` is data researchers
 * bring (uploads, URLs, Kaggle, derived datasets). The spec's other values (EconLit, RePEc,
 * SSRN, NBER, BLS, Census, ...) remain valid labels for an entry described by hand, but no
 * connector reaches them: screens list them as "Not connected", never as sources to pick.
 */
export const CONNECTED_DATASET_SOURCES = [
  'world_bank',
  'fred',
  'imf',
  'custom',
] as const satisfies readonly DatasetSource[];

export function isConnectedSource(source: DatasetSource): boolean {
  return (CONNECTED_DATASET_SOURCES as readonly string[]).includes(source);
}

export const NOT_CONNECTED_LABEL = 'Not connected';
