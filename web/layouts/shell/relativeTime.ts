import { formatDistanceToNowStrict } from 'date-fns';

/** '5 minutes ago'; the raw text when the date cannot be read. */
export function formatDistanceToNow(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (Math.abs(now.getTime() - date.getTime()) < 60_000) return 'just now';
  return formatDistanceToNowStrict(date, { addSuffix: true });
}
