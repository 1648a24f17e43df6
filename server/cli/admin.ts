import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connect';
import { ensureAdmin } from '../modules/users/bootstrap-admin';

const USAGE = 'Usage: npm run admin -- create --email <email> --password <password>';

/** `npm run admin -- create --email X --password Y`: creates or promotes an approved admin. */
async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' } },
  });
  if (positionals[0] !== 'create' || !values.email || !values.password) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const outcome = await ensureAdmin(database.db, values.email, values.password);
    const said = {
      created: 'Created administrator',
      promoted: 'Made existing account an approved administrator (password unchanged):',
      kept: 'Administrator already exists (password unchanged):',
      none: '',
    }[outcome.action];
    console.log(`${said} ${'email' in outcome ? outcome.email : ''}`.trim());
    return 0;
  } catch (err) {
    if (err instanceof ZodError) {
      console.error(err.issues.map((i) => i.message).join('; '));
      return 2;
    }
    throw err;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
