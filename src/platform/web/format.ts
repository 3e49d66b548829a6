// Display formatting for the account pages. Dates are shown in UTC, the zone the API's
// credit months and usage days are counted in.

const DATE = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const NUMBER = new Intl.NumberFormat('en-US');

/** Accepts the database's text dates ("2026-07-03") and timestamps ("2026-07-03 10:00:00.123+00"), and ISO strings. */
export function toDate(value: string | Date): Date {
  if (value instanceof Date) return value;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}

/** For datetime attributes. */
export const isoTime = (value: string | Date) => toDate(value).toISOString();
export const formatDate = (value: string | Date) => DATE.format(toDate(value));
export const formatShortDate = (value: string | Date) => SHORT_DATE.format(toDate(value));
export const formatDateTime = (value: string | Date) => `${DATE_TIME.format(toDate(value))} UTC`;
export const formatNumber = (value: number) => NUMBER.format(value);

/** "per minute" for the usual window, else "per 30 seconds" and the like. */
export function perWindow(windowMs: number): string {
  if (windowMs === 60_000) return 'per minute';
  if (windowMs % 60_000 === 0) return `per ${windowMs / 60_000} minutes`;
  return `per ${formatNumber(windowMs / 1000)} seconds`;
}

/** "/ min" for the usual window, else "/ 30 s", "/ 5 min". */
export function shortWindow(windowMs: number): string {
  if (windowMs === 60_000) return '/ min';
  if (windowMs % 60_000 === 0) return `/ ${windowMs / 60_000} min`;
  return `/ ${formatNumber(windowMs / 1000)} s`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** "3 minutes ago", "in 23 hours"; "just now" under a minute. */
export function relativeTime(value: string | Date, now: Date): string {
  const diff = toDate(value).getTime() - now.getTime();
  if (Math.abs(diff) < 60_000) return 'just now';
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'minute') return RELATIVE.format(Math.trunc(diff / ms), unit);
  }
  return 'just now';
}

export const plural = (n: number, word: string) => `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;

/** "24 hours", "90 minutes", "5 seconds": a whole number in the largest unit that fits. */
export function formatDuration(ms: number): string {
  const units: [string, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ];
  for (const [unit, size] of units) {
    if (ms >= size && ms % size === 0 && !(unit === 'day' && ms / size < 2)) return plural(ms / size, unit);
  }
  return ms >= 1000 ? plural(Math.round(ms / 1000), 'second') : plural(ms, 'millisecond');
}
