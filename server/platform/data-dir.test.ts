import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { closeContext, createContext } from '../bootstrap';
import { loadConfig } from '../config';
import { makeOwnerOnly } from './data-dir';

/**
 * DATA_DIR and everything under it are readable by the server's account only: a fresh start
 * creates it that way (embedded database, secrets.json), and an existing tree that others could
 * read is made owner-only at start, with a log line.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  // The parent is world-readable on purpose: only what the server creates is checked.
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-datadir-'));
  fs.chmodSync(d, 0o755);
  dirs.push(d);
  return d;
}

/** Every path under `root` (itself included) whose group or other permission bits are set. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const stat = fs.lstatSync(current);
    if (stat.isSymbolicLink()) continue;
    if ((stat.mode & 0o077) !== 0) found.push(`${current} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
    }
  }
  return found;
}

function countFiles(root: string): number {
  let n = 0;
  const pending = [root];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (fs.statSync(current).isDirectory()) {
      for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
    } else n += 1;
  }
  return n;
}

function captureLog() {
  const lines: Array<{ level: number; msg: string; fixed?: number }> = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { log: log as unknown as FastifyBaseLogger, lines };
}

describe('DATA_DIR file modes', () => {
  it('a fresh start with the embedded database creates nothing other accounts can read', async () => {
    // Another program's permissive umask must not matter.
    const previous = process.umask(0o000);
    const dataDir = path.join(tempDir(), 'data');
    try {
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const { log } = captureLog();
      const ctx = await createContext(config, { worker: false, log });
      try {
        // Write through the database so that data and WAL files exist.
        await ctx.database.db.execute('select 1');
        expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);
        expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
        expect(countFiles(path.join(dataDir, 'pgdata'))).toBeGreaterThan(100);
        // A file a team stores later (an upload) inherits the process umask.
        fs.mkdirSync(path.join(dataDir, 'services', 'uploads'), { recursive: true });
        fs.writeFileSync(path.join(dataDir, 'services', 'uploads', 'data.csv'), 'a,b\n1,2\n');
        expect(openToOthers(dataDir)).toEqual([]);
        expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
        expect(fs.statSync(path.join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
      } finally {
        await closeContext(ctx);
      }
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      process.umask(previous);
    }
  }, 120_000);

  it('makes an existing readable tree owner-only at start and says so in the log', async () => {
    const previous = process.umask(0o022);
    const dataDir = tempDir();
    try {
      fs.mkdirSync(path.join(dataDir, 'services', 'x'), { recursive: true, mode: 0o777 });
      fs.chmodSync(path.join(dataDir, 'services', 'x'), 0o777);
      fs.writeFileSync(path.join(dataDir, 'services', 'x', 'upload.csv'), 'a\n', { mode: 0o666 });
      fs.chmodSync(path.join(dataDir, 'services', 'x', 'upload.csv'), 0o666);
      fs.writeFileSync(
        path.join(dataDir, 'secrets.json'),
        JSON.stringify({
          jwtSecret: 'j'.repeat(48),
          encryptionKey: Buffer.alloc(32, 1).toString('base64'),
        }),
        { mode: 0o644 },
      );
      expect(openToOthers(dataDir).length).toBe(5);
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        // PostgreSQL-style start, so no database files are made here: only the fix is seen.
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      });
      const { log, lines } = captureLog();
      await createContext(config, { worker: false, log }).catch(() => undefined);
      expect(openToOthers(dataDir)).toEqual([]);
      expect(fs.statSync(path.join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, 'services', 'x')).mode & 0o777).toBe(0o700);
      const line = lines.find((l) => l.msg.startsWith('DATA_DIR: made'));
      expect(line).toMatchObject({ fixed: 5 });
      expect(line!.msg).toContain('readable by this account only');
    } finally {
      process.umask(previous);
    }
  });

  it('does not follow symbolic links out of DATA_DIR', () => {
    const outside = tempDir();
    const target = path.join(outside, 'shared.txt');
    fs.writeFileSync(target, 'x');
    fs.chmodSync(target, 0o644);
    const dataDir = tempDir();
    fs.symlinkSync(target, path.join(dataDir, 'link'));
    makeOwnerOnly(dataDir);
    expect(fs.statSync(target).mode & 0o777).toBe(0o644);
  });
});
