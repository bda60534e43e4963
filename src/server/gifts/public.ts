/**
 * What other domains may use of gifts (`.dependency-cruiser.cjs`, rule `gifts-through-public`):
 * - checkout: the gift's details on the payment page, the row placed with the order, and the
 *   fulfilment of the `gift` purpose (the code when paid, the revocation when refunded);
 * - checkout: the gift's hold on its order's refund (`giftRefundHold`, composed into orders'
 *   refund path), which stops the code before the money leaves;
 * - the withdrawal function: what it reads of a gift, and the hold it takes with its record;
 * - account: the export and the detachment of a person's gifts;
 * - admin: the gifts sold and where they stand, never their code (`queries.ts`);
 * - demo: the demo gift.
 * Pages use the services (`service.ts`, `codes.ts`) directly, like every domain's, and this file
 * for how a gift order is delivered (the confirmation page); never `repository.ts`.
 */
export { checkGiftDetails, DEMO_GIFT_CODE, type GiftDetails, type GiftDetailsInput, giftFulfilment, giftJobs, giftRefundHold, seedDemoGift } from './service';
export { detachUserGifts, exportUserGifts, giftDeliveryOfOrder, giftStateOfOrder, holdGiftForRefund, insertGift } from './repository';
export { GIFT_STATES, giftState, giftStateCounts, type GiftListRow, type GiftState, listGifts } from './queries';
