import { Form } from 'react-router';
import { Field, secondaryButton } from './Field';

/**
 * Taking back one payment recorded by hand (dues on a member's page, a gift received by post or at
 * the bank): a reason, then the button — closed by default, since it cancels a receipt.
 */
export function VoidEntry({ intent, paymentId, label, button, error, width = 'w-64' }: { intent: string; paymentId: string; label: string; button: string; error?: string; width?: string }) {
  return (
    <details className="text-sm" open={Boolean(error)}>
      <summary className="cursor-pointer font-medium text-red-800 underline">Annuler la saisie…</summary>
      <Form method="post" className={`mt-2 ${width} space-y-2`} noValidate>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="payment_id" value={paymentId} />
        <Field name="reason" id={`void-reason-${paymentId}`} label={label} error={error} required maxLength={200} />
        <button type="submit" className={secondaryButton}>{button}</button>
      </Form>
    </details>
  );
}
