import { z } from 'zod';
import type { ModelContext, ModelDescription, TheoryResult } from '../../../../common/teams/model';

/**
 * What the Model team asks the language model, and the shapes it must answer in. The model
 * writes text (the framework's adaptation) and proposes equations and parameter values; every
 * number shown as a result is computed by the engine from those proposals, never taken from the
 * model's prose.
 */

export const SYSTEM =
  'You are an economic theorist who builds quantitative models. You adapt documented canonical ' +
  'models to a research focus. You never report numerical results: the platform computes them. ' +
  'You cite only the references you are given, by their number.';

/** Empty texts are accepted here and marked as not supplied (theory.ts), never a failure. */
export const theoryAnswerSchema = z.object({
  framework: z.string().max(20_000),
  assumptions: z.array(z.string().max(1000)).max(20),
  mechanisms: z.array(z.string().max(1000)).max(20),
  agents: z.array(z.string().max(1000)).max(20),
  markets: z.array(z.string().max(1000)).max(20),
  /** Numbers of the library references the adapted framework rests on. */
  references: z.array(z.number().int()).max(20),
});
export type TheoryAnswer = z.infer<typeof theoryAnswerSchema>;

function numberedReferences(description: ModelDescription): string {
  return description.references.map((r, i) => `[${i + 1}] ${r.citation}`).join('\n');
}

export function theoryPrompt(
  description: ModelDescription,
  focus: string,
  feedback: string | null,
  previous: TheoryResult | null,
  context?: ModelContext,
): string {
  const review = (context?.references ?? []).slice(0, 60);
  return [
    `Canonical model: ${description.title} (type ${description.type}).`,
    `Its documented framework (the library's text):\n${description.framework}`,
    `References you may cite, by number:\n${numberedReferences(description)}`,
    ...(review.length > 0
      ? [
          `Works of the researcher's literature review you may also cite, by title${review.some((r) => r.doi) ? ' or DOI' : ''} (no other work may be cited):\n${review.map((r) => `- ${r.title}${r.doi ? ` (doi:${r.doi})` : ''}`).join('\n')}`,
        ]
      : []),
    `Research focus: ${focus}`,
    'Adapt the framework to the focus: state the agents, markets, assumptions and mechanisms the ' +
      'adapted model needs, in Markdown (use $...$ for mathematics). Keep what the canonical ' +
      'model gets right; say what the focus changes and why. List the numbers of the references ' +
      'the adaptation rests on. Do not state numerical results.',
    ...(previous && feedback
      ? [
          `Your previous framework:\n${previous.framework}`,
          `The researcher's feedback: ${feedback}`,
          'Revise the framework accordingly.',
        ]
      : []),
  ].join('\n\n');
}

/** A model as the language model proposes it: the full lists of the description format. */
export const proposalSchema = z.object({
  explanation: z.string().max(4000),
  endogenous: z
    .array(z.object({ name: z.string(), label: z.string(), latex: z.string().nullable() }))
    .min(1)
    .max(80),
  exogenous: z
    .array(
      z.object({
        name: z.string(),
        label: z.string(),
        latex: z.string().nullable(),
        stderr: z.string(),
      }),
    )
    .max(20),
  parameters: z
    .array(
      z.object({
        name: z.string(),
        label: z.string(),
        latex: z.string().nullable(),
        value: z.number().nullable(),
        expr: z.string().nullable(),
        source: z.string(),
      }),
    )
    .max(120),
  equations: z
    .array(z.object({ label: z.string(), text: z.string(), latex: z.string().nullable() }))
    .min(1)
    .max(80),
  /** Steady-state starting values: a number or a formula, as text. */
  steadyState: z.array(z.object({ name: z.string(), value: z.string() })).max(80),
});
export type Proposal = z.infer<typeof proposalSchema>;

/** The description's lists in the proposal's shape (what the model is shown and edits). */
export function asProposal(description: ModelDescription): Omit<Proposal, 'explanation'> {
  return {
    endogenous: description.endogenous.map((v) => ({
      name: v.name,
      label: v.label,
      latex: v.latex ?? null,
    })),
    exogenous: description.exogenous.map((v) => ({
      name: v.name,
      label: v.label,
      latex: v.latex ?? null,
      stderr: v.stderr,
    })),
    parameters: description.parameters.map((p) => ({
      name: p.name,
      label: p.label,
      latex: p.latex ?? null,
      value: p.value ?? null,
      expr: p.expr ?? null,
      source: p.source,
    })),
    equations: description.equations.map((e) => ({
      label: e.label,
      text: e.text,
      latex: e.latex ?? null,
    })),
    steadyState: Object.entries(description.steadyState).map(([name, value]) => ({
      name,
      value: String(value),
    })),
  };
}

const FORMAT_RULES = [
  'The format is close to a Dynare .mod file:',
  '- endogenous variables, exogenous shocks (each with `stderr`: the name of the parameter holding its standard deviation) and parameters (a `value`, or an `expr` formula in parameters listed before it, never both) with a `source` for each value;',
  '- equations as text in Dynare syntax: `x(+1)` is next period, `x(-1)` last period, only one-period leads and lags, shocks only at date t, operators + - * / ^, functions exp, log, sqrt, abs; write (a^b)^c or a^(b^c), never a^b^c;',
  '- exactly as many equations as endogenous variables, every variable in some equation;',
  '- a LaTeX form of each equation for display;',
  '- steady-state starting values: a number, or a formula in parameters and variables listed before it.',
  "The platform parses the equations, solves for the steady state with Newton's method and checks the Blanchard-Kahn conditions; it reports back what fails.",
].join('\n');

export function proposalPrompt(
  current: ModelDescription,
  focus: string,
  theory: TheoryResult | null,
  feedback: string | null,
): string {
  return [
    `Model: ${current.title} (type ${current.type}).`,
    `Research focus: ${focus}`,
    ...(theory && theory.source === 'model'
      ? [`The adapted framework the researcher approved:\n${theory.framework}`]
      : []),
    `The current model in the platform's description format (JSON):\n${JSON.stringify(asProposal(current))}`,
    FORMAT_RULES,
    feedback
      ? `The researcher's feedback on the model: ${feedback}\nRevise the model accordingly and return the complete lists.`
      : 'Adapt the model to the focus with as few changes as the focus needs (keep the canonical equations where they serve it) and return the complete lists. Explain the changes in `explanation`.',
  ].join('\n\n');
}

export function repairPrompt(failure: string): string {
  return [
    `The platform rejected this model: ${failure}`,
    'Fix the problem and return the complete lists again in the same format.',
  ].join('\n\n');
}

export const calibrationFeedbackSchema = z.object({
  changes: z.array(z.object({ name: z.string(), value: z.number() })).max(20),
  note: z.string().max(2000),
});

export function calibrationFeedbackPrompt(
  description: ModelDescription,
  values: Record<string, number>,
  feedback: string,
): string {
  const table = description.parameters
    .filter((p) => p.value !== undefined)
    .map((p) => `${p.name} = ${values[p.name] ?? p.value} (${p.label}; source: ${p.source})`)
    .join('\n');
  return [
    `Model: ${description.title}. Its calibrated parameters:\n${table}`,
    `The researcher's feedback on the calibration: ${feedback}`,
    'Return the parameter values the feedback asks for (only parameters listed above, as numbers) and a short note. Do not state model results: the platform computes them.',
  ].join('\n\n');
}
