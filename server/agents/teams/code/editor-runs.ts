import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { codeLanguageSchema, figureSchema } from '../../../../common/teams/code';
import { defineService } from '../../kit';
import type { EditorRun } from './package';

/**
 * What the editor did for a session, kept so that Download Package holds the researcher's work:
 * the last run the server made for the session (its code, output and figures) and the editor's
 * code at the moment the package was asked for. One folder per session under the service's own
 * folder of DATA_DIR (owner-only files), like the Data team's stored datasets: processes that
 * share DATA_DIR share them.
 */
export interface EditorRuns {
  lastRun(sessionId: string): Promise<EditorRun | null>;
  saveRun(sessionId: string, run: EditorRun): Promise<void>;
  /** The editor's code a user last packaged for the session (each reader has their own). */
  editorCode(sessionId: string, userId: string): Promise<string | null>;
  saveEditorCode(sessionId: string, userId: string, code: string): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const storedRunSchema = z.object({
  code: z.string(),
  language: codeLanguageSchema,
  ranAt: z.string(),
  output: z.string(),
  error: z.string().nullable(),
  kind: z.string(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number(),
  figures: z.array(figureSchema),
  workingFiles: z.array(z.string()),
});

function codeFile(userId: string): string {
  if (!UUID.test(userId)) throw new Error('userId is not a UUID');
  return `editor-code-${userId.toLowerCase()}.txt`;
}

export function createEditorRuns(root: string): EditorRuns {
  const folder = (sessionId: string) => {
    // Session ids become folder names: only UUIDs, so no path can be smuggled in.
    if (!UUID.test(sessionId)) throw new Error('sessionId is not a UUID');
    return path.join(root, sessionId.toLowerCase());
  };
  /** Written whole, then renamed, so a reader never sees half a file. */
  async function put(sessionId: string, name: string, content: string): Promise<void> {
    const dir = folder(sessionId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `.${name}.${process.pid}.${Date.now()}`);
    await writeFile(tmp, content, { mode: 0o600 });
    await rename(tmp, path.join(dir, name));
  }
  async function get(sessionId: string, name: string): Promise<string | null> {
    try {
      return await readFile(path.join(folder(sessionId), name), 'utf8');
    } catch {
      return null;
    }
  }
  return {
    async lastRun(sessionId) {
      const text = await get(sessionId, 'last-run.json');
      if (text === null) return null;
      try {
        const parsed = storedRunSchema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    saveRun: (sessionId, run) => put(sessionId, 'last-run.json', JSON.stringify(run)),
    editorCode: (sessionId, userId) => get(sessionId, codeFile(userId)),
    saveEditorCode: (sessionId, userId, code) => put(sessionId, codeFile(userId), code),
  };
}

/** The store as a service: one per process, its folder under DATA_DIR/services/code-editor-runs. */
export const editorRunsService = defineService({
  id: 'code-editor-runs',
  create: ({ dataDir }): EditorRuns => createEditorRuns(dataDir),
});
