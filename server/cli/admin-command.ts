import { parseArgs } from 'node:util';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { emailSchema, passwordSchema } from '../../common/auth';
import { ConfigError, loadConfig, type RawEnv } from '../config';
import { DataDirInUseError, openDatabase, type DatabaseHandle } from '../db/connect';
import { passwordChangedMail, replacePassword } from '../modules/auth/service';
import { createAuthStore } from '../modules/auth/store';
import { ensureAdmin } from '../modules/users/bootstrap-admin';
import { protectDataDir } from '../platform/data-dir';
import { ACCESS_REVOKED_CHANNEL } from '../platform/active-users';
import { createPostgresEventBus } from '../platform/events';
import { createMailer, type Mailer } from '../platform/mailer';

const USAGE = [
  'Usage: npm run admin -- create --email <email> --password <password>',
  '       npm run admin -- reset-password --email <email> --password <password>',
].join('\n');

const COMMANDS = ['create', 'reset-password'] as const;
type Command = (typeof COMMANDS)[number];

/** Where the command writes: the terminal (console) when run as `npm run admin`. */
export interface AdminOutput {
  log(line: string): void;
  error(line: string): void;
}

/**
 * `npm run admin -- <args>` (server/cli/admin.ts runs it with the process's arguments,
 * environment and console). A function of its own so that the tests can run the cases that only
 * vary the command line in their own process: each process under tsx costs seconds of CPU.
 *
 * Exit codes: 0 done, 1 failed (database, configuration, no such account), 2 bad command line.
 */
export async function runAdminCommand(
  args: string[],
  env: RawEnv,
  out: AdminOutput,
): Promise<number> {
  try {
    return await run(args, env, out);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirInUseError) {
      out.error(err.message);
      return 1;
    }
    throw err;
  }
}

async function run(args: string[], env: RawEnv, out: AdminOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { email: { type: 'string' }, password: { type: 'string' } },
    });
  } catch (err) {
    out.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const command = positionals[0] as Command;
  if (
    !COMMANDS.includes(command) ||
    positionals.length !== 1 ||
    !values.email ||
    !values.password
  ) {
    out.error(USAGE);
    return 2;
  }
  // Checked before the database is opened: a typo should not wait for a migration.
  const email = emailSchema.safeParse(values.email);
  const problems = [
    ...(email.error?.issues ?? []),
    ...(passwordSchema.safeParse(values.password).error?.issues ?? []),
  ].map((i) => i.message);
  if (problems.length > 0 || !email.success) {
    out.error(problems.join('; '));
    return 2;
  }

  const config = loadConfig(env);
  // The command line opens the embedded database as well: its files stay owner-only too.
  protectDataDir(config.dataDir, pino({ level: 'warn' }) as FastifyBaseLogger, {
    create: config.databaseUrl === undefined,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (command === 'create') return await create(database, email.data, values.password, out);
    const mailer = createMailer({
      db: database.db,
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
      // The e-mail's own text is not the operator's business here: only failures are printed.
      log: pino({ level: 'silent' }) as FastifyBaseLogger,
    });
    return await resetPassword(database, mailer, email.data, values.password, out);
  } finally {
    await database.close();
  }
}

async function create(
  database: DatabaseHandle,
  email: string,
  password: string,
  out: AdminOutput,
): Promise<number> {
  const outcome = await ensureAdmin(database.db, email, password);
  const said = {
    created: 'Created administrator',
    promoted: 'Made the existing account an approved administrator with the given password:',
    kept: 'Administrator already exists (password unchanged):',
    none: '',
  }[outcome.action];
  out.log(`${said} ${'email' in outcome ? outcome.email : ''}`.trim());
  return 0;
}

/** For anyone who lost their password, administrators included: no e-mail is involved. */
async function resetPassword(
  database: DatabaseHandle,
  mailer: Mailer,
  email: string,
  password: string,
  out: AdminOutput,
): Promise<number> {
  const store = createAuthStore(database.db);
  const user = await store.findUserByEmail(email);
  if (!user) {
    out.error(`No account has the e-mail address ${email}.`);
    return 1;
  }
  const ended = await replacePassword(store, user.id, password);
  await announceToRunningServers(database, user.id, out);
  const mail = await mailer.send(passwordChangedMail(user, 'administrator'));
  if (mail.status === 'failed') out.error(`The e-mail telling ${email} could not be sent.`);
  out.log(`New password set for ${email}; ${ended} session${ended === 1 ? '' : 's'} signed out.`);
  return 0;
}

/**
 * On PostgreSQL the servers may be running: they are told on the bus, as a reset from the admin
 * area tells them, so the account's open sockets close at once rather than at the next heartbeat.
 * The embedded database cannot be open in a server while this command holds it, so there is
 * nobody to tell. A failure to tell is reported, not fatal: the token version has moved on and
 * every server refuses the old tokens at their next use.
 */
async function announceToRunningServers(
  database: DatabaseHandle,
  userId: string,
  out: AdminOutput,
): Promise<void> {
  if (database.kind !== 'postgres') return;
  const log = pino({ level: 'silent' }) as FastifyBaseLogger;
  try {
    const bus = await createPostgresEventBus(database.url, database.pool, log);
    try {
      await bus.publish(ACCESS_REVOKED_CHANNEL, { userId });
    } finally {
      await bus.close();
    }
  } catch (err) {
    out.error(
      `Could not tell running servers (their sockets close at the next heartbeat): ${
        err instanceof Error ? err.message : String(err)
      }`,
    );
  }
}
