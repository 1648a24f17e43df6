/**
 * Short metadata the model proposes (search queries, synonyms, JEL codes) is shown in the log
 * and used to search; a value that is really a piece of program text ("import numpy as np",
 * "df.groupby('year')") is neither, and is dropped before anything else sees it.
 */

const CODE_PATTERNS: readonly RegExp[] = [
  // Python, R and JavaScript imports
  /^\s*import\s+[\w.]+\s+as\s+\w+/,
  /^\s*import\s+\w+(?:\.\w+)+/,
  /^\s*from\s+[\w.]+\s+import\s+/,
  /\b(?:library|require|source)\s*\(/,
  /^\s*#\s*include\b/,
  // definitions and statements
  /^\s*(?:def|class|function|fn|lambda|var|let|const|return|print|echo)\b[^\n]*[(=:{]/,
  // a call on an object, or assignment and comparison operators
  /\b[A-Za-z_]\w*\.[A-Za-z_]\w*\s*\(/,
  /(?:==|!=|<-|=>|->|\+=|-=|&&|\|\||::)/,
  /\w\s*=\s*[\w"'[({]/,
  // code fences, braces and statement ends
  /```|[{}]|;\s*$/,
  /<\/?[a-z][\w-]*(?:\s[^>]*)?>/i,
];

/** True for text that reads as program code rather than words. */
export function looksLikeCode(text: string): boolean {
  return CODE_PATTERNS.some((p) => p.test(text));
}

/**
 * A JEL classification as the log shows it: the code ("J31"), optionally with its name
 * ("J31 Wage Level and Structure"). Anything else is not a JEL code and is dropped.
 */
export function jelCode(text: string): string | undefined {
  const t = text
    .replace(/^\s*JEL(?:\s+codes?)?\s*[:-]?\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!/^[A-Z]\d{0,2}\b/.test(t) || looksLikeCode(t)) return undefined;
  return t;
}
