/**
 * A worker thread of the build's precompression (src/integrations/precompress.mjs): compresses
 * the files it is given into `<cache>/<hash>.br` and `<hash>.gz`. Each file is written under a
 * temporary name and renamed, so that no file a live build links to is ever written in place.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const { jobs } = workerData;
for (const { source, target, brotliQuality, gzipLevel } of jobs) {
  const body = readFileSync(source);
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  const gz = gzipSync(body, { level: gzipLevel });
  for (const [suffix, data] of [
    ['.br', br],
    ['.gz', gz],
  ] as const) {
    writeFileSync(`${target}${suffix}.tmp-${process.pid}`, data);
    renameSync(`${target}${suffix}.tmp-${process.pid}`, `${target}${suffix}`);
  }
}
parentPort?.postMessage('done');
