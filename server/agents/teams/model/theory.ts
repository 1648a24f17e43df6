import { plural } from '../../../../common/text';
import type {
  ModelContext,
  ModelDescription,
  ModelKind,
  TheoryResult,
} from '../../../../common/teams/model';
import type { ModImport } from '../../../engines/models/mod-import';
import { tryModel, type ObjectModel } from './model-call';
import { SYSTEM, theoryAnswerSchema, theoryPrompt } from './prompts';

/**
 * Phase 1, Theoretical Framework: the canonical model's documented framework, adapted to the
 * focus by the language model. Without a model the library's text is the result, labelled as
 * such, with the reason the adaptation is missing. References come only from the library's
 * list: numbers the model gives that are not on it are dropped (and counted). Every text the
 * model writes passes the citation gate (a reference to a work the session does not know is
 * removed, with a log line); what it leaves empty is listed as not supplied.
 *
 * A custom session (the researcher's .mod file) asks no model: its theory is a summary of the
 * imported file written by code, so the session runs without a language model.
 */
export interface TheoryStep {
  kind: ModelKind;
  description: ModelDescription;
  focus: string;
  llm: ObjectModel;
  signal: AbortSignal;
  revision: { feedback: string; previousResult: TheoryResult } | null;
  /** The import, for a custom session. */
  imported?: ModImport;
  /** A literature review handed over by a workflow (its works may be cited too). */
  context?: ModelContext;
  /** The citation gate over the works this session knows. */
  gate(text: string, where: string): Promise<string>;
  log(message: string): Promise<void>;
  warn(message: string): Promise<void>;
}

/** The theory of an imported .mod file: what it declares, the import's notes, what is not run. */
export function importedFramework(description: ModelDescription, imported: ModImport): string {
  const names = (list: { name: string }[]) => list.map((v) => `\`${v.name}\``).join(', ');
  const lines = [
    `${description.summary}`,
    '',
    `- Endogenous variables (${description.endogenous.length}): ${names(description.endogenous)}`,
    `- Shocks (${description.exogenous.length}): ${description.exogenous.length > 0 ? names(description.exogenous) : 'none'}`,
    `- Equations: ${description.equations.length}`,
    '',
    'No language model adapts an imported model: the file is the model the session solves, with its own parameter values.',
  ];
  if (imported.notes.length > 0) {
    lines.push('', '**Notes from the import**', '', ...imported.notes.map((n) => `- ${n}`));
  }
  if (imported.notRun.length > 0) {
    lines.push(
      '',
      '**Not run** (statements after `stoch_simul`)',
      '',
      ...imported.notRun.map((s) => `- Line ${s.line}: \`${s.statement.replace(/`/g, "'")}\``),
    );
  }
  return lines.join('\n');
}

export async function runTheory(step: TheoryStep): Promise<TheoryResult> {
  const { description, focus, revision } = step;
  const base: TheoryResult = {
    modelType: step.kind,
    title: description.title,
    focus,
    source: 'library',
    framework: description.framework,
    libraryFramework: description.framework,
    assumptions: [],
    mechanisms: [],
    agents: [],
    markets: [],
    references: description.references,
    adaptationMissing: null,
    notSupplied: [],
    feedback: revision?.feedback ?? null,
  };
  if (step.imported) {
    await step.log(`Imported the researcher's .mod file: ${description.summary}`);
    for (const note of step.imported.notes) await step.log(`Import note: ${note}`);
    if (step.imported.notRun.length > 0) {
      await step.log(
        `Not run (after stoch_simul): ${step.imported.notRun.map((s) => `line ${s.line}`).join(', ')}`,
      );
    }
    return {
      ...base,
      source: 'imported',
      framework: importedFramework(description, step.imported),
      libraryFramework: '',
    };
  }
  await step.log(`Loaded the library's ${description.type} model: ${description.title}`);
  const attempt = await tryModel(step.signal, () =>
    step.llm.generateObject(theoryAnswerSchema, {
      system: SYSTEM,
      prompt: theoryPrompt(
        description,
        focus,
        revision?.feedback ?? null,
        revision?.previousResult ?? null,
        step.context,
      ),
      schemaName: 'adapted_framework',
    }),
  );
  if (!attempt.ok) {
    await step.warn(`The framework was not adapted to the focus: ${attempt.reason}`);
    await step.log(
      "Showing the library's documented framework instead (labelled as the library's text)",
    );
    return { ...base, adaptationMissing: attempt.reason };
  }
  const answer = attempt.value.object;
  const framework = (await step.gate(answer.framework, 'Theory tab: framework')).trim();
  if (!framework) {
    const reason = 'The model returned no framework text';
    await step.warn(`${reason}; the library's documented framework is shown instead`);
    return { ...base, adaptationMissing: reason, notSupplied: [reason] };
  }
  const notSupplied: string[] = [];
  const gatedList = async (items: string[], what: string): Promise<string[]> => {
    const out: string[] = [];
    for (const item of items) {
      const text = (await step.gate(item, `Theory tab: ${what}`)).trim();
      if (text) out.push(text);
    }
    if (out.length === 0) notSupplied.push(`The model listed no ${what}`);
    else if (out.length < items.length) {
      notSupplied.push(`The model left ${items.length - out.length} of its ${what} empty`);
    }
    return out;
  };
  const assumptions = await gatedList(answer.assumptions, 'assumptions');
  const mechanisms = await gatedList(answer.mechanisms, 'mechanisms');
  const agents = await gatedList(answer.agents, 'agents');
  const markets = await gatedList(answer.markets, 'markets');
  const chosen = [...new Set(answer.references)];
  const valid = chosen.filter((n) => n >= 1 && n <= description.references.length);
  const dropped = chosen.length - valid.length;
  if (dropped > 0) {
    await step.warn(
      `Dropped ${plural(dropped, 'reference number')} that ${dropped === 1 ? 'is' : 'are'} not on the library's list`,
    );
  }
  for (const line of notSupplied) await step.warn(`Not supplied by the model: ${line}`);
  await step.log(
    `The model adapted the framework to the focus (${assumptions.length} assumptions, ${mechanisms.length} mechanisms, ${valid.length} references from the library's list)`,
  );
  return {
    ...base,
    source: 'model',
    framework,
    assumptions,
    mechanisms,
    agents,
    markets,
    references: valid.map((n) => description.references[n - 1]!),
    notSupplied,
  };
}
