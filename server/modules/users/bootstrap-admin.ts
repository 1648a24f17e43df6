import crypto from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/connect';
import { refreshTokens, users } from '../../db/schema';
import { emailSchema, passwordSchema } from '../../../common/auth';
import { hashPassword } from '../auth/passwords';
import { ROLE_CHANGE_LOCK_KEY } from './store';

export const GENERATED_ADMIN_EMAIL = 'admin@econagents.local';

export type AdminOutcome =
  | { action: 'created'; email: string; generatedPassword?: string }
  | { action: 'promoted'; email: string }
  | { action: 'kept'; email: string }
  | { action: 'none' };

/** Inserts an approved administrator unless the email is taken; says whether it did. */
async function insertAdmin(
  q: Pick<Database, 'insert'>,
  email: string,
  passwordHash: string,
): Promise<boolean> {
  const [created] = await q
    .insert(users)
    .values({
      email,
      passwordHash,
      displayName: 'Administrator',
      role: 'admin',
      status: 'approved',
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  return created !== undefined;
}

/**
 * Creates (or makes sure of) an approved admin with this email and password.
 *
 * - No account with the email: it is created.
 * - An approved admin already: kept as it is, password included (the admin may have changed
 *   it since; a restart must not undo that).
 * - Any other account (a pending registration, a suspended admin): it becomes an approved admin AND gets the
 *   given password, and its sessions are ended. Otherwise whoever registered the address first
 *   would become administrator with a password of their choosing.
 *
 * Throws ZodError for an invalid email or password.
 */
export async function ensureAdmin(
  db: Database,
  email: string,
  password: string,
): Promise<AdminOutcome> {
  const cleanEmail = emailSchema.parse(email);
  passwordSchema.parse(password);
  const passwordHash = await hashPassword(password);
  // Insert-or-nothing, so two processes starting together cannot both insert (unique email).
  if (await insertAdmin(db, cleanEmail, passwordHash)) {
    return { action: 'created', email: cleanEmail };
  }

  const [existing] = await db.select().from(users).where(eq(users.email, cleanEmail)).limit(1);
  if (!existing) throw new Error(`Account ${cleanEmail} vanished while being made administrator`);
  if (existing.role === 'admin' && existing.status === 'approved' && !existing.suspendedAt) {
    return { action: 'kept', email: cleanEmail };
  }
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        role: 'admin',
        status: 'approved',
        suspendedAt: null,
        passwordHash,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, existing.id));
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date(), revokedReason: 'password' })
      .where(and(eq(refreshTokens.userId, existing.id), isNull(refreshTokens.revokedAt)));
  });
  return { action: 'promoted', email: cleanEmail };
}

/**
 * At start: the configured admin, or, on a database without any approved admin, a new one with
 * a random password that is printed once to the console (never to the log).
 */
export async function bootstrapAdmin(
  db: Database,
  admin: { email: string | undefined; password: string | undefined },
  log: FastifyBaseLogger,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<AdminOutcome> {
  if (admin.email && admin.password) {
    const outcome = await ensureAdmin(db, admin.email, admin.password);
    log.info(
      { admin: outcome.action === 'none' ? undefined : outcome.email },
      `Administrator ${outcome.action}`,
    );
    return outcome;
  }
  const noAdmin = async (q: Pick<Database, 'select'>) => {
    const [admins] = await q
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.status, 'approved'), isNull(users.suspendedAt)));
    return (admins?.n ?? 0) === 0;
  };
  if (!(await noAdmin(db))) return { action: 'none' };

  const password = crypto.randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  // Under the lock of role changes: a second process starting at the same moment waits, then
  // finds the administrator this one created (checked without it, it could find the generated
  // address taken and create a second administrator under another address).
  const email = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_CHANGE_LOCK_KEY})`);
    if (!(await noAdmin(tx))) return null;
    // Never promote an account somebody registered under the generated address: pick another.
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, GENERATED_ADMIN_EMAIL))
      .limit(1);
    const address = taken
      ? `admin-${crypto.randomBytes(4).toString('hex')}@econagents.local`
      : GENERATED_ADMIN_EMAIL;
    return (await insertAdmin(tx, address, passwordHash)) ? address : null;
  });
  // Another process starting at the same moment created it first and printed its password.
  if (email === null) return { action: 'none' };
  log.info({ admin: email }, 'Administrator created with a generated password (see the console)');
  print(
    [
      '',
      '================================================================',
      ' No administrator existed, so one was created:',
      `   email:    ${email}`,
      `   password: ${password}`,
      ' This password is shown only now. Sign in and change it under',
      ' Settings > Security, or set ADMIN_EMAIL and ADMIN_PASSWORD.',
      '================================================================',
      '',
    ].join('\n'),
  );
  return { action: 'created', email, generatedPassword: password };
}
