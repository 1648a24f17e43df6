/**
 * Text shown to people: one way to turn a fragment into a sentence, so a value that already ends
 * in a full stop ("As stated by the uploader.") is not given a second one.
 */

/** The text trimmed, with a capital first letter and one closing full stop (unless it has one). */
export function asSentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}
