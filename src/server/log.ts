/**
 * The logger moved to ./core/log (pino, with every line scrubbed of addresses and tokens).
 * This re-export keeps existing imports working until they point there.
 */
export { log, scrub } from './core/log';
