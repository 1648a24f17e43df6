import { python } from '@codemirror/lang-python';
import { StreamLanguage, type StreamParser } from '@codemirror/language';
import { julia } from '@codemirror/legacy-modes/mode/julia';
import { octave } from '@codemirror/legacy-modes/mode/octave';
import { r } from '@codemirror/legacy-modes/mode/r';
import type { Extension } from '@codemirror/state';
import type { CodeLanguage } from '../../../common/teams/code';

/**
 * Syntax highlighting for the five code languages: Python's own grammar,
 * the legacy stream modes for R, Julia and MATLAB (Octave's mode), and Dynare as Octave's mode
 * plus Dynare's block keywords and `//` comments.
 */

const DYNARE_KEYWORD =
  /^(?:var|varexo|varexo_det|parameters|predetermined_variables|model|end|initval|endval|histval|steady_state_model|steady|check|shocks|stoch_simul|estimated_params|estimated_params_init|estimation|varobs|observation_trends|perfect_foresight_setup|perfect_foresight_solver|simul|resid|model_diagnostics|write_latex_dynamic_model|write_latex_static_model|calib_smoother|identification|osr|ramsey_model|planner_objective)\b/;

export const dynareParser: StreamParser<unknown> = {
  name: 'dynare',
  startState: (indentUnit) => octave.startState?.(indentUnit) ?? {},
  token(stream, state) {
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    const prev = stream.pos > 0 ? stream.string.charAt(stream.pos - 1) : '';
    if (!/[\w.]/.test(prev) && stream.match(DYNARE_KEYWORD)) return 'keyword';
    return octave.token(stream, state);
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
};

export function languageExtension(language: CodeLanguage): Extension {
  switch (language) {
    case 'python':
      return python();
    case 'r':
      return StreamLanguage.define(r);
    case 'julia':
      return StreamLanguage.define(julia);
    case 'matlab':
      return StreamLanguage.define(octave);
    case 'dynare':
      return StreamLanguage.define(dynareParser);
  }
}
