/**
 * What other domains may use of auth: the account as they see it and the address's normal form.
 * Its repository is auth's own (`.dependency-cruiser.cjs`, rule `no-foreign-repository`).
 */
export { findUserRowByEmail, normaliseEmail, type User } from './repository';
