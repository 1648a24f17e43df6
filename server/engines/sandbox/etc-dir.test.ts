import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildEtcDir, ETC_SUPPORT_NAME, etcSignature, removeOrphanCopies } from './etc-dir';
import { PASSWD, PYTHON_SITECUSTOMIZE } from './support-files';

/** The prepared /etc bound into every run: copies of the listed entries only, readable ones. */
describe('the prepared /etc', () => {
  let host: string;
  let out: string;
  let sources: string[];
  let umask: number;

  beforeEach(() => {
    // The host's files are readable by others, as /etc's are; an app built earlier in this
    // worker leaves the server's owner-only umask (077) behind, which would make them private.
    umask = process.umask(0o022);
    host = mkdtempSync(path.join(tmpdir(), 'etc-host-'));
    out = mkdtempSync(path.join(tmpdir(), 'etc-out-'));
    writeFileSync(path.join(host, 'ld.so.cache'), 'cache');
    mkdirSync(path.join(host, 'alternatives'));
    symlinkSync('/usr/lib/blas/libblas.so.3', path.join(host, 'alternatives', 'libblas.so.3'));
    mkdirSync(path.join(host, 'R'));
    writeFileSync(path.join(host, 'R', 'Renviron'), 'R_HOME=/usr/lib/R');
    writeFileSync(path.join(host, 'R', 'secret'), 'key', { mode: 0o600 });
    chmodSync(path.join(host, 'R', 'secret'), 0o600);
    mkdirSync(path.join(host, 'R', 'closed'));
    chmodSync(path.join(host, 'R', 'closed'), 0o700);
    writeFileSync(path.join(host, 'R', 'closed', 'x'), 'x');
    symlinkSync('/usr/share/zoneinfo/Etc/UTC', path.join(host, 'localtime'));
    writeFileSync(path.join(host, 'shadow'), 'root:x');
    sources = ['ld.so.cache', 'alternatives', 'R', 'localtime', 'absent'].map((n) =>
      path.join(host, n),
    );
  });

  afterEach(() => {
    process.umask(umask);
    rmSync(host, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('copies the listed entries (links as links), passwd, group and the support files, and nothing else', async () => {
    const { dir } = await buildEtcDir(out, sources);
    expect(readdirSync(dir).sort()).toEqual([
      'R',
      'alternatives',
      'group',
      'ld.so.cache',
      'localtime',
      'passwd',
      ETC_SUPPORT_NAME,
    ]);
    expect(readFileSync(path.join(dir, 'ld.so.cache'), 'utf8')).toBe('cache');
    expect(readlinkSync(path.join(dir, 'localtime'))).toBe('/usr/share/zoneinfo/Etc/UTC');
    expect(readlinkSync(path.join(dir, 'alternatives', 'libblas.so.3'))).toBe(
      '/usr/lib/blas/libblas.so.3',
    );
    expect(readFileSync(path.join(dir, 'passwd'), 'utf8')).toBe(PASSWD);
    expect(
      readFileSync(path.join(dir, ETC_SUPPORT_NAME, 'python', 'sitecustomize.py'), 'utf8'),
    ).toBe(PYTHON_SITECUSTOMIZE);
  });

  it('leaves out what others cannot read on the host, and opens the rest to them', async () => {
    const { dir } = await buildEtcDir(out, sources);
    expect(readdirSync(path.join(dir, 'R'))).toEqual(['Renviron']);
    expect(lstatSync(dir).mode & 0o777).toBe(0o755);
    expect(lstatSync(path.join(dir, 'R')).mode & 0o777).toBe(0o755);
    expect(lstatSync(path.join(dir, 'R', 'Renviron')).mode & 0o777).toBe(0o644);
    expect(lstatSync(path.join(dir, 'passwd')).mode & 0o777).toBe(0o644);
  });

  it('watches the listed entries, the folders and the files it copied', async () => {
    const { tracked } = await buildEtcDir(out, sources);
    expect(tracked.sort()).toEqual(
      [
        ...sources,
        ...['alternatives', 'R', 'ld.so.cache', 'R/Renviron'].map((n) => path.join(host, n)),
      ].sort(),
    );
  });

  it('has a signature that changes when the host changes an entry, and only then', async () => {
    const { tracked } = await buildEtcDir(out, sources);
    const before = etcSignature(tracked);
    expect(etcSignature(tracked)).toBe(before);
    // A file edited in place.
    writeFileSync(path.join(host, 'R', 'Renviron'), 'R_HOME=/usr/lib/R\nX=1');
    const edited = etcSignature(tracked);
    expect(edited).not.toBe(before);
    // The top-level link pointed elsewhere; a listed entry appearing.
    rmSync(path.join(host, 'localtime'));
    symlinkSync('/usr/share/zoneinfo/Europe/Paris', path.join(host, 'localtime'));
    const relinked = etcSignature(tracked);
    expect(relinked).not.toBe(edited);
    writeFileSync(path.join(host, 'absent'), 'now here');
    expect(etcSignature(tracked)).not.toBe(relinked);
  });

  it('removes copies of server processes that are gone, and only those', async () => {
    const { dir: mine } = await buildEtcDir(out, sources);
    // pid 1 always exists; 2^22 + 1 is above the kernel's largest pid, so never a process.
    const alive = path.join(out, 'econagents-sandbox-1-abcdef');
    const gone = path.join(out, `econagents-sandbox-${2 ** 22 + 1}-abcdef`);
    const other = path.join(out, 'unrelated');
    for (const d of [alive, gone, other]) mkdirSync(d);
    await removeOrphanCopies(out);
    expect(readdirSync(out).sort()).toEqual(
      [path.basename(mine), path.basename(alive), 'unrelated'].sort(),
    );
  });
});
