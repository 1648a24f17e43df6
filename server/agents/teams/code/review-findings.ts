import {
  FINDING_SEVERITIES,
  REVIEW_CRITERIA,
  type FindingSeverity,
  type ReviewCriterion,
  type ReviewFinding,
} from '../../../../common/teams/code';

/**
 * The review's findings as the model sent them, made into findings the score can count: other
 * names for a criterion or a severity are read as the nearest of ours ('Performance' is
 * efficiency, 'critical' is high), line numbers outside the code are dropped, an empty comment
 * is said to be empty. What had to be read this way is reported for the log, so a weak model's
 * answer is kept, not refused, and the researcher sees what was assumed.
 */

const CRITERION_WORDS: Array<[RegExp, ReviewCriterion]> = [
  [/correct|bug|error|accura|logic|wrong|valid/, 'correctness'],
  [/clar|readab|style|document|naming|maintain|comment/, 'clarity'],
  [/effic|perform|speed|fast|memory|optimi/, 'efficiency'],
  [/reproduc|seed|determin|portab|depend/, 'reproducibility'],
];

const SEVERITY_WORDS: Array<[RegExp, FindingSeverity]> = [
  [/high|critical|severe|major|blocker|error/, 'high'],
  [/medium|moderate|warning|normal/, 'medium'],
  [/low|minor|trivial|info|suggest|nit/, 'low'],
];

function pick<T extends string>(
  value: string,
  exact: readonly T[],
  words: Array<[RegExp, T]>,
): T | undefined {
  const v = value.trim().toLowerCase();
  return exact.find((e) => e === v) ?? words.find(([re]) => re.test(v))?.[1];
}

export interface ModelFinding {
  criterion: string;
  severity: string;
  lines: number[];
  comment: string;
}

export function readFindings(
  answer: readonly ModelFinding[],
  lineCount: number,
): { findings: ReviewFinding[]; droppedLines: number; notes: string[] } {
  let droppedLines = 0;
  const notes: string[] = [];
  const findings = answer.map((f, i): ReviewFinding => {
    const valid = [
      ...new Set(f.lines.filter((n) => Number.isInteger(n) && n >= 1 && n <= lineCount)),
    ].sort((a, b) => a - b);
    droppedLines += f.lines.length - valid.length;
    let criterion = pick(f.criterion, REVIEW_CRITERIA, CRITERION_WORDS);
    if (!criterion) {
      // Counted where it weighs most on the signal, so an unreadable finding never flatters it.
      criterion = 'correctness';
      notes.push(
        `finding ${i + 1} named the criterion '${f.criterion.slice(0, 40)}', not one of ${REVIEW_CRITERIA.join(', ')}: counted under correctness`,
      );
    } else if (criterion !== f.criterion) {
      notes.push(`finding ${i + 1}: criterion '${f.criterion.slice(0, 40)}' read as ${criterion}`);
    }
    let severity = pick(f.severity, FINDING_SEVERITIES, SEVERITY_WORDS);
    if (!severity) {
      severity = 'medium';
      notes.push(
        `finding ${i + 1} gave the severity '${f.severity.slice(0, 40)}', not one of ${FINDING_SEVERITIES.join(', ')}: counted as medium`,
      );
    } else if (severity !== f.severity) {
      notes.push(`finding ${i + 1}: severity '${f.severity.slice(0, 40)}' read as ${severity}`);
    }
    const comment = f.comment.trim() || '(The model gave no comment for this finding.)';
    return { criterion, severity, lines: valid, comment, source: 'model' };
  });
  return { findings, droppedLines, notes };
}
