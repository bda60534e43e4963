/**
 * Dates as readers see them: Paris time, French names, weeks starting on Monday (SPEC §9).
 * Pure helpers, safe on the server and in the browser.
 */
import { fr } from 'date-fns/locale';
import { formatInTimeZone } from 'date-fns-tz';

export const TIME_ZONE = 'Europe/Paris';
export const WEEK_STARTS_ON = 1 as const;

const options = { locale: fr, weekStartsOn: WEEK_STARTS_ON } as const;

/** "21 novembre 2026", "1er janvier 2026" */
export function formatDate(date: Date): string {
  return formatInTimeZone(date, TIME_ZONE, 'do MMMM yyyy', options);
}

/** "21 novembre 2026 à 8 h 30", the French typographic convention for times. */
export function formatDateTime(date: Date): string {
  return formatInTimeZone(date, TIME_ZONE, "do MMMM yyyy 'à' H 'h' mm", options);
}

/** The calendar year in Paris, which is the year in a story's URL. */
export function parisYear(date: Date): number {
  // Paris is a whole number of hours from UTC: the year is the same through a UTC hour. Every
  // page's footer asks, and formatting in a time zone was 2.5 % of a signed-in page (goal 4).
  const hour = Math.floor(date.getTime() / HOUR_MS);
  if (hour !== lastYearHour) {
    lastYear = Number(formatInTimeZone(date, TIME_ZONE, 'yyyy'));
    lastYearHour = hour;
  }
  return lastYear;
}
const HOUR_MS = 3_600_000;
let lastYearHour = NaN;
let lastYear = 0;

/** The Paris calendar day of an instant, "2026-11-21". */
export function parisDay(date: Date): string {
  return formatInTimeZone(date, TIME_ZONE, 'yyyy-MM-dd');
}

/** The calendar day before an ISO day: "2026-03-01" → "2026-02-28". */
function dayBefore(day: string): string {
  const noon = new Date(`${day}T12:00:00Z`);
  noon.setUTCDate(noon.getUTCDate() - 1);
  return noon.toISOString().slice(0, 10);
}

/**
 * The Paris calendar days a period of service [start, end) is printed as: its first day, and
 * its last, inclusive — the day before the day `end` falls on, which is the day the next period
 * starts. Printed this way, consecutive periods meet without sharing a day: « du 1er novembre au
 * 30 novembre », then « du 1er décembre … », whatever the time of day a payment came in. A period
 * shorter than a day is that one day.
 */
export function periodDays(start: Date, end: Date): { start: string; end: string } {
  const first = parisDay(start);
  const last = dayBefore(parisDay(end));
  return { start: first, end: last < first ? first : last };
}

/** "du 1er novembre 2026 au 30 novembre 2026": a period of service [start, end) (see `periodDays`). */
export function formatPeriod(start: Date, end: Date): string {
  const days = periodDays(start, end);
  const asDate = (day: string) => new Date(`${day}T12:00:00Z`);
  return `du ${formatDate(asDate(days.start))} au ${formatDate(asDate(days.end))}`;
}

/** ISO 8601 with the Paris offset, for <time datetime> and JSON-LD. */
export function isoParis(date: Date): string {
  return formatInTimeZone(date, TIME_ZONE, "yyyy-MM-dd'T'HH:mm:ssXXX");
}

/** "1 h 02 min", "12 min", "45 s": a human duration in French. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return `${minutes} min`;
  return `${s} s`;
}

/** "1:02:05" or "12:05", for players and podcast feeds (itunes:duration). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours > 0 ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** ISO 8601 duration ("PT1H2M5S"), for JSON-LD. */
export function isoDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${sec || (!h && !m) ? `${sec}S` : ''}`;
}
