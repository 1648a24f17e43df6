import type { ModelDescription } from '../../../../common/teams/model';

/** A value the researcher wrote, with the words they wrote it in (`beta = 0.985`). */
export interface WrittenValue {
  value: number;
  text: string;
}

/**
 * Parameter values a researcher writes in feedback, read by code (no model needed):
 * `beta = 0.98`, `set theta to 0.75`, `phi_pi: 2`. Only names of parameters the description
 * gives a number (not a formula) count; anything else in the feedback is left to the model.
 * Each value keeps the researcher's own words, for its source.
 */
export function writtenAssignments(
  feedback: string,
  description: ModelDescription,
): Record<string, WrittenValue> {
  const settable = new Set(
    description.parameters.filter((p) => p.value !== undefined).map((p) => p.name),
  );
  const out: Record<string, WrittenValue> = {};
  const pattern =
    /\b([A-Za-z][A-Za-z0-9_]*)\s*(?:=|:|\bto\b)\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?![\w.])/g;
  for (const match of feedback.matchAll(pattern)) {
    const [, name, value] = match;
    // the number as the researcher wrote it, in one form whatever the connective ("to", ":")
    if (name && value && settable.has(name) && Number.isFinite(Number(value)))
      out[name] = { value: Number(value), text: `${name} = ${value}` };
  }
  return out;
}

/** The values of `writtenAssignments` alone. */
export function parameterAssignments(
  feedback: string,
  description: ModelDescription,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(writtenAssignments(feedback, description)).map(([k, v]) => [k, v.value]),
  );
}

/** The source of a value the researcher wrote: their own words. */
export function researcherSource(written: WrittenValue): string {
  return `Set by the researcher: ${written.text}`;
}

/** The description with parameter values replaced (formulas untouched). */
export function withParameters(
  description: ModelDescription,
  values: Record<string, number>,
): ModelDescription {
  return {
    ...description,
    parameters: description.parameters.map((p) =>
      values[p.name] !== undefined && p.value !== undefined
        ? { ...p, value: values[p.name] as number }
        : p,
    ),
  };
}
