import { JUSTIFICATION_MARKER, neutraliseMarkers } from '../../../../common/teams/ideation';

/**
 * One answerable question ending in '?': a leading number is dropped, anything after the first
 * question mark is cut (a second question is a second candidate), a missing mark is added, and
 * the word the log splits justifications at cannot appear in it.
 */
export function sharpenQuestion(text: string): string | undefined {
  let t = neutraliseMarkers(text)
    .replaceAll(JUSTIFICATION_MARKER, '')
    .replace(/^(?:Q?\d+\s*[.:)]\s*)+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  const mark = t.indexOf('?');
  t = mark >= 0 ? t.slice(0, mark + 1) : `${t.replace(/[\s.!;:,]+$/, '')}?`;
  return t.length >= 10 ? t : undefined;
}

/** Questions that differ only in case, spacing or punctuation are one question. */
export function questionKey(question: string): string {
  return question
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does did for from has have how in into is it its of on or ' +
    'than that the their them these this those to was were what when where whether which who ' +
    'why will with would across among between more less most'
  ).split(' '),
);

/**
 * Search keywords from a question's own words, for a question the Refiner gave none for: the
 * words that are not function words, in order, at most six.
 */
export function searchQueryFrom(question: string): string {
  return question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]+/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .slice(0, 6)
    .join(' ');
}
