import { useQuery } from '@tanstack/react-query';
import {
  CODE_TEAM_BASE,
  codeRuntimesReplySchema,
  workingFilesReplySchema,
  type CodeLanguage,
  type CodeRuntime,
} from '../../../common/teams/code';
import { checkedApi, unwrap } from '../../api/client';

/**
 * What the Code screen reads besides its session: the runtimes this server can run (so a
 * language is marked before Run, not after) and the selected project's files a program may be
 * given.
 */

/** Each language's runtime as the server reports it; undefined until read. */
export function useCodeRuntimes(): Partial<Record<CodeLanguage, CodeRuntime>> | undefined {
  const query = useQuery({
    queryKey: ['code-team', 'runtimes'],
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(codeRuntimesReplySchema, `${CODE_TEAM_BASE}/runtimes`, signal)),
    staleTime: 60_000,
  });
  if (!query.data) return undefined;
  return Object.fromEntries(query.data.runtimes.map((r) => [r.language, r]));
}

/** The project's datasets and documents a program may be given (none without a project). */
export function useWorkingFileCandidates(projectId: string | undefined) {
  return useQuery({
    queryKey: ['code-team', 'working-files', projectId ?? ''],
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          workingFilesReplySchema,
          `${CODE_TEAM_BASE}/working-files?projectId=${encodeURIComponent(projectId ?? '')}`,
          signal,
        ),
      ).then((r) => r.files),
    enabled: projectId !== undefined,
  });
}
