import { CARD_DESCRIPTION_LENGTH } from '../../../../common/constants';

/** Cuts a description to the cards' length (150 characters), ending with an ellipsis. */
export function truncate(text: string, max: number = CARD_DESCRIPTION_LENGTH): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).trimEnd()}…`;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** '21 Nov 2026' for an ISO timestamp; the input unchanged when it is not a date. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeFormat.format(d);
}

const numberFormat = new Intl.NumberFormat('en-GB');
export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : numberFormat.format(n);
}

/** Human file size: 1.2 MB. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** 'planning' -> 'Planning', 'in_progress' -> 'In progress'. */
export function humanize(value: string): string {
  const s = value.replace(/[_-]+/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}
