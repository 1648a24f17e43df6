import type { ModelDescription, TheoryResult } from '../../../../common/teams/model';
import { tryModel, type ObjectModel } from './model-call';
import { SYSTEM, theoryAnswerSchema, theoryPrompt } from './prompts';

/**
 * Phase 1, Theoretical Framework: the canonical model's documented framework, adapted to the
 * focus by the language model. Without a model the library's text is the result, labelled as
 * such, with the reason the adaptation is missing. References come only from the library's
 * list: numbers the model gives that are not on it are dropped (and counted).
 */
export interface TheoryStep {
  description: ModelDescription;
  focus: string;
  llm: ObjectModel;
  signal: AbortSignal;
  revision: { feedback: string; previousResult: TheoryResult } | null;
  log(message: string): Promise<void>;
  warn(message: string): Promise<void>;
}

export async function runTheory(step: TheoryStep): Promise<TheoryResult> {
  const { description, focus, revision } = step;
  const base: TheoryResult = {
    modelType: description.type,
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
    feedback: revision?.feedback ?? null,
  };
  await step.log(`Loaded the library's ${description.type} model: ${description.title}`);
  const attempt = await tryModel(step.signal, () =>
    step.llm.generateObject(theoryAnswerSchema, {
      system: SYSTEM,
      prompt: theoryPrompt(
        description,
        focus,
        revision?.feedback ?? null,
        revision?.previousResult ?? null,
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
  const chosen = [...new Set(answer.references)];
  const valid = chosen.filter((n) => n >= 1 && n <= description.references.length);
  const dropped = chosen.length - valid.length;
  if (dropped > 0) {
    await step.warn(`Dropped ${dropped} reference number(s) that are not on the library's list`);
  }
  await step.log(
    `The model adapted the framework to the focus (${answer.assumptions.length} assumptions, ${answer.mechanisms.length} mechanisms, ${valid.length} references from the library's list)`,
  );
  return {
    ...base,
    source: 'model',
    framework: answer.framework,
    assumptions: answer.assumptions,
    mechanisms: answer.mechanisms,
    agents: answer.agents,
    markets: answer.markets,
    references: valid.map((n) => description.references[n - 1]!),
  };
}
