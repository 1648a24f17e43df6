import type { ProvenanceItem } from '../../../../common/provenance';
import type {
  CalibrationResult,
  MathematicalModelResult,
  TheoryResult,
} from '../../../../common/teams/model';

/**
 * The provenance items of the Model team's saved documents: where each parameter value came
 * from (`parameter:<name>`), the tables of computed numbers (`table:<name>`, 'computed'), the
 * passages the language model wrote (`passage:<name>`, 'model') and the library references
 * (`reference:<id>`, 'library').
 */

export function theoryItems(t: TheoryResult): ProvenanceItem[] {
  const items: ProvenanceItem[] = [];
  if (t.source === 'model') items.push({ key: 'passage:theory', origin: 'model' });
  else if (t.source === 'library') {
    items.push({ key: 'passage:theory', origin: 'library', ref: `library:${t.modelType}` });
  } else items.push({ key: 'passage:theory', origin: 'computed', ref: 'mod-import' });
  t.references.forEach((r, i) =>
    items.push({
      key: `reference:library:${t.modelType}:${i + 1}`,
      origin: 'library',
      ref: r.citation,
    }),
  );
  return items;
}

function parameterItems(m: MathematicalModelResult, c: CalibrationResult | null): ProvenanceItem[] {
  const list = c ? c.parameters : m.parameterSources;
  return list.map((p) => ({
    key: `parameter:${p.name}`,
    origin: p.origin,
    ref: p.source.slice(0, 500),
  }));
}

export function modelItems(
  m: MathematicalModelResult,
  c: CalibrationResult | null,
): ProvenanceItem[] {
  const items: ProvenanceItem[] = [
    { key: 'table:equations', origin: 'computed', ref: 'model-check' },
    { key: 'table:steady-state', origin: 'computed', ref: 'model-check' },
    ...parameterItems(m, c),
  ];
  if (m.explanation) items.push({ key: 'passage:explanation', origin: 'model' });
  m.equations.forEach((e, i) => {
    if (e.modelLatex) items.push({ key: `passage:equation-${i + 1}-latex`, origin: 'model' });
  });
  return items;
}

export function calibrationItems(
  m: MathematicalModelResult,
  c: CalibrationResult,
): ProvenanceItem[] {
  const items: ProvenanceItem[] = [
    ...parameterItems(m, c),
    { key: 'table:irfs', origin: 'computed', ref: 'model-solution' },
    { key: 'table:moments', origin: 'computed', ref: 'model-solution' },
    { key: 'table:simulated-moments', origin: 'computed', ref: 'model-solution' },
  ];
  if (c.run.targets.length > 0) {
    items.push({
      key: 'table:targets',
      origin: c.targetData && !c.targetData.problem ? 'data' : 'library',
      ref: c.targetsSource.slice(0, 500),
    });
  }
  if (c.estimation)
    items.push({ key: 'table:estimation', origin: 'computed', ref: 'moment-matching' });
  if (c.feedbackNote && c.feedbackNoteByModel) {
    items.push({ key: 'passage:feedback-note', origin: 'model' });
  }
  return items;
}

/** The .mod file: its values and their sources (the comments), the equations parsed. */
export function modFileItems(
  m: MathematicalModelResult,
  c: CalibrationResult | null,
): ProvenanceItem[] {
  return [
    { key: 'table:equations', origin: 'computed', ref: 'model-check' },
    ...parameterItems(m, c),
  ];
}
