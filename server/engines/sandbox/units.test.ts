import { describe, expect, it } from 'vitest';
import { buildBwrapArgs } from './bwrap-args';
import { parseChannel } from './channel';
import { DEFAULT_LIMITS, resolveLimits } from './limits';
import { interpretRun } from './outcome';
import type { RawRun } from './spawn';
import { SUPPORT_DIR } from './support-files';

describe('resolveLimits', () => {
  it('caps a requested time limit at the server maximum and keeps CPU time within it', () => {
    expect(resolveLimits(DEFAULT_LIMITS, 600, 120)).toMatchObject({
      timeLimitSeconds: 120,
      cpuSeconds: 60,
    });
    expect(resolveLimits(DEFAULT_LIMITS, 5, 120)).toMatchObject({
      timeLimitSeconds: 5,
      cpuSeconds: 5,
    });
    expect(resolveLimits(DEFAULT_LIMITS, undefined, 30).timeLimitSeconds).toBe(30);
    expect(resolveLimits(DEFAULT_LIMITS, 0, 30).timeLimitSeconds).toBe(1);
  });
});

describe('parseChannel', () => {
  const frame = (name: string, body: Buffer) =>
    Buffer.concat([Buffer.from(`FIGURE ${body.length} ${name}\n`), body]);

  it('reads the exit status, figures and skipped figures', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0a, 0x00]);
    const data = Buffer.concat([
      Buffer.from('EXIT 0\n'),
      frame('a.png', png),
      Buffer.from('SKIP size big.png\n'),
      frame('b.svg', Buffer.from('<svg/>')),
    ]);
    const report = parseChannel(data, 1000);
    expect(report.exitStatus).toBe(0);
    expect(report.figures).toEqual([
      { name: 'a.png', mimeType: 'image/png', base64: png.toString('base64'), bytes: 6 },
      { name: 'b.svg', mimeType: 'image/svg+xml', base64: 'PHN2Zy8+', bytes: 6 },
    ]);
    expect(report.skipped).toEqual([{ name: 'big.png', reason: 'size' }]);
  });

  it('stops at anything malformed without throwing', () => {
    const cases = [
      Buffer.from('garbage'),
      Buffer.from('EXIT 0\nFIGURE 999 a.png\nshort'),
      Buffer.from('EXIT 0\nFIGURE 3 ../x.png\nabc'),
      Buffer.from('EXIT 0\nFIGURE 3 a.gif\nabc'),
      Buffer.from('EXIT abc\n'),
      Buffer.alloc(5000, 0x41),
    ];
    for (const data of cases) {
      const report = parseChannel(data, 100);
      expect(report.figures).toEqual([]);
    }
    expect(parseChannel(Buffer.from('EXIT 0\nFIGURE 999 a.png\nshort'), 2000).exitStatus).toBe(0);
    expect(parseChannel(Buffer.from('FIGURE 200 a.png\n' + 'x'.repeat(200)), 100).figures).toEqual(
      [],
    );
  });
});

describe('interpretRun', () => {
  const raw = (over: Partial<RawRun>): RawRun => ({
    output: '',
    channel: Buffer.from(''),
    code: 0,
    signal: null,
    timedOut: false,
    outputExceeded: false,
    memoryExceeded: false,
    durationMs: 10,
    ...over,
  });
  const exit = (n: number) => Buffer.from(`EXIT ${n}\n`);

  it('names each way a run ends', () => {
    const L = DEFAULT_LIMITS;
    expect(interpretRun(raw({ channel: exit(0), output: 'hi\n' }), L)).toMatchObject({
      ok: true,
      kind: 'ok',
      output: 'hi\n',
      exitCode: 0,
    });
    expect(interpretRun(raw({ timedOut: true }), L).kind).toBe('time-limit');
    expect(
      interpretRun(raw({ memoryExceeded: true, signal: 'SIGKILL', code: null }), L),
    ).toMatchObject({
      ok: false,
      kind: 'memory-limit',
      error: `Execution stopped: the program's processes together used more than the memory limit of ${L.memoryMb} MB`,
    });
    expect(interpretRun(raw({ outputExceeded: true }), L).kind).toBe('output-limit');
    expect(interpretRun(raw({ channel: exit(152) }), L).kind).toBe('cpu-limit');
    expect(interpretRun(raw({ channel: exit(153) }), L).kind).toBe('file-limit');
    expect(interpretRun(raw({ channel: exit(139) }), L)).toMatchObject({
      kind: 'signal',
      error: 'The program was killed by SIGSEGV',
    });
    expect(interpretRun(raw({ channel: exit(1), output: 'MemoryError\n' }), L).kind).toBe(
      'memory-limit',
    );
    expect(interpretRun(raw({ channel: exit(2) }), L)).toMatchObject({
      kind: 'exit',
      error: 'The program exited with status 2',
    });
    expect(
      interpretRun(raw({ code: 1, output: 'bwrap: No permissions to create new namespace\n' }), L),
    ).toMatchObject({
      kind: 'sandbox-error',
      error: 'The sandbox could not run the code: bwrap: No permissions to create new namespace',
    });
  });

  it('removes NUL characters, which the database cannot store', () => {
    expect(interpretRun(raw({ channel: exit(0), output: 'a\u0000b' }), DEFAULT_LIMITS).output).toBe(
      'ab',
    );
  });
});

describe('buildBwrapArgs', () => {
  const plan = buildBwrapArgs({
    limits: DEFAULT_LIMITS,
    etcDir: '/prepared/etc',
    files: [{ dest: '/work/main.py', content: 'print(1)' }],
    env: { PATH: '/usr/bin' },
    command: ['/usr/bin/python3', 'main.py'],
    seccomp: Buffer.alloc(16),
  });
  const args = plan.args.join(' ');

  it('isolates: new namespaces, no network, no server environment, dies with the server', () => {
    for (const flag of [
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
      '--clearenv',
      '--cap-drop ALL',
      '--remount-ro /',
    ]) {
      expect(args).toContain(flag);
    }
    expect(plan.args).not.toContain('--share-net');
    expect(args).toContain('--file 4 /work/main.py');
    // The filter comes through the descriptor after the files'.
    expect(args).toContain('--seccomp 5');
    expect(plan.inputs).toEqual(['print(1)', Buffer.alloc(16)]);
    expect(args).toContain('--ro-bind /usr /usr');
  });

  it('binds nothing writable from the host: /usr and the prepared /etc, read-only', () => {
    expect(plan.args).not.toContain('--bind');
    const roBinds = plan.args.flatMap((a, i) =>
      a === '--ro-bind' ? [`${plan.args[i + 1]} -> ${plan.args[i + 2]}`] : [],
    );
    expect(roBinds.filter((b) => !/^\/(lib|bin|sbin)/.test(b))).toEqual([
      '/usr -> /usr',
      '/prepared/etc -> /etc',
    ]);
    expect(args).toContain(`--symlink /etc/sandbox ${SUPPORT_DIR}`);
  });
});
