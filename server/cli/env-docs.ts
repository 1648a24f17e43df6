import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { productTeams } from '../agents/teams';
import { TEAM_ENV_END, TEAM_ENV_START, teamEnvTable } from '../agents/kit/env-docs';

/**
 * `npm run docs:env`: rewrites README.md's table of the variables the teams' connectors and
 * engines declare (their config fragments), so a team never edits the shared table by hand.
 */
const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md');
const text = fs.readFileSync(readme, 'utf8');
const start = text.indexOf(TEAM_ENV_START);
const end = text.indexOf(TEAM_ENV_END);
if (start < 0 || end < start) {
  console.error(`README.md has no ${TEAM_ENV_START} ... ${TEAM_ENV_END} block`);
  process.exit(1);
}
const next =
  text.slice(0, start + TEAM_ENV_START.length) +
  '\n\n' +
  teamEnvTable(productTeams) +
  '\n\n' +
  text.slice(end);
fs.writeFileSync(readme, await format(next, { filepath: readme }));
console.log('README.md: team variables table updated');
