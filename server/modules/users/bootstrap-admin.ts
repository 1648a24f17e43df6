import crypto from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/connect';
import { users } from '../../db/schema';
import { emailSchema, passwordSchema } from '../../../common/auth';
import { hashPassword } from '../auth/passwords';

export const GENERATED_ADMIN_EMAIL = 'admin@econagents.local';

export type AdminOutcome =
  | { action: 'created'; email: string; generatedPassword?: string }
  | { action: 'promoted'; email: string }
  | { action: 'kept'; email: string }
  | { action: 'none' };

/**
 * Creates (or makes sure of) an approved admin with this email. An existing account keeps its
 * password; it is approved and given the admin role if it had not.
 */
export async function ensureAdmin(
  db: Database,
  email: string,
  password: string,
): Promise<AdminOutcome> {
  const cleanEmail = emailSchema.parse(email);
  passwordSchema.parse(password);
  const [existing] = await db.select().from(users).where(eq(users.email, cleanEmail)).limit(1);
  if (existing) {
    if (existing.role === 'admin' && existing.status === 'approved')
      return { action: 'kept', email: cleanEmail };
    await db
      .update(users)
      .set({ role: 'admin', status: 'approved', updatedAt: new Date() })
      .where(eq(users.id, existing.id));
    return { action: 'promoted', email: cleanEmail };
  }
  await db.insert(users).values({
    email: cleanEmail,
    passwordHash: await hashPassword(password),
    displayName: 'Administrator',
    role: 'admin',
    status: 'approved',
  });
  return { action: 'created', email: cleanEmail };
}

/**
 * At start: the configured admin, or, on a database without any admin, one with a random
 * password that is printed once to the console (never to the log).
 */
export async function bootstrapAdmin(
  db: Database,
  admin: { email: string | undefined; password: string | undefined },
  log: FastifyBaseLogger,
): Promise<AdminOutcome> {
  if (admin.email && admin.password) {
    const outcome = await ensureAdmin(db, admin.email, admin.password);
    log.info(
      { admin: outcome.action === 'none' ? undefined : outcome.email },
      `Administrator ${outcome.action}`,
    );
    return outcome;
  }
  const [admins] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'approved')));
  if ((admins?.n ?? 0) > 0) return { action: 'none' };
  const password = crypto.randomBytes(12).toString('base64url');
  const outcome = await ensureAdmin(db, GENERATED_ADMIN_EMAIL, password);
  if (outcome.action !== 'created') {
    // Somebody registered this address earlier: it was promoted and keeps its own password.
    log.warn({ email: GENERATED_ADMIN_EMAIL }, 'Existing account promoted to administrator');
    return outcome;
  }
  process.stdout.write(
    [
      '',
      '================================================================',
      ' No administrator existed, so one was created:',
      `   email:    ${GENERATED_ADMIN_EMAIL}`,
      `   password: ${password}`,
      ' This password is shown only now. Sign in and change it under',
      ' Settings > Security, or set ADMIN_EMAIL and ADMIN_PASSWORD.',
      '================================================================',
      '',
    ].join('\n'),
  );
  return { action: 'created', email: GENERATED_ADMIN_EMAIL, generatedPassword: password };
}
