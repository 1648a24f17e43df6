import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { ZodError } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/db';
import type { DatabaseHandle } from '../../db/connect';
import { refreshTokens, users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { bootstrapAdmin, ensureAdmin, GENERATED_ADMIN_EMAIL } from './bootstrap-admin';

const log = pino({ level: 'silent' }) as FastifyBaseLogger;
let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
// Every test starts from an empty database (refresh tokens go with their users).
beforeEach(() => database.db.delete(users));

const byEmail = async (email: string) =>
  (await database.db.select().from(users).where(eq(users.email, email)))[0];

describe('ensureAdmin', () => {
  it('creates an approved admin, then keeps it and its password', async () => {
    expect(await ensureAdmin(database.db, ' Boss@Uni.Example ', 'first-password')).toEqual({
      action: 'created',
      email: 'boss@uni.example',
    });
    const created = await byEmail('boss@uni.example');
    expect(created).toMatchObject({ role: 'admin', status: 'approved' });
    expect(await verifyPassword(created!.passwordHash, 'first-password')).toBe(true);

    expect(await ensureAdmin(database.db, 'boss@uni.example', 'other-password')).toEqual({
      action: 'kept',
      email: 'boss@uni.example',
    });
    const kept = await byEmail('boss@uni.example');
    expect(kept!.passwordHash).toBe(created!.passwordHash);
  });

  it('promotes an existing account and gives it the configured password', async () => {
    // Somebody registered the address the operator is about to configure.
    const [squatter] = await database.db
      .insert(users)
      .values({
        email: 'boss@uni.example',
        passwordHash: await hashPassword('squatters-password'),
        displayName: 'Squatter',
        role: 'researcher',
        status: 'pending',
      })
      .returning();
    await database.db.insert(refreshTokens).values({
      userId: squatter!.id,
      familyId: crypto.randomUUID(),
      tokenHash: 'h1',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect(await ensureAdmin(database.db, 'boss@uni.example', 'operator-password')).toEqual({
      action: 'promoted',
      email: 'boss@uni.example',
    });
    const row = await byEmail('boss@uni.example');
    expect(row).toMatchObject({ role: 'admin', status: 'approved' });
    expect(await verifyPassword(row!.passwordHash, 'operator-password')).toBe(true);
    expect(await verifyPassword(row!.passwordHash, 'squatters-password')).toBe(false);
    const tokens = await database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, squatter!.id));
    expect(tokens.every((tk) => tk.revokedAt !== null)).toBe(true);
  });

  it('refuses an invalid email or password', async () => {
    await expect(ensureAdmin(database.db, 'nope', 'long-enough-password')).rejects.toThrow(
      ZodError,
    );
    await expect(ensureAdmin(database.db, 'a@b.example', 'short')).rejects.toThrow(ZodError);
    expect(await database.db.select().from(users)).toHaveLength(0);
  });
});

describe('bootstrapAdmin (at start)', () => {
  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when set', async () => {
    const printed: string[] = [];
    const outcome = await bootstrapAdmin(
      database.db,
      { email: 'ops@uni.example', password: 'ops-password-1' },
      log,
      (s) => printed.push(s),
    );
    expect(outcome).toEqual({ action: 'created', email: 'ops@uni.example' });
    expect(printed).toEqual([]);
    const again = await bootstrapAdmin(
      database.db,
      { email: 'ops@uni.example', password: 'ops-password-1' },
      log,
      (s) => printed.push(s),
    );
    expect(again.action).toBe('kept');
  });

  it('on an empty database generates a password and prints it once', async () => {
    const printed: string[] = [];
    const outcome = await bootstrapAdmin(
      database.db,
      { email: undefined, password: undefined },
      log,
      (s) => printed.push(s),
    );
    expect(outcome.action).toBe('created');
    if (outcome.action !== 'created') throw new Error('unreachable');
    expect(outcome.email).toBe(GENERATED_ADMIN_EMAIL);
    const password = outcome.generatedPassword!;
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(`email:    ${GENERATED_ADMIN_EMAIL}`);
    expect(printed[0]).toContain(`password: ${password}`);
    const row = await byEmail(GENERATED_ADMIN_EMAIL);
    expect(row).toMatchObject({ role: 'admin', status: 'approved' });
    expect(await verifyPassword(row!.passwordHash, password)).toBe(true);

    // The next start finds an admin: nothing is generated or printed again.
    const next = await bootstrapAdmin(
      database.db,
      { email: undefined, password: undefined },
      log,
      (s) => printed.push(s),
    );
    expect(next).toEqual({ action: 'none' });
    expect(printed).toHaveLength(1);
  });

  it('keeps the generated password out of the log: it goes to the console only', async () => {
    const lines: string[] = [];
    const capture = pino(
      { level: 'trace' },
      { write: (s: string) => void lines.push(s) },
    ) as FastifyBaseLogger;
    const printed: string[] = [];
    const outcome = await bootstrapAdmin(
      database.db,
      { email: undefined, password: undefined },
      capture,
      (s) => printed.push(s),
    );
    if (outcome.action !== 'created') throw new Error('expected a generated admin');
    expect(lines.join('')).not.toContain(outcome.generatedPassword!);
    expect(printed.join('')).toContain(outcome.generatedPassword!);
  });

  it('never promotes an account registered under the generated address', async () => {
    await database.db.insert(users).values({
      email: GENERATED_ADMIN_EMAIL,
      passwordHash: await hashPassword('attacker-password'),
      displayName: 'Not the admin',
      role: 'researcher',
      status: 'pending',
    });
    const outcome = await bootstrapAdmin(
      database.db,
      { email: undefined, password: undefined },
      log,
      () => undefined,
    );
    if (outcome.action !== 'created') throw new Error('expected a generated admin');
    expect(outcome.email).not.toBe(GENERATED_ADMIN_EMAIL);
    expect(outcome.email).toMatch(/^admin-[0-9a-f]{8}@econagents\.local$/);
    expect(await byEmail(GENERATED_ADMIN_EMAIL)).toMatchObject({
      role: 'researcher',
      status: 'pending',
    });
    expect(await byEmail(outcome.email)).toMatchObject({ role: 'admin', status: 'approved' });
  });

  it('creates one admin when two processes start at the same moment', async () => {
    const printed: string[] = [];
    const outcomes = await Promise.all([
      bootstrapAdmin(database.db, { email: undefined, password: undefined }, log, (s) =>
        printed.push(s),
      ),
      bootstrapAdmin(database.db, { email: undefined, password: undefined }, log, (s) =>
        printed.push(s),
      ),
    ]);
    expect(outcomes.filter((o) => o.action === 'created')).toHaveLength(1);
    expect(printed).toHaveLength(1);
    expect(await database.db.select().from(users)).toHaveLength(1);
  });
});
