import type {
  MathematicalModelResult,
  ModelDescription,
  ParameterSource,
} from '../../../../common/teams/model';
import { researcherSource, type WrittenValue } from './feedback';

/**
 * Where each parameter's value comes from after the Mathematical Model phase, in the order of
 * precedence: a number the researcher wrote at this checkpoint (their own words), what an earlier
 * run of the phase said of a value that has not changed since, the starting model's own value
 * (the library's reference, or the researcher's .mod file), and otherwise the language model's
 * proposal ("proposed by the model", marked as not checked). A value the researcher changed never
 * keeps the library's justification of the old value.
 */

const sameValue = (a: ModelDescription['parameters'][number], b: typeof a): boolean =>
  a.expr !== undefined
    ? a.expr.replace(/\s+/g, '') === b.expr?.replace(/\s+/g, '')
    : a.value === b.value;

export const MODEL_SOURCE_PREFIX = 'Proposed by the model';

export function modelPhaseSources(args: {
  /** The library's model, or the imported one for a custom session. */
  starting: ModelDescription;
  custom: boolean;
  accepted: ModelDescription;
  written: Record<string, WrittenValue>;
  previous: MathematicalModelResult | null;
}): ParameterSource[] {
  const startingByName = new Map(args.starting.parameters.map((p) => [p.name, p]));
  const previousParam = new Map(
    (args.previous?.description.parameters ?? []).map((p) => [p.name, p]),
  );
  const previousSource = new Map((args.previous?.parameterSources ?? []).map((s) => [s.name, s]));
  return args.accepted.parameters.map((p): ParameterSource => {
    const written = args.written[p.name];
    if (written && p.value === written.value) {
      return { name: p.name, origin: 'researcher', source: researcherSource(written) };
    }
    const before = previousParam.get(p.name);
    const kept = previousSource.get(p.name);
    if (before && kept && sameValue(p, before)) return kept;
    const documented = startingByName.get(p.name);
    if (documented && sameValue(p, documented)) {
      return args.custom
        ? {
            name: p.name,
            origin: 'researcher',
            source: `From the researcher's .mod file (${documented.source})`,
          }
        : { name: p.name, origin: 'library', source: documented.source };
    }
    const given = p.source.trim();
    return {
      name: p.name,
      origin: 'model',
      source: `${MODEL_SOURCE_PREFIX}${given ? `: ${given}` : ' (it gave no source)'}`,
    };
  });
}

/** The description with each parameter's source replaced by the one stated in `sources`. */
export function withSources(
  description: ModelDescription,
  sources: readonly ParameterSource[],
): ModelDescription {
  const byName = new Map(sources.map((s) => [s.name, s.source]));
  return {
    ...description,
    parameters: description.parameters.map((p) => ({
      ...p,
      source: (byName.get(p.name) ?? p.source).slice(0, 500),
    })),
  };
}
