// The published `date_preset` values as ranges of whole UTC days, counted from a given time.
//
// The published document names the presets and says they take precedence over dateFrom/dateTo,
// nothing more; these are our definitions, in the shape dateFrom/dateTo already have (whole UTC
// calendar days, inclusive), so an answer stays the same all day and pages of one day agree:
// - today, yesterday: that day;
// - last_Nd: N days ending today (today and the N-1 days before it);
// - last_6m, last_1y, last_2y: from the day after the same date 6, 12, 24 months ago through today
//   (a date the earlier month lacks, 31 August back to February, becomes its last day);
// - this_week, this_month, this_quarter, this_year: the whole current period (weeks start on
//   Monday, as ISO 8601; quarters start in January, April, July, October);
// - last_week, last_month, last_quarter, last_year: the whole period before the current one.
import type { DatePreset } from './schemas/published-params.js';

const DAY_MS = 86_400_000;

/** [from, before) of a preset at `now`: the first day's start and the start of the day after the last, ISO timestamps. */
export function presetRange(preset: DatePreset, now: Date): { from: string; before: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const tomorrow = today + DAY_MS;
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const monday = today - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  const quarter = month - (month % 3);
  const range = (from: number, before: number) => ({ from: iso(from), before: iso(before) });
  switch (preset) {
    case 'today':
      return range(today, tomorrow);
    case 'yesterday':
      return range(today - DAY_MS, today);
    case 'last_7d':
    case 'last_14d':
    case 'last_30d':
    case 'last_60d':
    case 'last_90d':
      return range(today - (Number(preset.slice(5, -1)) - 1) * DAY_MS, tomorrow);
    case 'last_6m':
      return range(monthsBack(now, 6) + DAY_MS, tomorrow);
    case 'last_1y':
      return range(monthsBack(now, 12) + DAY_MS, tomorrow);
    case 'last_2y':
      return range(monthsBack(now, 24) + DAY_MS, tomorrow);
    case 'this_week':
      return range(monday, monday + 7 * DAY_MS);
    case 'this_month':
      return range(Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1));
    case 'this_quarter':
      return range(Date.UTC(year, quarter, 1), Date.UTC(year, quarter + 3, 1));
    case 'this_year':
      return range(Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
    case 'last_week':
      return range(monday - 7 * DAY_MS, monday);
    case 'last_month':
      return range(Date.UTC(year, month - 1, 1), Date.UTC(year, month, 1));
    case 'last_quarter':
      return range(Date.UTC(year, quarter - 3, 1), Date.UTC(year, quarter, 1));
    case 'last_year':
      return range(Date.UTC(year - 1, 0, 1), Date.UTC(year, 0, 1));
  }
}

/** The start of the UTC day `months` months before now's, its day of the month kept or clamped to the month's last. */
function monthsBack(now: Date, months: number): number {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(now.getUTCDate(), lastDay));
}

const iso = (ms: number) => new Date(ms).toISOString();
