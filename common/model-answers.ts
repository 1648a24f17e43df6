/**
 * Reading a model's structured answer about a list of items the code gave it (papers, sentences,
 * questions), when the model may rename, drop, repeat or reorder them. A weak model must never
 * make a session throw away work the code computed, so every team reads such answers the same
 * way:
 * - each answer goes to the item its id names (the caller normalises ids, e.g. 'q1' -> 'Q1');
 * - when some ids name no item (or an item twice) but there are exactly as many answers as
 *   items, the answers are matched by position instead;
 * - otherwise items without an answer are left unanswered, for the caller to keep what it
 *   computed for them and mark what the model did not supply.
 * Pure, for the server's teams and their tests.
 */

export interface AnswerMatch<A> {
  /** The answer for each item, in the items' order; undefined where the model gave none. */
  matched: (A | undefined)[];
  /** 'id' when answers were matched by their ids, 'position' when by their order. */
  by: 'id' | 'position';
  /** Answers that went to no item (an unknown or repeated id), in the model's order. */
  unmatched: A[];
}

export function matchAnswers<I, A, K>(
  items: readonly I[],
  answers: readonly A[],
  itemKey: (item: I) => K,
  answerKey: (answer: A) => K | undefined,
): AnswerMatch<A> {
  const index = new Map<K, number>();
  items.forEach((item, i) => {
    if (!index.has(itemKey(item))) index.set(itemKey(item), i);
  });
  const matched: (A | undefined)[] = items.map(() => undefined);
  const unmatched: A[] = [];
  for (const answer of answers) {
    const key = answerKey(answer);
    const at = key === undefined ? undefined : index.get(key);
    if (at === undefined || matched[at] !== undefined) unmatched.push(answer);
    else matched[at] = answer;
  }
  if (unmatched.length > 0 && answers.length === items.length) {
    return { matched: [...answers], by: 'position', unmatched: [] };
  }
  return { matched, by: 'id', unmatched };
}

/** Blank after trimming: what a model "did not supply". */
export function isBlank(text: string | null | undefined): boolean {
  return !text || !text.trim();
}
