import type { DonationStatus } from '../status';

/**
 * Every provider status mapped to the ledger's, in one place. `null` means "nothing final yet":
 * the attempt stays as it is.
 */
export function stripeSessionStatus(session: { status?: string | null; payment_status?: string | null }): DonationStatus | null {
  if (session.status === 'expired') return 'cancelled';
  if (session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')) return 'succeeded';
  return null;
}

export function payPalCaptureStatus(status: string | undefined): DonationStatus | null {
  switch (status) {
    case 'COMPLETED':
      return 'succeeded';
    case 'DECLINED':
    case 'FAILED':
      return 'failed';
    case 'REFUNDED':
      return 'refunded';
    default:
      return null;
  }
}

export function coinGateStatus(status: string | undefined): DonationStatus | null {
  switch (status) {
    case 'paid':
      return 'succeeded';
    case 'invalid':
      return 'failed';
    case 'expired':
    case 'canceled':
      return 'cancelled';
    case 'refunded':
      return 'refunded';
    default:
      return null;
  }
}

export function flutterwaveStatus(status: string | undefined): DonationStatus | null {
  switch (status) {
    case 'successful':
      return 'succeeded';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    default:
      return null;
  }
}
