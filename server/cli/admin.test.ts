import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../test/db';
import { openPglite, type DatabaseHandle } from '../db/connect';
import { emailOutbox, refreshTokens, users } from '../db/schema';
import { verifyPassword } from '../modules/auth/passwords';
import { runAdminCommand } from './admin-command';
import { ACCESS_REVOKED_CHANNEL } from '../platform/active-users';
import { createPostgresEventBus } from '../platform/events';

const silentLog = pino({ level: 'silent' }) as FastifyBaseLogger;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The environment a command gets: this one without the variables the cases set themselves. */
function commandEnv(env: Record<string, string>): Record<string, string | undefined> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'DATA_DIR'].includes(k),
    ),
  );
  return { ...clean, LOG_LEVEL: 'silent', ...env };
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run admin -- create --email X --password Y`, run as an operator would; `direct` skips npm
 * (what `npm run admin` runs, without npm's echo of the command line). Each process costs a few
 * seconds of CPU under tsx, so each file's case runs the command once as a process and the
 * variations in this process (`inProcess`).
 */
function runAdmin(args: string[], env: Record<string, string>, direct = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const [cmd, ...pre] = direct
      ? [process.execPath, '--import', 'tsx', 'server/cli/admin.ts']
      : ['npm', 'run', 'admin', '--'];
    const child = spawn(cmd!, [...pre, ...args], { cwd: ROOT, env: commandEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same command as `npm run admin -- <args>` runs it (admin.ts), in this process. */
async function inProcess(args: string[], env: Record<string, string>): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await runAdminCommand(args, commandEnv(env), {
    log: (line) => (stdout += `${line}\n`),
    error: (line) => (stderr += `${line}\n`),
  });
  return { code, stdout, stderr };
}

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-admin-cli-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function adminRow(handle: DatabaseHandle, email: string) {
  const [row] = await handle.db.select().from(users).where(eq(users.email, email));
  return row;
}

describe('npm run admin -- create', () => {
  it('explains its usage and exits 2 on a bad command line, without touching the database', async () => {
    const env = { DATA_DIR: dataDir };
    const [usage, ...badLines] = await Promise.all([
      runAdmin([], env),
      ...[['frobnicate'], ['create', '--email', 'a@b.example'], ['create', '--bogus']].map((a) =>
        inProcess(a, env),
      ),
    ]);
    for (const res of [usage!, ...badLines]) {
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(
        'Usage: npm run admin -- create --email <email> --password <password>',
      );
    }
    const [weak, badEmail] = await Promise.all([
      inProcess(['create', '--email', 'boss@uni.example', '--password', 'short'], env),
      inProcess(['create', '--email', 'boss', '--password', 'long-enough-1'], env),
    ]);
    expect(weak!.code).toBe(2);
    expect(weak!.stderr).toContain('password must be at least 8 characters');
    expect(badEmail!.code).toBe(2);
    expect(badEmail!.stderr).toContain('email must be a valid e-mail address');
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  }, 120_000);

  it('creates an approved admin in the embedded database of DATA_DIR, then keeps it', async () => {
    const res = await runAdmin(
      ['create', '--email', ' Boss@Uni.Example ', '--password', 'cli-password-1'],
      { DATA_DIR: dataDir },
    );
    expect(res.stderr).not.toMatch(/error/i);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Created administrator boss@uni.example');
    // npm echoes the command line it runs ("> node ... --password ..."); the program does not.
    const own = res.stdout
      .split('\n')
      .filter((l) => !l.startsWith('> '))
      .join('\n');
    expect(own).not.toContain('cli-password-1');

    const again = await inProcess(
      ['create', '--email', 'boss@uni.example', '--password', 'another-password'],
      { DATA_DIR: dataDir },
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      'Administrator already exists (password unchanged): boss@uni.example',
    );

    const handle = await openPglite(dataDir);
    try {
      const row = await adminRow(handle, 'boss@uni.example');
      expect(row).toMatchObject({ role: 'admin', status: 'approved' });
      expect(await verifyPassword(row!.passwordHash, 'cli-password-1')).toBe(true);
    } finally {
      await handle.close();
    }
  }, 180_000);

  it('reset-password sets a new password for an existing account and ends its sessions', async () => {
    const handle = await openPglite(dataDir);
    try {
      const row = await adminRow(handle, 'boss@uni.example');
      await handle.db.insert(refreshTokens).values({
        userId: row!.id,
        familyId: crypto.randomUUID(),
        tokenHash: 'not-a-real-hash',
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    } finally {
      await handle.close();
    }
    const res = await runAdmin(
      ['reset-password', '--email', 'Boss@uni.example', '--password', 'found-it-again'],
      { DATA_DIR: dataDir },
      true,
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('New password set for boss@uni.example; 1 session signed out.');
    expect(res.stdout).not.toContain('found-it-again');

    const unknown = await inProcess(
      ['reset-password', '--email', 'nobody@uni.example', '--password', 'whatever-123'],
      { DATA_DIR: dataDir },
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account has the e-mail address nobody@uni.example.');

    const after = await openPglite(dataDir);
    try {
      const row = await adminRow(after, 'boss@uni.example');
      expect(await verifyPassword(row!.passwordHash, 'found-it-again')).toBe(true);
      const tokens = await after.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.userId, row!.id));
      expect(tokens.map((t) => t.revokedReason)).toEqual(['password-reset']);
      // The owner is told (stored in the outbox: no SMTP_URL here).
      const mails = await after.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, 'boss@uni.example'));
      expect(mails.map((m) => m.subject)).toEqual(['Your EconAgents password was changed']);
    } finally {
      await after.close();
    }
  }, 120_000);

  // Needs a PostgreSQL server to point DATABASE_URL at: skipped only where there is none
  // (TEST_DATABASE_URL, or a local server: test/local-postgres.ts). .ci/run always sets it.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'works on PostgreSQL through DATABASE_URL (needs TEST_DATABASE_URL)',
    async () => {
      const handle = await createPostgresDatabase();
      try {
        if (handle.kind !== 'postgres') throw new Error('unreachable');
        const res = await runAdmin(
          ['create', '--email', 'pg-boss@uni.example', '--password', 'cli-password-2'],
          { DATABASE_URL: handle.url, DATA_DIR: dataDir },
        );
        expect(res.code).toBe(0);
        expect(res.stdout).toContain('Created administrator pg-boss@uni.example');
        const admin = await adminRow(handle, 'pg-boss@uni.example');
        expect(admin).toMatchObject({ role: 'admin', status: 'approved' });

        // A reset tells the running servers on the bus, so the account's sockets close at once.
        const bus = await createPostgresEventBus(handle.url, handle.pool, silentLog);
        const heard: unknown[] = [];
        bus.subscribe(ACCESS_REVOKED_CHANNEL, (payload) => heard.push(payload));
        await bus.ready();
        try {
          const reset = await inProcess(
            ['reset-password', '--email', 'pg-boss@uni.example', '--password', 'cli-password-3'],
            { DATABASE_URL: handle.url, DATA_DIR: dataDir },
          );
          expect(reset.stderr).toBe('');
          expect(reset.code).toBe(0);
          await expect.poll(() => heard, { timeout: 5000 }).toEqual([{ userId: admin!.id }]);
        } finally {
          await bus.close();
        }
      } finally {
        await handle.close();
      }
    },
    120_000,
  );
});
