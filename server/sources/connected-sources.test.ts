import { describe, expect, it } from 'vitest';
import { CONNECTED_DATASET_SOURCES, isConnectedSource } from '../../common/dataset-sources';
import { DATASET_SOURCES } from '../../common/datasets';
import { DATA_SOURCE_IDS } from './data-source';

/**
 * The catalog's sources shown as connected are exactly those the server has a connector for
 * (plus `custom`, the researcher's own data); EconLit, RePEc, SSRN, NBER, BLS and Census are not.
 */
describe('connected catalog sources', () => {
  it('are the catalog values with a data connector, and custom', () => {
    const withConnector = DATASET_SOURCES.filter((s) =>
      (DATA_SOURCE_IDS as readonly string[]).includes(s),
    );
    expect([...CONNECTED_DATASET_SOURCES].sort()).toEqual([...withConnector, 'custom'].sort());
  });

  it('leave out the spec sources nothing reaches', () => {
    for (const s of ['econlit', 'repec', 'ssrn', 'nber', 'bls', 'census'] as const) {
      expect(isConnectedSource(s), s).toBe(false);
    }
    for (const s of ['world_bank', 'fred', 'imf'] as const) expect(isConnectedSource(s)).toBe(true);
  });
});
