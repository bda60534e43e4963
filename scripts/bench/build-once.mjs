/**
 * One production build through Astro's API, in this process, so that its peak memory
 * (resident set, sharp's threads included) can be read at the end. Used by build.mjs.
 *
 * Astro's log lines (level info) go to stderr, each prefixed with the seconds elapsed since
 * the start, so that the parent can show where the time went (phases).
 */
import { build } from 'astro';

const started = performance.now();
const stamp = () =>
  `${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s ${String(Math.round(process.memoryUsage.rss() / 1048576)).padStart(5)} MiB`;
// When the resident set peaks, to tell which phase holds the memory.
let peak = { mib: 0, at: 0 };
setInterval(() => {
  const mib = process.memoryUsage.rss() / 1048576;
  if (mib > peak.mib) peak = { mib, at: (performance.now() - started) / 1000 };
}, 250).unref();
const write = process.stdout.write.bind(process.stdout);
let pending = '';
process.stdout.write = (chunk, ...rest) => {
  pending += String(chunk);
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) if (line.trim()) process.stderr.write(`[${stamp()}] ${line}\n`);
  const callback = rest.find((r) => typeof r === 'function');
  if (callback) callback();
  return true;
};
await build({ root: process.cwd(), logLevel: process.env.BENCH_LOG_LEVEL ?? 'info' });
const seconds = (performance.now() - started) / 1000;
const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
// The parent reads this last line.
process.stderr.write(`[build-once] resident set peaked at ${Math.round(peak.mib)} MiB, ${peak.at.toFixed(1)} s into the build\n`);
write(JSON.stringify({ seconds, peakMiB: maxRSS / 1024, cpuSeconds: (userCPUTime + systemCPUTime) / 1e6 }) + '\n');
