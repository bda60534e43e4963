/**
 * One production build through Astro's API, in this process, so that its peak memory
 * (resident set, sharp's threads included) can be read at the end. Used by build.mjs.
 */
import { build } from 'astro';

const started = performance.now();
await build({ root: process.cwd(), logLevel: 'warn' });
const seconds = (performance.now() - started) / 1000;
const { maxRSS } = process.resourceUsage();
// The parent reads this last line.
console.log(JSON.stringify({ seconds, peakMiB: maxRSS / 1024 }));
