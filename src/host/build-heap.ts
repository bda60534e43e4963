/**
 * The heap limit of a build's Astro process, in MiB (`--max-old-space-size`). Without one, V8
 * sizes the heap from the machine's memory and lets it grow long before collecting: a
 * 10,000-story build reached 4.7 GB of resident memory, most of it garbage (docs/performance.md,
 * goal 5). BUILD_HEAP_MB overrides it (a much larger corpus may need more).
 */
export const DEFAULT_BUILD_HEAP_MIB = 2048;

export function buildHeapMiB(env = process.env) {
  const value = Number(env.BUILD_HEAP_MB);
  return Number.isInteger(value) && value >= 256 ? value : DEFAULT_BUILD_HEAP_MIB;
}
