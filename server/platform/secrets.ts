import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Server secrets: the JWT signing secret and the key that encrypts stored API keys.
 * Each comes from the environment, or is generated once into `${dataDir}/secrets.json`
 * (mode 0600). Processes that share a database must share these: in the scale-out mode set
 * JWT_SECRET and ENCRYPTION_KEY, or give every process the same DATA_DIR.
 */
export interface Secrets {
  jwtSecret: Uint8Array;
  encryptionKey: Buffer;
}

interface SecretsFile {
  jwtSecret: string;
  encryptionKey: string;
}

function parseKey(value: string, name: string): Buffer {
  const fromB64 = Buffer.from(value, 'base64');
  if (fromB64.length === 32) return fromB64;
  const fromHex = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : undefined;
  if (fromHex) return fromHex;
  throw new Error(`${name} must be 32 bytes, base64 or hex encoded (openssl rand -base64 32)`);
}

export function loadSecrets(opts: {
  dataDir: string;
  jwtSecret: string | undefined;
  encryptionKey: string | undefined;
}): Secrets {
  let stored: SecretsFile | undefined;
  const file = path.join(opts.dataDir, 'secrets.json');
  if (!opts.jwtSecret || !opts.encryptionKey) {
    if (fs.existsSync(file)) {
      stored = JSON.parse(fs.readFileSync(file, 'utf8')) as SecretsFile;
    } else {
      stored = {
        jwtSecret: crypto.randomBytes(48).toString('base64'),
        encryptionKey: crypto.randomBytes(32).toString('base64'),
      };
      fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
      // 'wx' fails if another process created it first; then read theirs.
      try {
        fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600, flag: 'wx' });
      } catch {
        stored = JSON.parse(fs.readFileSync(file, 'utf8')) as SecretsFile;
      }
    }
  }
  const jwt = opts.jwtSecret ?? stored!.jwtSecret;
  if (jwt.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return {
    jwtSecret: new TextEncoder().encode(jwt),
    encryptionKey: parseKey(opts.encryptionKey ?? stored!.encryptionKey, 'ENCRYPTION_KEY'),
  };
}

const VERSION = 'v1';

/** AES-256-GCM: returns `v1.<iv>.<tag>.<ciphertext>`, all base64url. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    VERSION,
    iv.toString('base64url'),
    tag.toString('base64url'),
    ct.toString('base64url'),
  ].join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined)
    throw new Error('Unknown secret format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}

/** Keys shorter than this are shown without any of their characters. */
export const MASK_MIN_LENGTH = 12;

/**
 * What the API shows instead of a stored key: enough to recognise it (its last 4 characters),
 * never enough to use or guess it. Nothing of the start (a provider prefix such as `sk-` says
 * little, and on short keys every character counts), and nothing at all of keys under 12
 * characters.
 */
export function maskSecret(plaintext: string): string {
  if (plaintext.length < MASK_MIN_LENGTH) return '••••••••';
  return `••••••••${plaintext.slice(-4)}`;
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}
