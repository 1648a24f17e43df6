import { FINAL_QUESTIONS_MARKER, questionItemText } from '../../../../common/teams/ideation';

/**
 * The runtime keeps log lines up to 4,000 characters (longer ones are cut, which would break the
 * JSON); the FINAL_QUESTIONS line stays under this.
 */
export const FINAL_LINE_MAX = 3800;

/** The FINAL_QUESTIONS line, shortening the longest justifications until it fits. */
export function finalQuestionsLine(
  topics: string[],
  questions: Array<{ question: string; justification: string }>,
  max = FINAL_LINE_MAX,
): { line: string; items: string[] } {
  const justifications = questions.map((q) => q.justification);
  for (;;) {
    const items = [
      ...topics,
      ...questions.map((q, i) => questionItemText(q.question, justifications[i] || undefined)),
    ];
    const line = `${FINAL_QUESTIONS_MARKER} ${JSON.stringify(items)}`;
    if (line.length <= max) return { line, items };
    // Shorten the longest one, down to the next longest at most, so the cuts even out.
    const order = justifications
      .map((_, i) => i)
      .sort((a, b) => justifications[b]!.length - justifications[a]!.length);
    const longest = order[0]!;
    const j = justifications[longest]!;
    if (j.length === 0) throw new Error('The final questions do not fit in one log line');
    const second = order.length > 1 ? justifications[order[1]!]!.length : 0;
    let target = Math.max(j.length - (line.length - max), second);
    if (target >= j.length) target = j.length - 40;
    // The ellipsis counts: the new text is at most `target` long, always shorter than before.
    justifications[longest] = target > 1 ? `${j.slice(0, target - 1).trimEnd()}…` : '';
  }
}
