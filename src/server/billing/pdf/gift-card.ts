// Placeholder until the renderer lands (branch `pdf`): replaced wholesale by the merge.
export interface GiftCard { offerLabel: string; months: number; recipientName: string; buyerName: string; message: string; code: string; expiresAt: string; activateUrl: string; siteHost: string }
export async function renderGiftCardPdf(card: GiftCard): Promise<Uint8Array> {
  throw new Error(`PDF renderer not merged yet (${card.offerLabel})`);
}
