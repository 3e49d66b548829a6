// String formats of the schemas (uri, email, date, date-time, uuid), checked the way the
// database will read them, for query parameters and ingested records alike: a date must exist
// in the calendar ("2024-02-30" does not) and lie in the supported range, a date-time needs its
// time zone, a uuid must be one PostgreSQL accepts as is.
import { FormatRegistry } from '@sinclair/typebox';
import { DATE_RANGE } from './schemas/common.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The "fast" address rule of ajv-formats (what the OpenAPI tooling of clients typically applies).
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
// A scheme, then no white space, control character or character RFC 3986 never allows unescaped.
const URI = /^[a-z][a-z0-9+.-]*:[^\s\p{Cc}"<>\\^`{|}]+$/iu;
const HTTP_URI = /^https?:\/\/[^/?#@\s]+(?:@[^/?#\s]+)?(?:[/?#]|$)/i;
const IS_HTTP = /^https?:/i;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function validDate(year: number, month: number, day: number): boolean {
  // Year 0 is a date of the proleptic calendar (and a leap year), if not one PostgreSQL can
  // store: like any other year outside the supported range, it is refused as out of range.
  // (-1: not digits.)
  return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** A calendar date in YYYY-MM-DD form that exists, whatever its year. */
function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** A calendar date in YYYY-MM-DD form that exists and lies in the supported range. */
export function isDate(value: string): boolean {
  return isCalendarDate(value) && value >= DATE_RANGE.from && value <= DATE_RANGE.to;
}

/** The number written by `length` decimal digits at `start`, or -1. */
function digitsAt(value: string, start: number, length: number): number {
  let number = 0;
  for (let i = start; i < start + length; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}

const FIRST_YEAR = Number(DATE_RANGE.from.slice(0, 4));
const LAST_YEAR = Number(DATE_RANGE.to.slice(0, 4));
const RANGE_START_MS = Date.parse(`${DATE_RANGE.from}T00:00:00Z`);
const RANGE_END_MS = Date.parse(`${DATE_RANGE.to}T00:00:00Z`) + 86_400_000;

/**
 * A valid RFC 3339 date-time whose instant falls on a UTC calendar date of the supported range.
 * Only a year at an end of the range (or next to it) can cross a bound through its offset, so
 * only those are converted to an instant.
 */
function inRange(value: string): boolean {
  const year = digitsAt(value, 0, 4);
  if (year > FIRST_YEAR && year < LAST_YEAR) return true;
  if (year < FIRST_YEAR - 1 || year > LAST_YEAR + 1) return false;
  const ms = Date.parse(value);
  return ms >= RANGE_START_MS && ms < RANGE_END_MS;
}

/** A date-time that exists, in the supported range. */
export function isDateTime(value: string): boolean {
  return isRfc3339DateTime(value) && inRange(value);
}

/**
 * A well-formed date or date-time whose only fault is to lie outside the supported range (so
 * the reason given for it can say that, not that the value is malformed).
 */
export function isOutOfDateRange(format: string, value: string): boolean {
  if (format === 'date') return isCalendarDate(value) && !isDate(value);
  if (format === 'date-time') return isRfc3339DateTime(value) && !inRange(value);
  return false;
}

/**
 * An RFC 3339 date-time with a real date, a valid time and an explicit offset (Z or ±hh:mm).
 * Read character by character: records carry dozens of these, so it runs for every one of them.
 */
function isRfc3339DateTime(value: string): boolean {
  const n = value.length;
  if (n < 20 || n > 40) return false;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || (value.charCodeAt(10) | 0x20) !== 0x74) return false;
  if (value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return false;
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  if (!validDate(digitsAt(value, 0, 4), digitsAt(value, 5, 2), digitsAt(value, 8, 2))) return false;
  let i = 19;
  if (value.charCodeAt(i) === 46) {
    let j = i + 1;
    while (j < n && value.charCodeAt(j) >= 48 && value.charCodeAt(j) <= 57) j++;
    if (j === i + 1 || j - i - 1 > 9) return false;
    i = j;
  }
  const zone = value.charCodeAt(i);
  if ((zone | 0x20) === 0x7a) return i + 1 === n; // Z or z
  if ((zone !== 43 && zone !== 45) || n - i !== 6 || value.charCodeAt(i + 3) !== 58) return false;
  const offsetHours = digitsAt(value, i + 1, 2);
  const offsetMinutes = digitsAt(value, i + 4, 2);
  return offsetHours >= 0 && offsetHours <= 23 && offsetMinutes >= 0 && offsetMinutes <= 59;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function isEmail(value: string): boolean {
  return value.length <= 320 && EMAIL.test(value);
}

/** An absolute URI; http(s) ones must name a host. */
export function isUri(value: string): boolean {
  return value.length <= 8192 && URI.test(value) && (!IS_HTTP.test(value) || HTTP_URI.test(value));
}

export const FORMATS: Record<string, (value: string) => boolean> = {
  date: isDate,
  'date-time': isDateTime,
  uuid: isUuid,
  email: isEmail,
  uri: isUri,
};

/** Installs the formats in TypeBox's registry (idempotent); compiled checkers look them up there. */
export function registerFormats(): void {
  for (const [name, check] of Object.entries(FORMATS)) FormatRegistry.Set(name, check);
}
