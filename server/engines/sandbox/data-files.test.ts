import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildBwrapArgs } from './bwrap-args';
import { DEFAULT_LIMITS } from './limits';
import { createSandbox, MAX_DATA_FILES_BYTES } from './sandbox';
import { hasSandbox, sandboxSkipReason, skipReason } from '../../../test/requirements';

/**
 * Input data placed read-only in the working directory's data/ folder (a project's dataset for
 * the Code team): mounted with --ro-bind-data, readable, not writable, not removable.
 */

describe('read-only data files', () => {
  it('are mounted with --ro-bind-data under a folder created for them', () => {
    const plan = buildBwrapArgs({
      limits: DEFAULT_LIMITS,
      etcDir: '/prepared/etc',
      files: [
        { dest: '/work/main.py', content: 'print(1)' },
        { dest: '/work/data/gdp.csv', content: Buffer.from('year,gdp\n'), readOnly: true },
      ],
      env: {},
      command: ['/usr/bin/python3', 'main.py'],
      seccomp: null,
    });
    const args = plan.args.join(' ');
    expect(args).toContain('--dir /work/data');
    expect(args).toContain('--file 4 /work/main.py');
    expect(args).toContain('--ro-bind-data 5 /work/data/gdp.csv');
    expect(args.indexOf('--dir /work/data')).toBeLessThan(args.indexOf('--ro-bind-data'));
    expect(plan.inputs[1]).toEqual(Buffer.from('year,gdp\n'));
  });

  it.skipIf(!hasSandbox)(
    `can be read by the program but not changed or removed${sandboxSkipReason}`,
    async () => {
      const sandbox = createSandbox({ maxTimeLimitSeconds: 20 });
      const result = await sandbox.run({
        language: 'python',
        code: [
          'print(open("data/gdp.csv").read().strip())',
          'for attempt in (lambda: open("data/gdp.csv", "w"), lambda: __import__("os").remove("data/gdp.csv")):',
          '    try:',
          '        attempt()',
          '        print("changed")',
          '    except OSError as e:',
          '        print("refused", e.errno)',
        ].join('\n'),
        dataFiles: { 'gdp.csv': Buffer.from('year,gdp\n2020,1.5\n') },
        timeLimitSeconds: 20,
      });
      expect(result.kind, result.output).toBe('ok');
      const lines = result.output.trim().split('\n');
      expect(lines.slice(0, 2)).toEqual(['year,gdp', '2020,1.5']);
      expect(lines.slice(2)).toHaveLength(2);
      for (const line of lines.slice(2)) expect(line).toMatch(/^refused \d+$/);
    },
  );

  it.skipIf(!existsSync('/usr/bin/python3'))(
    'refuses a bad data file name and too many bytes before anything runs' +
      skipReason(existsSync('/usr/bin/python3') ? null : '/usr/bin/python3 is absent'),
    async () => {
      // /bin/true stands in for bwrap: the refusals come before any sandbox is built.
      const sandbox = createSandbox({ bwrapPath: '/bin/true' });
      const bad = await sandbox.run({
        language: 'python',
        code: 'print(1)',
        dataFiles: { '../etc.csv': 'x' },
      });
      expect(bad).toMatchObject({ kind: 'invalid' });
      expect(bad.error).toMatch(/Data file name '..\/etc.csv' is not allowed/);
      const big = await sandbox.run({
        language: 'python',
        code: 'print(1)',
        dataFiles: { 'big.csv': Buffer.alloc(MAX_DATA_FILES_BYTES + 1) },
      });
      expect(big).toMatchObject({ kind: 'invalid', error: 'The data files are too large to run' });
    },
  );
});
