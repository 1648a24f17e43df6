import type { CalibrationResult, MathematicalModelResult } from '../../../../common/teams/model';
import { compileModel } from '../../../engines/models/compile';
import { toModFile } from '../../../engines/models/dynare';

/**
 * The session's model as a Dynare .mod file with the session's final values: after the
 * calibration phase, its values (estimated, data-targeted, set by the researcher or proposed by
 * the model) and the source of each as its comment, and its impulse-response horizon, so that
 * Dynare on the file reproduces the impulse responses and moments the session shows; before it,
 * the Mathematical Model phase's file.
 */
export function sessionModFile(
  math: MathematicalModelResult,
  calibration: CalibrationResult | null,
): string {
  if (!calibration) return math.modFile;
  const model = compileModel(math.description);
  return toModFile(model, {
    overrides: calibration.overrides,
    parameterSources: Object.fromEntries(calibration.parameters.map((p) => [p.name, p.source])),
    irfPeriods: calibration.run.irfPeriods,
  });
}
