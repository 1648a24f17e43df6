import { describe, expect, it } from 'vitest';
import type { ModelDescription } from '../../../../common/teams/model';
import { canonicalModel } from '../../../engines/models/library';
import { writtenAssignments, withParameters } from './feedback';
import { modelPhaseSources, withSources } from './parameter-sources';

const rbc = canonicalModel('RBC');
const find = (list: { name: string }[], name: string) => list.find((p) => p.name === name);

describe('parameter sources after the Mathematical Model phase', () => {
  it("keeps the library's reference for unchanged values and the researcher's words for theirs", () => {
    const written = writtenAssignments('Set beta to 0.985, and phi: 2', rbc);
    expect(written).toEqual({
      beta: { value: 0.985, text: 'beta = 0.985' },
      phi: { value: 2, text: 'phi = 2' },
    });
    const accepted = withParameters(rbc, { beta: 0.985, phi: 2 });
    const sources = modelPhaseSources({
      starting: rbc,
      custom: false,
      accepted,
      written,
      previous: null,
    });
    expect(find(sources, 'beta')).toEqual({
      name: 'beta',
      origin: 'researcher',
      source: 'Set by the researcher: beta = 0.985',
    });
    expect(find(sources, 'alpha')).toMatchObject({ origin: 'library' });
    // the description's own source text follows, so the old justification is gone everywhere
    const described = withSources(accepted, sources);
    expect(find(described.parameters, 'beta')).toMatchObject({
      value: 0.985,
      source: 'Set by the researcher: beta = 0.985',
    });
  });

  it('says "proposed by the model" for a value the model changed, with or without its source', () => {
    const accepted: ModelDescription = {
      ...rbc,
      parameters: rbc.parameters.map((p) =>
        p.name === 'delta'
          ? { ...p, value: 0.02, source: 'A guess' }
          : p.name === 'phi'
            ? { ...p, value: 3, source: ' ' }
            : p,
      ),
    };
    const sources = modelPhaseSources({
      starting: rbc,
      custom: false,
      accepted,
      written: {},
      previous: null,
    });
    expect(find(sources, 'delta')).toEqual({
      name: 'delta',
      origin: 'model',
      source: 'Proposed by the model: A guess',
    });
    expect(find(sources, 'phi')).toMatchObject({
      origin: 'model',
      source: 'Proposed by the model (it gave no source)',
    });
  });

  it("gives an imported model's values the researcher's file as their origin", () => {
    const sources = modelPhaseSources({
      starting: rbc,
      custom: true,
      accepted: rbc,
      written: {},
      previous: null,
    });
    expect(find(sources, 'alpha')).toMatchObject({
      origin: 'researcher',
      source: expect.stringMatching(/^From the researcher's \.mod file/),
    });
  });
});
