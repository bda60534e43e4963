/** Dates of the back-office lists: the time is kept on one line (« 23 novembre 2026 à 4 h 41 »). */
import { formatDateTime } from '../../../lib/dates';

export const when = (date: Date): string => formatDateTime(date).replace(/ à (\d+) h (\d+)$/, ' à\u00a0$1\u00a0h\u00a0$2');
