import type { AnalysisType } from '../../../../common/teams/data';

/**
 * The Data team's one model prompt: the interpretation paragraph of the Statistical Analysis
 * phase. It carries the numbers the engine computed and asks the model to refer to them only;
 * the screen labels the paragraph as the model's reading, not as a result.
 */

export const INTERPRETATION_SYSTEM =
  'You are an applied economist reading the output of a statistics program. Write one paragraph ' +
  '(at most 160 words) that interprets the results for a researcher. Use only the numbers given; ' +
  'do not invent values, sources or causes; say what the data cannot show. Plain text, no lists.';

/** The user prompt: the analysis type and the digest of its computed results as JSON. */
export const interpretationPrompt = (type: AnalysisType, digest: unknown): string =>
  `Analysis type: ${type}. Computed results (JSON):\n` + JSON.stringify(digest);
