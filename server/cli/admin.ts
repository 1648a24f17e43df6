import { runAdminCommand } from './admin-command';

/** `npm run admin -- create|reset-password --email X --password Y` (admin-command.ts). */
runAdminCommand(process.argv.slice(2), process.env, console).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
