/**
 * Renders the sample documents and gift cards of src/server/billing/pdf/samples.ts, to look at
 * the layout after a change:
 *
 *   npx tsx scripts/pdf-samples.ts [folder=a new temporary folder]
 *
 * Prints the path of each PDF written.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderDocumentPdf } from '../src/server/billing/pdf/document';
import { renderGiftCardPdf } from '../src/server/billing/pdf/gift-card';
import { sampleCreditNote, sampleGiftCard, sampleInvoice, sampleLongInvoice, sampleReceipt, sampleStatement } from '../src/server/billing/pdf/samples';

const dir = process.argv[2] ? resolve(process.argv[2]) : mkdtempSync(join(tmpdir(), 'pdf-samples-'));
mkdirSync(dir, { recursive: true });
const documents = {
  facture: sampleInvoice(),
  avoir: sampleCreditNote(),
  'recu-de-don': sampleReceipt(),
  recapitulatif: sampleStatement(40),
  'facture-longue': sampleLongInvoice(),
};
for (const [name, content] of Object.entries(documents)) {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, await renderDocumentPdf(content));
  console.log(file);
}
for (const [name, card] of Object.entries({ 'carte-cadeau': sampleGiftCard(), 'carte-cadeau-sans-message': sampleGiftCard('') })) {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, await renderGiftCardPdf(card));
  console.log(file);
}
