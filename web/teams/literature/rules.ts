import { backoffDelayMs } from '../../../common/retry';
import {
  LITERATURE_MESSAGES,
  LITERATURE_POLLING,
  LITERATURE_RETRY,
} from '../../../common/teams/literature';

/**
 * The Literature screen's client rules as pure functions, so their
 * tests need no network: the poll delay, the 429 retry wait, which errors the screen hides, and
 * the report preview read from the logs.
 */

export type PollOutcome = 'ok' | 'high-demand' | 'failed';

/**
 * The wait before the next poll: 2 s, or 4 s when a real-time message arrived in the last 12 s;
 * after a 429 or 'high demand' failure the previous wait doubles (up to 30 s); after another
 * failure it grows by 1 s (up to 15 s).
 */
export function nextPollDelay(
  previousMs: number,
  outcome: PollOutcome,
  lastSocketMessageAt: number | undefined,
  now: number,
): number {
  const p = LITERATURE_POLLING;
  if (outcome === 'high-demand')
    return Math.min(p.highDemandMaxMs, Math.max(p.baseMs, previousMs) * 2);
  if (outcome === 'failed')
    return Math.min(p.failureMaxMs, Math.max(p.baseMs, previousMs) + p.stepMs);
  const recent = lastSocketMessageAt !== undefined && now - lastSocketMessageAt < p.socketWindowMs;
  return recent ? p.socketActiveMs : p.baseMs;
}

/** The wait before retry number `retry` (0-based) after a 429 without Retry-After. */
export function backoffMs(retry: number, random: () => number): number {
  return backoffDelayMs(LITERATURE_RETRY, retry, random);
}

export function isHighDemand(text: string | undefined): boolean {
  return text === LITERATURE_MESSAGES.highDemand || /high demand/i.test(text ?? '');
}

/** Errors about character decoding are not shown on this screen: they tell a researcher nothing. */
export function isDecodingError(text: string | undefined): boolean {
  return /\b(decod\w*|codec|charmap|unicodedecodeerror|utf-?8|invalid (start|continuation) byte)\b/i.test(
    text ?? '',
  );
}

/** A report a log line carries (`FINAL_REPORT: ...`, as text or a JSON string), the newest one. */
export function reportFromLogs(logs: readonly string[]): string | undefined {
  for (let i = logs.length - 1; i >= 0; i--) {
    const m = /^FINAL_REPORT:\s*([\s\S]+)$/.exec(logs[i] ?? '');
    if (!m) continue;
    const raw = m[1]!.trim();
    if (raw.startsWith('"')) {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed === 'string') return parsed;
      } catch {
        // not JSON: the text as it is
      }
    }
    return raw;
  }
  return undefined;
}

/** File names carry the current date, so downloads of several days stay apart. */
export function datedFileName(stem: string, extension: string, now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `${stem}-${date}.${extension}`;
}
