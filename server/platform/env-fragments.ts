import { z } from 'zod';
import { ConfigError, type RawEnv } from '../config';

/**
 * Environment variables a team or a service declares for itself (its "config fragment"): a zod
 * object whose keys are the variable names, each with `.describe()` saying what it does (the
 * README's configuration table lists them; test/readme.test.ts keeps the two in step). The
 * fragment is parsed from the same environment as server/config.ts, once, when the runtime
 * starts, so a bad value stops the start with a message naming the variable.
 */
export type EnvFragment = z.ZodObject<Record<string, z.ZodType>>;

/** Parses one fragment; throws ConfigError naming every bad variable. */
export function parseEnvFragment<E extends EnvFragment>(
  fragment: E,
  env: RawEnv,
  owner: string,
): z.output<E> {
  const parsed = fragment.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration (${owner}):\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}

/** The variable names a fragment declares. */
export function envVariables(fragment: EnvFragment): string[] {
  return Object.keys(fragment.shape);
}

/** A boolean variable written as true/false/1/0/yes/no, as in server/config.ts. */
export const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An optional text variable; blank counts as unset. */
export const envOptionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** One documented variable of a fragment: its name, default (as text) and meaning. */
export interface EnvVariableDoc {
  name: string;
  defaultValue: string;
  description: string;
}

/** What the README's team variables table shows for a fragment. */
export function describeEnvFragment(fragment: EnvFragment): EnvVariableDoc[] {
  return Object.entries(fragment.shape).map(([name, schema]) => {
    const def = schema._zod.def as { type: string; defaultValue?: unknown };
    return {
      name,
      defaultValue: def.type === 'default' ? String(def.defaultValue) : 'unset',
      description: schema.description ?? '',
    };
  });
}
