import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version in package.json: what /version.json and /api/health report. */
export function readVersion(): string {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}
