/**
 * Text shown to people: one way to turn a fragment into a sentence, so a value that already ends
 * in a full stop ("As stated by the uploader.") is not given a second one.
 */

/** The text trimmed, with a capital first letter and one closing full stop (unless it has one). */
export function asSentence(text: string): string {
  const t = text.trim();
  return withFullStop(t.charAt(0).toUpperCase() + t.slice(1));
}

/**
 * The text trimmed, ending in one full stop unless it ends a sentence already, its first letter
 * as written: for a name that ends an entry ("J. Mach. Learn. Res.", "arXiv", a title ending in
 * a question mark).
 */
export function withFullStop(text: string): string {
  const t = text.trim();
  if (!t) return t;
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * A team's name as a noun phrase: "Code" becomes "Code team", a name that says it already
 * ("Data Team") stays as it is, never "Data Team team".
 */
export function teamNoun(name: string): string {
  const t = name.trim();
  return /\bteam$/i.test(t) ? t : `${t} team`;
}

/**
 * A count with its noun in the right number: "1 finding", "2 findings", "0 findings"; `many`
 * for an irregular plural ("1 repair", "3 repairs"; "1 analysis", "2 analyses").
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
