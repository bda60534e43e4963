import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatDateTime, formatDuration, formatPeriod, isoDuration, isoParis, parisYear, periodDays } from './dates';

describe('French dates in Paris time', () => {
  it('names months and days in French', () => {
    expect(formatDate(new Date('2026-11-21T10:00:00Z'))).toBe('21 novembre 2026');
    // The first of the month is "1er" in French.
    expect(formatDate(new Date('2026-03-01T10:00:00Z'))).toBe('1er mars 2026');
  });

  it('uses Paris time, not UTC, for the calendar day', () => {
    // 23:30 UTC on 14 July is already 15 July in Paris (UTC+2 in summer).
    expect(formatDate(new Date('2026-07-14T23:30:00Z'))).toBe('15 juillet 2026');
    // In winter Paris is UTC+1.
    expect(formatDateTime(new Date('2026-01-10T07:05:00Z'))).toBe('10 janvier 2026 à 8 h 05');
  });

  it('gives the publication year in Paris, which is the year in story URLs', () => {
    // New Year's night: still 2025 in UTC, already 2026 in Paris.
    expect(parisYear(new Date('2025-12-31T23:30:00Z'))).toBe(2026);
    expect(parisYear(new Date('2025-12-31T22:59:00Z'))).toBe(2025);
  });

  it('writes ISO dates with the Paris offset, summer and winter', () => {
    expect(isoParis(new Date('2026-07-01T10:00:00Z'))).toBe('2026-07-01T12:00:00+02:00');
    expect(isoParis(new Date('2026-12-01T10:00:00Z'))).toBe('2026-12-01T11:00:00+01:00');
  });
});

describe('durations', () => {
  it('reads like French', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(12 * 60 + 5)).toBe('12 min');
    expect(formatDuration(3600 + 2 * 60)).toBe('1 h 02 min');
  });

  it('formats clocks for players and podcast feeds', () => {
    expect(formatClock(65)).toBe('1:05');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(-3)).toBe('0:00');
  });

  it('formats ISO 8601 durations for structured data', () => {
    expect(isoDuration(3725)).toBe('PT1H2M5S');
    expect(isoDuration(600)).toBe('PT10M');
    expect(isoDuration(0)).toBe('PT0S');
  });
});

describe('periods of service', () => {
  it('end the day before the next one starts, in Paris days, whatever the hour', () => {
    // Paid at 11:00 in Paris on 1 November: the next period starts on 1 December.
    expect(formatPeriod(new Date('2026-11-01T10:00:00Z'), new Date('2026-12-01T10:00:00Z'))).toBe('du 1er novembre 2026 au 30 novembre 2026');
    expect(formatPeriod(new Date('2026-12-01T10:00:00Z'), new Date('2027-01-01T10:00:00Z'))).toBe('du 1er décembre 2026 au 31 décembre 2026');
    // 23:30 UTC is already the next day in Paris, at both ends.
    expect(periodDays(new Date('2026-10-31T23:30:00Z'), new Date('2026-11-30T23:30:00Z'))).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    // Paris midnight exactly: the next period starts that day.
    expect(periodDays(new Date('2026-11-30T23:00:00Z'), new Date('2026-12-31T23:00:00Z'))).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    // Across a short month and a leap day.
    expect(periodDays(new Date('2027-01-31T10:00:00Z'), new Date('2027-02-28T10:00:00Z'))).toEqual({ start: '2027-01-31', end: '2027-02-27' });
    expect(periodDays(new Date('2028-02-29T10:00:00Z'), new Date('2028-03-29T09:00:00Z'))).toEqual({ start: '2028-02-29', end: '2028-03-28' });
    // Never ends before it starts.
    expect(periodDays(new Date('2026-11-01T08:00:00Z'), new Date('2026-11-01T09:00:00Z'))).toEqual({ start: '2026-11-01', end: '2026-11-01' });
  });
});
