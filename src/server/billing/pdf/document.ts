// Placeholder until the renderer lands (branch `pdf`): replaced wholesale by the merge.
import type { DocumentContent } from '../content';
export async function renderDocumentPdf(content: DocumentContent): Promise<Uint8Array> {
  throw new Error(`PDF renderer not merged yet (${content.label})`);
}
