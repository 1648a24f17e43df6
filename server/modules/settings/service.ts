import type { z } from 'zod';
import type {
  ApiKeyName,
  Settings,
  StoredKey,
  updateSettingsRequestSchema,
} from '../../../common/settings';
import type { UserSettingsRow } from '../../db/schema';
import type { AuthUser } from '../../platform/access';
import { badRequest, notFound } from '../../platform/errors';
import { decryptSecret, encryptSecret, maskSecret } from '../../platform/secrets';
import type { SealedKeyColumn, SettingsStore } from './store';
import { applyUpdate, effectiveSections, readChoices } from './values';

type UpdateInput = z.output<typeof updateSettingsRequestSchema>;

export const KEY_COLUMNS: Record<ApiKeyName, SealedKeyColumn> = {
  llmApiKey: 'llmApiKeySealed',
  worldBankApiKey: 'worldBankApiKeySealed',
  fredApiKey: 'fredApiKeySealed',
  kaggleApiKey: 'kaggleApiKeySealed',
};

/** Opens a sealed key; undefined when there is none or it cannot be opened (key rotated). */
export function openSealedKey(encryptionKey: Buffer, sealed: string | null): string | undefined {
  if (!sealed) return undefined;
  try {
    return decryptSecret(encryptionKey, sealed);
  } catch {
    return undefined;
  }
}

/** Stored keys are only ever shown masked. */
function describeKey(encryptionKey: Buffer, sealed: string | null): StoredKey {
  if (!sealed) return { hasKey: false, masked: null };
  const plain = openSealedKey(encryptionKey, sealed);
  // A key sealed with a previous ENCRYPTION_KEY still counts as set; the user can replace it.
  return { hasKey: true, masked: plain === undefined ? '••••••••' : maskSecret(plain) };
}

/**
 * Per-user settings: defaults until the user saves, then their choices merged over the
 * defaults. API keys are sealed with AES-256-GCM; '' clears a key, leaving it out keeps it.
 */
export function createSettingsService(deps: { store: SettingsStore; encryptionKey: Buffer }) {
  const { store, encryptionKey } = deps;

  async function read(user: AuthUser): Promise<Settings> {
    const [account, row] = await Promise.all([store.account(user.id), store.find(user.id)]);
    if (!account) throw notFound('User');
    return toSettings(account, row);
  }

  function toSettings(
    account: { displayName: string; email: string; role: AuthUser['role'] },
    row: UserSettingsRow | undefined,
  ): Settings {
    const s = effectiveSections(readChoices(row?.values));
    return {
      profile: { ...s.profile, ...account },
      apiKeys: {
        ...s.apiKeys,
        llmApiKey: describeKey(encryptionKey, row?.llmApiKeySealed ?? null),
        worldBankApiKey: describeKey(encryptionKey, row?.worldBankApiKeySealed ?? null),
        fredApiKey: describeKey(encryptionKey, row?.fredApiKeySealed ?? null),
        kaggleApiKey: describeKey(encryptionKey, row?.kaggleApiKeySealed ?? null),
      },
      ai: s.ai,
      data: s.data,
      codeGeneration: s.codeGeneration,
      runtime: s.runtime,
      notifications: s.notifications,
      explorer: { recentQueries: [...s.explorer.recentQueries] },
      updatedAt: row ? row.updatedAt.toISOString() : null,
    };
  }

  return {
    get: read,

    async update(user: AuthUser, input: UpdateInput): Promise<Settings> {
      const row = await store.find(user.id);
      const choices = applyUpdate(readChoices(row?.values), input);
      const effective = effectiveSections(choices);
      if (effective.ai.modelVersion === 'custom' && effective.ai.customModel.trim() === '') {
        throw badRequest('customModel is required when modelVersion is custom');
      }
      const keys: Partial<Record<SealedKeyColumn, string | null>> = {};
      for (const [name, column] of Object.entries(KEY_COLUMNS) as Array<
        [ApiKeyName, SealedKeyColumn]
      >) {
        const sent = input.apiKeys?.[name];
        if (sent === undefined) continue;
        keys[column] = sent === '' ? null : encryptSecret(encryptionKey, sent);
      }
      await store.save(user.id, {
        values: choices,
        keys,
        displayName: input.profile?.displayName,
      });
      return read(user);
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
