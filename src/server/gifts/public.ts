/**
 * What other domains may use of gifts (`.dependency-cruiser.cjs`, rule `gifts-through-public`):
 * - checkout: the gift's details on the payment page, the row placed with the order, and the
 *   fulfilment of the `gift` purpose (the code when paid, the revocation when refunded);
 * - the shared refund path of a paid order (the back-office, the withdrawal function), which
 *   stops a gift's code before the money leaves, and what a withdrawal reads of a gift;
 * - account: the export and the detachment of a person's gifts;
 * - admin: the gifts sold and where they stand, never their code (`queries.ts`);
 * - demo: the demo gift.
 * Pages use the services (`service.ts`, `codes.ts`) directly, like every domain's, and this file
 * for how a gift order is delivered (the confirmation page); never `repository.ts`.
 */
export { checkGiftDetails, DEMO_GIFT_CODE, type GiftDetails, type GiftDetailsInput, giftFulfilment, giftJobs, seedDemoGift } from './service';
export { detachUserGifts, exportUserGifts, giftDeliveryOfOrder, giftStateOfOrder, holdGiftForRefund, insertGift } from './repository';
export { refundState, type RefundState, requestOrderRefund } from './order-refunds';
export { GIFT_STATES, giftState, giftStateCounts, type GiftListRow, type GiftState, listGifts } from './queries';
