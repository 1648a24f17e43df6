import { parseArgs } from 'node:util';
import { emailSchema, passwordSchema } from '../../common/auth';
import { ConfigError, loadConfig } from '../config';
import { DataDirInUseError } from '../db/connect';
import { openDatabase } from '../db/connect';
import { ensureAdmin } from '../modules/users/bootstrap-admin';

const USAGE = 'Usage: npm run admin -- create --email <email> --password <password>';

/** Exit codes: 0 done, 1 failed (database, configuration), 2 bad command line. */
async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { email: { type: 'string' }, password: { type: 'string' } },
    });
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (
    positionals[0] !== 'create' ||
    positionals.length !== 1 ||
    !values.email ||
    !values.password
  ) {
    console.error(USAGE);
    return 2;
  }
  // Checked before the database is opened: a typo should not wait for a migration.
  const problems = [
    ...(emailSchema.safeParse(values.email).error?.issues ?? []),
    ...(passwordSchema.safeParse(values.password).error?.issues ?? []),
  ].map((i) => i.message);
  if (problems.length > 0) {
    console.error(problems.join('; '));
    return 2;
  }

  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const outcome = await ensureAdmin(database.db, values.email, values.password);
    const said = {
      created: 'Created administrator',
      promoted: 'Made the existing account an approved administrator with the given password:',
      kept: 'Administrator already exists (password unchanged):',
      none: '',
    }[outcome.action];
    console.log(`${said} ${'email' in outcome ? outcome.email : ''}`.trim());
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(
      err instanceof ConfigError || err instanceof DataDirInUseError ? err.message : err,
    );
    process.exit(1);
  },
);
