/**
 * `npm run rebuild`: publishes from a shell, as the CMS's webhook does. The build is queued in the
 * database; the running site's publisher takes it (src/server/editorial/).
 *
 *   npm run rebuild                      queue a build (joins one that waits)
 *   npm run rebuild -- --wait            …and follow it until it is live or has failed
 *   npm run rebuild -- --webhook [url]   send a signed POST /api/rebuild instead (to SITE_URL by default)
 *   npm run rebuild -- --print-secret    print the webhook's key, for the CMS's configuration
 */
import { parseArgs } from 'node:util';
import { config } from '../src/server/core/config';
import { openDatabase } from '../src/server/db/client';
import { migrateToLatest } from '../src/server/db/migrate';
import { getBuild, requestBuild } from '../src/server/editorial/queue';
import { STATUS_LABELS, versionName } from '../src/server/editorial/labels';
import { rebuildSecret, signedRebuildHeaders } from '../src/server/editorial/webhook';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { wait: { type: 'boolean' }, webhook: { type: 'boolean' }, 'print-secret': { type: 'boolean' } },
});

async function viaWebhook(target: string): Promise<void> {
  const url = new URL('/api/rebuild', target);
  const body = JSON.stringify({ reason: 'npm run rebuild -- --webhook' });
  const response = await fetch(url, { method: 'POST', headers: signedRebuildHeaders(rebuildSecret(), body), body });
  const answer = (await response.json().catch(() => ({}))) as { build?: { id: string }; message?: string };
  if (response.status !== 202) throw new Error(`${url.href} a répondu ${response.status} : ${answer.message ?? ''}`);
  console.log(`Publication reçue par le site : ${versionName(answer.build?.id ?? '')} (${answer.build?.id}).`);
}

async function main(): Promise<void> {
  if (values['print-secret']) {
    console.log(rebuildSecret());
    return;
  }
  if (values.webhook) {
    await viaWebhook(positionals[0] ?? config().siteUrl.href);
    return;
  }
  const { db, close } = openDatabase(config().database);
  try {
    await migrateToLatest(db);
    const queued = await requestBuild(db, { trigger: 'cli', now: new Date(), debounceMs: config().publishing.debounceMs });
    console.log(
      queued.joined
        ? `Publication ajoutée à la construction qui attend (${queued.id}).`
        : `Construction demandée : ${queued.id}. Le site en cours d’exécution la prend dans quelques secondes.`,
    );
    if (!values.wait) return;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const build = await getBuild(db, queued.id);
      if (!build) throw new Error('la construction a disparu');
      if (build.status === 'succeeded') {
        console.log(`${versionName(build.id)} : en ligne (${build.pages ?? '?'} pages).`);
        return;
      }
      if (build.status === 'failed') {
        console.error(`${versionName(build.id)} : ${STATUS_LABELS.failed.toLowerCase()} — ${build.error ?? ''}`);
        process.exitCode = 1;
        return;
      }
    }
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
