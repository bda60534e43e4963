/** How the newsroom pages name builds, their states and their origins. */
import type { BuildStatus, BuildTrigger } from '../db/database';
import { formatDateTime } from '../../lib/dates';
import { DIST_BUILD_ID } from './live';

export const STATUS_LABELS: Record<BuildStatus, string> = {
  queued: 'En attente',
  running: 'En cours',
  succeeded: 'Réussie',
  failed: 'Échouée',
};

export const TRIGGER_LABELS: Record<BuildTrigger, string> = {
  cms: 'CMS (webhook)',
  editor: 'Rédaction',
  cli: 'Terminal (npm run rebuild)',
  restart: 'Reprise après un arrêt',
  'follow-up': 'Suite de la publication précédente (pages suivantes des listes)',
};

/** The date a build id starts with (`2026-11-23T10-15-02Z-k3f9`). */
export function buildDate(id: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z/.exec(id);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : undefined;
}

/** « Version du 23 novembre 2026 à 15 h 20 », or the start-up build. */
export function versionName(id: string): string {
  if (id === DIST_BUILD_ID) return 'Version de démarrage (construite par npm start)';
  const date = buildDate(id);
  return date ? `Version du ${formatDateTime(date)}` : `Version ${id}`;
}

/** « 1 min 12 s », « 8,4 s ». */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
