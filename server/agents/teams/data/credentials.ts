import type { Workspace } from '../../kit';
import type { KaggleCredentials } from '../../../sources/kaggle';
import type { DataSourcesService } from '../../../sources/data-sources-service';

/**
 * Whose keys a fetch uses: the researcher's own from Settings > API keys first, else the
 * server's (FRED_API_KEY, KAGGLE_USERNAME and KAGGLE_KEY). One place, so the session, the
 * preflight check and the Data Explorer always agree.
 */

export async function fredApiKeyFor(
  workspace: Workspace,
  sources: DataSourcesService,
): Promise<string | undefined> {
  return (await workspace.settings.apiKey('fredApiKey')) ?? sources.fredApiKey;
}

/** The user's Kaggle pair when both halves are stored, else the server's pair. */
export async function kaggleCredentialsFor(
  workspace: Workspace,
  sources: DataSourcesService,
): Promise<KaggleCredentials> {
  const [settings, key] = await Promise.all([
    workspace.settings.get(),
    workspace.settings.apiKey('kaggleApiKey'),
  ]);
  const username = settings.apiKeys.kaggleUsername.trim();
  if (username && key) return { username, key };
  return sources.kaggle;
}
