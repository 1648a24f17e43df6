import type { z } from 'zod';
import {
  API_KEY_NAMES,
  SETTINGS_DEFAULTS,
  updateSettingsRequestSchema,
  type Settings,
} from '../../../common/settings';

/**
 * The stored settings document holds only what the user chose (so "not chosen" stays
 * distinguishable from "chose the default", which the model layer needs for the provider).
 * Reading merges it over the defaults field by field; a stored value that no longer passes the
 * current schema (an option that was removed) falls back to the default instead of failing.
 */

type Sections = Omit<Settings, 'updatedAt' | 'profile' | 'apiKeys'> & {
  profile: Pick<Settings['profile'], 'theme' | 'notifications'>;
  apiKeys: Pick<
    Settings['apiKeys'],
    'llmProvider' | 'llmBaseUrl' | 'kaggleUsername' | 'maxConcurrentRequests' | 'requestTimeout'
  >;
};
export type StoredChoices = { [S in keyof Sections]?: Partial<Sections[S]> };

type SectionName = keyof Sections;
const SECTIONS = Object.keys(SETTINGS_DEFAULTS) as SectionName[];

type UpdateInput = z.output<typeof updateSettingsRequestSchema>;

/** Fields of a PUT that are not stored in the document (the account name, the sealed keys). */
const NOT_STORED = new Set<string>(['displayName', ...API_KEY_NAMES]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fieldSchema(section: SectionName, field: string): z.ZodType | undefined {
  const sectionSchema = updateSettingsRequestSchema.shape[section].unwrap();
  return (sectionSchema.shape as Record<string, z.ZodType>)[field];
}

/** The user's stored choices, cleaned: unknown or no-longer-valid values are dropped. */
export function readChoices(stored: unknown): StoredChoices {
  const out: Record<string, Record<string, unknown>> = {};
  if (!isRecord(stored)) return {};
  for (const section of SECTIONS) {
    const values = stored[section];
    if (!isRecord(values)) continue;
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(values)) {
      if (NOT_STORED.has(field) || !(field in SETTINGS_DEFAULTS[section])) continue;
      const parsed = fieldSchema(section, field)?.safeParse(value);
      if (parsed?.success && parsed.data !== undefined) kept[field] = parsed.data;
    }
    out[section] = kept;
  }
  return out as StoredChoices;
}

/** The stored choices merged over the defaults. */
export function effectiveSections(choices: StoredChoices): Sections {
  const out: Record<string, Record<string, unknown>> = {};
  for (const section of SECTIONS) {
    out[section] = {
      ...structuredClone(SETTINGS_DEFAULTS[section] as Record<string, unknown>),
      ...(choices[section] ?? {}),
    };
  }
  return out as unknown as Sections;
}

/** The choices after a PUT: the sent fields replace the stored ones. */
export function applyUpdate(choices: StoredChoices, input: UpdateInput): StoredChoices {
  const next: Record<string, Record<string, unknown>> = {};
  for (const section of SECTIONS) {
    const merged: Record<string, unknown> = { ...(choices[section] ?? {}) };
    const sent = input[section] as Record<string, unknown> | undefined;
    for (const [field, value] of Object.entries(sent ?? {})) {
      if (value === undefined || NOT_STORED.has(field)) continue;
      merged[field] = value;
    }
    next[section] = merged;
  }
  return next as StoredChoices;
}
