import { describe, expect, it } from 'vitest';
import { MAX_MOD_FILE_CHARS } from '../../../common/teams/model';
import { momentCell } from './CalibrationTab';
import { modFileProblem } from './ModFileInput';

describe('the Model screen', () => {
  it('shows a moment of a variable on a unit root as not defined, other gaps as n/a', () => {
    const run = { unitRoot: { nonStationary: ['p'], note: 'The model has a unit root' } };
    expect(momentCell(null, 'p', run)).toBe('not defined (unit root)');
    expect(momentCell(null, 'y', run)).toBe('n/a');
    expect(momentCell(0.0123456, 'y', run)).toBe('0.012346');
    expect(momentCell(null, 'p', { unitRoot: null })).toBe('n/a');
  });

  it('asks for a .mod file and refuses one over the size limit before calling the server', () => {
    expect(modFileProblem({ text: '  ', fileName: '' })).toBe('Choose or paste a Dynare .mod file');
    expect(modFileProblem({ text: 'x'.repeat(MAX_MOD_FILE_CHARS + 1), fileName: 'a.mod' })).toBe(
      'The .mod file is larger than 200 KB',
    );
    expect(modFileProblem({ text: 'var y;', fileName: '' })).toBeUndefined();
  });
});
