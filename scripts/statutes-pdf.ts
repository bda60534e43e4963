/**
 * Renders the statutes (src/content/statutes/statuts-{version}.md) to the PDF that the site serves
 * (public/documents/, named in src/config/statutes.yaml), with the documents' PDF kit. Run it
 * after a change of the statutes, and commit the PDF:
 *
 *   npx tsx --import ./scripts/bench/raw-loader.mjs scripts/statutes-pdf.ts
 *
 * The Markdown is read line by line: `#` title, `##` part, `###` article, anything else a paragraph.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { statutes } from '../src/config/statutes';
import { COLORS, finish, newDocument, typeset } from '../src/server/billing/pdf/kit';

const version = statutes.statutes.version;
const source = readFileSync(resolve(`src/content/statutes/statuts-${version}.md`), 'utf8');
const doc = newDocument({ title: `Statuts de Contrechamp, version ${version}`, subject: 'Statuts de Contrechamp SCIC SAS', date: new Date(`${statutes.statutes.adoptedOn}T12:00:00Z`) });
const LEFT = 60;
const WIDTH = 595.28 - 2 * LEFT;
const BOTTOM = 841.89 - 70;
const ensure = (height: number) => {
  if (doc.y + height > BOTTOM) doc.addPage();
};
doc.y = 60;
for (const line of source.split('\n')) {
  const text = line.trim();
  if (!text) continue;
  if (text.startsWith('### ')) {
    ensure(60);
    doc.font('bold').fontSize(10.5).fillColor(COLORS.text).text(typeset(text.slice(4)), LEFT, doc.y + 8, { width: WIDTH });
  } else if (text.startsWith('## ')) {
    ensure(80);
    doc.font('bold').fontSize(12.5).fillColor(COLORS.green).text(typeset(text.slice(3)), LEFT, doc.y + 14, { width: WIDTH });
  } else if (text.startsWith('# ')) {
    doc.font('bold').fontSize(22).fillColor(COLORS.green).text(typeset(text.slice(2)), LEFT, doc.y, { width: WIDTH });
    doc.rect(LEFT, doc.y + 2, 34, 3.5).fill(COLORS.yellow);
    doc.y += 10;
  } else {
    ensure(30);
    doc.font('regular').fontSize(9.5).fillColor(COLORS.text).text(typeset(text), LEFT, doc.y + 4, { width: WIDTH, align: 'justify', lineGap: 1.5 });
  }
}
const pages = doc.bufferedPageRange();
for (let i = 0; i < pages.count; i++) {
  doc.switchToPage(pages.start + i);
  // The footer sits in the bottom margin: without this, pdfkit would open a page for it.
  doc.page.margins.bottom = 0;
  doc.font('regular').fontSize(7.5).fillColor(COLORS.muted).text(`Statuts de Contrechamp SCIC SAS, version ${version} — page ${i + 1}/${pages.count}`, LEFT, 841.89 - 45, { width: WIDTH, align: 'center', lineBreak: false });
}
const target = resolve('public', statutes.statutes.pdf.replace(/^\//, ''));
writeFileSync(target, await finish(doc));
console.log(target);
