import { describe, expect, it } from 'vitest';
import { splitMemoryLimit } from './duckdb';

describe('splitMemoryLimit', () => {
  it('divides the configured total between the instances, in KiB', () => {
    expect(splitMemoryLimit('1GB', 2)).toBe('488281KiB');
    expect(splitMemoryLimit('512MiB', 2)).toBe('262144KiB');
    expect(splitMemoryLimit(' 1.5 gb ', 3)).toBe('488281KiB');
    expect(splitMemoryLimit('2TiB', 1)).toBe(`${2 * 1024 ** 3}KiB`);
  });

  it('refuses what is not a memory limit', () => {
    expect(() => splitMemoryLimit('lots', 2)).toThrow(/Not a memory limit/);
    expect(() => splitMemoryLimit('1PB', 2)).toThrow(/Not a memory limit/);
  });
});
