import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, openPglite } from './connect';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-lock-'));
  dirs.push(d);
  return d;
}

describe('embedded database lock', () => {
  it('refuses a data directory that a live process holds, and frees it on close', async () => {
    const dir = tempDir();
    // A live process other than this one "holds" the lock.
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      fs.writeFileSync(path.join(dir, 'pgdata.lock'), String(sleeper.pid));
      await expect(openPglite(dir)).rejects.toBeInstanceOf(DataDirInUseError);
      await expect(openPglite(dir)).rejects.toThrow(/in use by another EconAgents process/);
    } finally {
      sleeper.kill();
    }
  });

  it('takes over a lock left by a dead process and removes it on close', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'pgdata.lock'), '999999999');
    const handle = await openPglite(dir);
    expect(fs.readFileSync(path.join(dir, 'pgdata.lock'), 'utf8')).toBe(String(process.pid));
    await handle.close();
    expect(fs.existsSync(path.join(dir, 'pgdata.lock'))).toBe(false);
  });
});
