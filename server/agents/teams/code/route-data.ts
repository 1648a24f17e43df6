import { plural } from '../../../../common/text';
import { CODE_LANGUAGES } from '../../../../common/settings';
import type { CodeRuntimesReply, WorkingFileCandidate } from '../../../../common/teams/code';
import type { ProfilingService } from '../../../engines/profiling/service';
import type { SandboxStatus } from '../../../engines/sandbox';
import type { Workspace } from '../../kit';

/**
 * What two of the Code team's routes answer: the runtimes this server can run (so the screen
 * marks a language before Run, not after), and the project files a program may be given.
 */

/** Every language as available only when both the sandbox and its runtime are. */
export function runtimesReply(status: SandboxStatus): CodeRuntimesReply {
  const runtimes = CODE_LANGUAGES.flatMap((language) => {
    const r = status.runtimes.find((x) => x.language === language);
    if (!r) return [];
    const available = status.available && r.available;
    const message = !status.available ? status.message : r.message;
    return [{ language, label: r.label, available, ...(available || !message ? {} : { message }) }];
  });
  return {
    success: true,
    sandbox: {
      available: status.available,
      ...(status.message ? { message: status.message } : {}),
    },
    runtimes,
  };
}

/** A Model team file: its `.mod` file, or its calibration (the parameter table). */
function modelFileDetail(name: string, category: string): string | null {
  if (/\.mod$/i.test(name.trim())) return 'Dynare model file';
  if (category === 'model_documentation' && /calibration/i.test(name)) return 'Parameter table';
  if (category === 'model_documentation') return 'Model document';
  return null;
}

/**
 * The project's datasets that have stored data, and its documents a program can read: the
 * Model team's files first (the `.mod` file, the parameter table), then CSV and JSON documents.
 * The project is read with the caller's rights (404 for a project they cannot see).
 */
export async function workingFileCandidates(
  workspace: Workspace,
  profiling: ProfilingService,
): Promise<WorkingFileCandidate[]> {
  const project = await workspace.project();
  if (!project) return [];
  const datasets: WorkingFileCandidate[] = [];
  for (const id of project.datasets) {
    try {
      const d = await workspace.datasets.get(id);
      if (!(await profiling.files.hasData(d.id))) continue;
      const columns = d.fields.length;
      datasets.push({
        kind: 'dataset',
        id: d.id,
        name: d.name,
        detail:
          `Dataset, CSV` +
          (columns > 0 ? `, ${plural(columns, 'column')}` : '') +
          (d.recordCount !== null ? `, ${plural(d.recordCount, 'row')}` : ''),
        modelFile: false,
      });
    } catch {
      // A dataset the caller cannot see, or deleted since: not offered.
    }
  }
  const documents: WorkingFileCandidate[] = [];
  for (const doc of await workspace.documents.list({ limit: 200 })) {
    const model = modelFileDetail(doc.name, doc.category);
    if (!model && doc.format !== 'csv' && doc.format !== 'json') continue;
    documents.push({
      kind: 'document',
      id: doc.id,
      name: doc.name,
      detail: model ?? `${doc.format.toUpperCase()} document`,
      modelFile: model !== null,
    });
  }
  documents.sort((a, b) => Number(b.modelFile) - Number(a.modelFile));
  return [...datasets, ...documents];
}
