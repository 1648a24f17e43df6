import type { ModelDescription } from '../../../../common/teams/model';

/**
 * Parameter values a researcher writes in feedback, read by code (no model needed):
 * `beta = 0.98`, `set theta to 0.75`, `phi_pi: 2`. Only names of parameters the description
 * gives a number (not a formula) count; anything else in the feedback is left to the model.
 */
export function parameterAssignments(
  feedback: string,
  description: ModelDescription,
): Record<string, number> {
  const settable = new Set(
    description.parameters.filter((p) => p.value !== undefined).map((p) => p.name),
  );
  const out: Record<string, number> = {};
  const pattern =
    /\b([A-Za-z][A-Za-z0-9_]*)\s*(?:=|:|\bto\b)\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?![\w.])/g;
  for (const match of feedback.matchAll(pattern)) {
    const [, name, value] = match;
    if (name && value && settable.has(name) && Number.isFinite(Number(value)))
      out[name] = Number(value);
  }
  return out;
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
