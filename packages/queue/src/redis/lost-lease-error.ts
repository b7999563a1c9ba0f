/**
 * BullMQ's answers when a lock is no longer ours: the item was re-delivered after its lease
 * expired, removed, or taken back for recovery. Settling such a lease is a no-op.
 */
const LOST_LEASE = /missing (key|lock)|lock mismatch|not in the active state|lock is not owned/i;

export function isLostLeaseError(error: unknown): boolean {
  return error instanceof Error && LOST_LEASE.test(error.message);
}
