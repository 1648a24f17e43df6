import { settingsReplySchema } from '../../common/settings';
import { isThemeMode, type ThemeMode } from '../theme';
import { checkedApi, isFailure } from './client';

/**
 * The signed-in user's saved theme (GET /api/settings, data.settings.profile.theme). Null
 * when settings cannot be read: the browser's own choice then stays.
 */
export async function fetchSavedThemeMode(signal?: AbortSignal): Promise<ThemeMode | null> {
  const reply = await checkedApi.get(settingsReplySchema, '/api/settings', signal);
  if (isFailure(reply)) return null;
  const theme = reply.data?.settings?.profile?.theme;
  return isThemeMode(theme) ? theme : null;
}
