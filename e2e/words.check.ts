/**
 * The words check: patterns that must not reach a researcher in anything the app shows or saves
 * (screen text, labels, log lines, saved documents). e2e/words.e2e.test.ts collects the strings
 * of a full run of every team and passes them through `checkText`; test/words-check.test.ts
 * shows each rule catching what it is for and letting through what is fine.
 *
 * Prose only: fenced and inline Markdown code, web addresses, e-mail addresses and file names
 * are taken out before the rules run (the collector leaves out the screen's code editors,
 * <pre> and <code> blocks and the rendered mathematics the same way).
 */

export interface Finding {
  /** Where the text was found, e.g. 'Literature / tab References (1440 px)'. */
  where: string;
  /** The rule it broke. */
  rule: string;
  /** The offending line (shortened to 240 characters). */
  text: string;
}

interface Rule {
  name: string;
  /** `line` as shown; `unquoted` without its quoted names and values (“regional_panel”, "NA"). */
  test: (line: string, unquoted: string) => boolean;
  /** Also checked in code and data (a program, JSON, BibTeX), not only in prose. */
  inCode?: boolean;
}

const re = (name: string, pattern: RegExp, inCode = false): Rule => ({
  name,
  test: (l) => pattern.test(l),
  inCode,
});

/** A leaked value: what a program printed, never a word; a quoted one is a value named. */
const value = (name: string, pattern: RegExp): Rule => ({
  name,
  test: (_, unquoted) => pattern.test(unquoted),
});

/** Metadata lines: a label and a value that must be words or codes, never a program. */
const JEL_LINE = /\bJEL(?:\s+(?:codes?|classification))?\s*:\s*(.*)$/i;
const KEYWORDS_LINE = /\b(?:Keywords|Synonyms|Search queries)\s*:\s*(.*)$/i;
const OTHER_METADATA_LINE = /^\s*(?:Licen[cs]e|Source|Authors?|Journal|Publisher)\s*:\s*(.*)$/i;
const PROGRAM = /\bimport\s+\w|\bdef\s+\w+\s*\(|\bfunction\s*\(|=>|\s==?\s|;\s*$/;

const RULES: readonly Rule[] = [
  re('"Team team"', /\bTeam team\b/i, true),
  re('"the none"', /\bthe none\b/i, true),
  re('an internal class name', /\b(?:Error starting [A-Z][a-z]+Team|[A-Z][a-z]+Team)\b/, true),
  // Two full stops, not three (an ellipsis) and not '../' (a relative path).
  re('doubled punctuation', /(?<!\.)\.\.(?![./])|,,|\?\?|!!|;;|:: /),
  value('"undefined"', /\bundefined\b/),
  // 'null' as a leaked value; the statistician's null hypothesis, result or effect is prose.
  value('"null"', /\b(?:null|NULL)\b(?!\s+(?:hypothes[ie]s|results?|effects?|findings?|model))/),
  value('"NaN"', /\bNaN\b/),
  re('"[object Object]"', /\[object \w+\]/, true),
  // A count with a noun in both numbers ("1 finding(s)"): say the one that applies.
  re('a "(s)" plural', /\b\d+ [a-z][a-z -]*\(s\)/i),
  re('a checkpoint named twice', /\bCheckpoint \d+ \(Checkpoint\b/i),
  {
    name: 'code in a metadata field',
    test: (line) => {
      const jel = JEL_LINE.exec(line)?.[1];
      if (jel !== undefined && /\bimport\s|=|\(/.test(jel)) return true;
      const keywords = KEYWORDS_LINE.exec(line)?.[1];
      if (keywords !== undefined && /\bimport\s|=|[{}]|\(\)/.test(keywords)) return true;
      const other = OTHER_METADATA_LINE.exec(line)?.[1];
      return other !== undefined && PROGRAM.test(other);
    },
  },
];

/** snake_case and camelCase words: a program's names, not a sentence's. */
const SNAKE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
const CAMEL = /\b[a-z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g;

/**
 * Words that look like identifiers but are what the researcher sees on purpose. Kept short; each
 * says why. The test adds the column names of the data it uploads (a column is named as the
 * researcher's file names it).
 */
export const ALLOWED_WORDS: ReadonlyMap<string, string> = new Map([
  ['arXiv', "the preprint server's own spelling of its name"],
]);

/** Quoted names and values (a dataset's name, a missing-value token), at most 80 characters. */
const QUOTED = /“[^”\n]{1,80}”|‘[^’\n]{1,80}’|"[^"\n]{1,80}"/g;

function withoutCodeAndAddresses(text: string): string {
  return (
    text
      // fenced code blocks (``` or ~~~), then inline code
      .replace(/^([ \t]*)(```|~~~)[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, ' ')
      .replace(/`[^`\n]+`/g, ' ')
      // mathematics: $$...$$, $...$, \[...\], \(...\)
      .replace(/\$\$[\s\S]*?\$\$/g, ' ')
      .replace(/\$[^$\n]+\$/g, ' ')
      .replace(/\\\[[\s\S]*?\\\]/g, ' ')
      .replace(/\\\([^\n]*?\\\)/g, ' ')
      // web addresses, DOIs, e-mail addresses and file names are the world's spelling
      .replace(/\b(?:https?|ftp):\/\/[^\s)>\]"”]+/g, ' ')
      .replace(/\bwww\.[^\s)>\]"”]+/g, ' ')
      .replace(/\b10\.\d{4,9}\/\S+/g, ' ')
      .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, ' ')
      .replace(/[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,4}\b(?=$|[\s),;:.'"”’])/gm, (m) =>
        /\.(?:csv|tsv|json|xlsx?|dta|parquet|md|txt|pdf|bib|ris|tex|py|r|jl|m|mod|zip|png|svg)$/i.test(
          m,
        )
          ? ' '
          : m,
      )
  );
}

export interface CheckOptions {
  /** More words allowed in prose (e.g. the column names of the test's own data). */
  allow?: Iterable<string>;
  /**
   * 'code' for a program, JSON, CSV, BibTeX or LaTeX: only the rules marked inCode (its names and
   * punctuation are its own). Default 'prose'.
   */
  kind?: 'prose' | 'code';
}

/** The findings in one text (a page's text, a log line, a document), line by line. */
export function checkText(text: string, where: string, options: CheckOptions = {}): Finding[] {
  const allowed = new Set([...ALLOWED_WORDS.keys(), ...(options.allow ?? [])]);
  const code = options.kind === 'code';
  const rules = code ? RULES.filter((r) => r.inCode) : RULES;
  const findings: Finding[] = [];
  for (const raw of (code ? text : withoutCodeAndAddresses(text)).split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const shown = line.length > 240 ? `${line.slice(0, 237)}...` : line;
    const unquoted = line.replace(QUOTED, ' ');
    for (const rule of rules) {
      if (rule.test(line, unquoted)) findings.push({ where, rule: rule.name, text: shown });
    }
    if (code) continue;
    const words = [...(unquoted.match(SNAKE) ?? []), ...(unquoted.match(CAMEL) ?? [])].filter(
      (w) => !allowed.has(w),
    );
    if (words.length > 0) {
      findings.push({
        where,
        rule: `an identifier (${[...new Set(words)].join(', ')})`,
        text: shown,
      });
    }
  }
  return findings;
}

/** One line per finding, for a failing test's message. */
export function formatFindings(findings: readonly Finding[]): string {
  return findings.map((f) => `${f.where}: ${f.rule}: ${JSON.stringify(f.text)}`).join('\n');
}
