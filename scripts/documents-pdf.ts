/**
 * Renders the cooperative's documents that the site serves from public/documents/ with the
 * documents' PDF kit: the statutes (src/content/statutes/statuts-{version}.md, named in
 * src/config/statutes.yaml) and the documents of src/config/cooperative-documents.ts (annual
 * accounts, made from src/content/cooperative/). Run it after a change of one of them, and
 * commit the PDFs:
 *
 *   npx tsx --import ./scripts/bench/raw-loader.mjs scripts/documents-pdf.ts
 *
 * The Markdown is read line by line: `#` title, `##` part, `###` article or heading, `| label |
 * amount` a row of figures (`**…**` for a total), anything else a paragraph.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cooperativeDocuments } from '../src/config/cooperative-documents';
import { statutes } from '../src/config/statutes';
import { COLORS, finish, newDocument, typeset } from '../src/server/billing/pdf/kit';

const LEFT = 60;
const WIDTH = 595.28 - 2 * LEFT;
const BOTTOM = 841.89 - 70;

async function render(source: string, meta: { title: string; subject: string; date: Date; footer: string; target: string }) {
  const doc = newDocument({ title: meta.title, subject: meta.subject, date: meta.date });
  const ensure = (height: number) => {
    if (doc.y + height > BOTTOM) doc.addPage();
  };
  doc.y = 60;
  for (const line of source.split('\n')) {
    const text = line.trim();
    if (!text) continue;
    if (text.startsWith('|')) {
      // A row of figures: the label on the left, the amount right-aligned; bold when it is a total.
      const [label = '', amount = ''] = text
        .slice(1)
        .split('|')
        .map((cell) => cell.trim());
      const total = label.startsWith('**');
      const strip = (cell: string) => typeset(cell.replace(/\*\*/g, ''));
      ensure(22);
      const y = doc.y + 3;
      doc
        .font(total ? 'bold' : 'regular')
        .fontSize(9.5)
        .fillColor(COLORS.text);
      doc.text(strip(label), LEFT, y, { width: WIDTH - 110 });
      const after = doc.y;
      doc.text(strip(amount), LEFT + WIDTH - 105, y, { width: 105, align: 'right' });
      doc.y = Math.max(after, doc.y);
      doc
        .moveTo(LEFT, doc.y + 2)
        .lineTo(LEFT + WIDTH, doc.y + 2)
        .lineWidth(total ? 0.9 : 0.4)
        .strokeColor(COLORS.rule)
        .stroke();
      doc.y += 3;
    } else if (text.startsWith('### ')) {
      ensure(60);
      doc
        .font('bold')
        .fontSize(10.5)
        .fillColor(COLORS.text)
        .text(typeset(text.slice(4)), LEFT, doc.y + 8, { width: WIDTH });
    } else if (text.startsWith('## ')) {
      ensure(80);
      doc
        .font('bold')
        .fontSize(12.5)
        .fillColor(COLORS.green)
        .text(typeset(text.slice(3)), LEFT, doc.y + 14, { width: WIDTH });
    } else if (text.startsWith('# ')) {
      doc
        .font('bold')
        .fontSize(22)
        .fillColor(COLORS.green)
        .text(typeset(text.slice(2)), LEFT, doc.y, { width: WIDTH });
      doc.rect(LEFT, doc.y + 2, 34, 3.5).fill(COLORS.yellow);
      doc.y += 10;
    } else {
      ensure(30);
      doc
        .font('regular')
        .fontSize(9.5)
        .fillColor(COLORS.text)
        .text(typeset(text), LEFT, doc.y + 4, { width: WIDTH, align: 'justify', lineGap: 1.5 });
    }
  }
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i);
    // The footer sits in the bottom margin: without this, pdfkit would open a page for it.
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(7.5)
      .fillColor(COLORS.muted)
      .text(`${meta.footer} — page ${i + 1}/${pages.count}`, LEFT, 841.89 - 45, { width: WIDTH, align: 'center', lineBreak: false });
  }
  const target = resolve('public', meta.target.replace(/^\//, ''));
  writeFileSync(target, await finish(doc));
  console.log(target);
}

const version = statutes.statutes.version;
await render(readFileSync(resolve(`src/content/statutes/statuts-${version}.md`), 'utf8'), {
  title: `Statuts de Contrechamp, version ${version}`,
  subject: 'Statuts de Contrechamp SCIC SAS',
  date: new Date(`${statutes.statutes.adoptedOn}T12:00:00Z`),
  footer: `Statuts de Contrechamp SCIC SAS, version ${version}`,
  target: statutes.statutes.pdf,
});
for (const document of cooperativeDocuments) {
  await render(readFileSync(resolve(document.source), 'utf8'), {
    title: document.title,
    subject: `${document.title}, Contrechamp SCIC SAS`,
    date: new Date(`${document.approvedOn}T12:00:00Z`),
    footer: `Contrechamp SCIC SAS — ${document.title}`,
    target: document.pdf,
  });
}
