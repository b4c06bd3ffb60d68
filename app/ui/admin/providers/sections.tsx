import { useState } from 'react';
import { MOBILE_MONEY_CURRENCIES } from '~/domain/donations/money';
import { STRIPE_METHOD_LABELS, STRIPE_METHOD_TYPES, type DonationProduct, type GivingSettings, type PublicPaymentSettings } from '~/domain/donations/providers/settings';
import { Field, dangerButton, inputClass, secondaryButton } from '~/ui/admin/Field';
import { useHydrated } from '~/ui/admin/hooks';
import { ModeSelect, SecretField, Section } from '~/ui/admin/payments';

/**
 * Each payment provider's section of the payment settings screen (app/routes/payments/admin-settings.tsx):
 * the keys, modes and options staff copy from the provider's dashboard, in the provider's own
 * words. Provider knowledge lives in providers/ folders (ADR 019); the screen lays these out.
 */
type Props = { s: PublicPaymentSettings; errors: Record<string, string> };

function StripeSection({ s, errors }: Props) {
  const hydrated = useHydrated();
  const [stripeOn, setStripeOn] = useState(s.stripe.enabled);
  const [products, setProducts] = useState<DonationProduct[]>(s.stripe.products);
  const update = (i: number, patch: Partial<DonationProduct>) => setProducts((ps) => ps.map((p, n) => (n === i ? { ...p, ...patch } : p)));
  return (
    <Section id="stripe" title="Stripe (carte bancaire)" enabled={stripeOn} setEnabled={setStripeOn} hint="Créez vos produits et leurs prix dans le tableau de bord Stripe, puis copiez ici les identifiants de prix (price_…).">
      <input type="hidden" name="stripe.productsSent" value="1" />
      <Field name="stripe.publishableKey" label="Clé publiable" defaultValue={s.stripe.publishableKey} error={errors['stripe.publishableKey']} autoComplete="off" />
      <SecretField field="stripe.secretKey" label="Clé secrète" isSet={s.stripe.secretKeySet} error={errors['secret.stripe.secretKey']} />
      <SecretField field="stripe.webhookSecret" label="Secret de signature du webhook" isSet={s.stripe.webhookSecretSet} error={errors['secret.stripe.webhookSecret']} hint="Point de terminaison : /webhooks/stripe." />
      <div>
        <h3 className="text-lg font-semibold text-gray-900">Produits de don</h3>
        {products.length === 0 && <p className="mt-2 text-sm text-gray-700">Aucun produit.</p>}
        <ul className="mt-3 space-y-4">
          {products.map((p, i) => (
            <li key={p.id} className="grid gap-3 rounded-md border border-gray-200 p-4 sm:grid-cols-[2fr_1fr_2fr_auto_auto] sm:items-end">
              <input type="hidden" name={`stripe.products.${i}.id`} value={p.id} />
              <Field id={`product-${p.id}-name`} name={`stripe.products.${i}.name`} label="Nom" value={p.name} onChange={(e) => update(i, { name: e.target.value })} error={errors[`stripe.products.${i}.name`]} />
              <Field id={`product-${p.id}-amount`} name={`stripe.products.${i}.amount`} label="Montant (€)" type="number" min="0.01" step="0.01" value={p.amount} onChange={(e) => update(i, { amount: e.target.value })} error={errors[`stripe.products.${i}.amount`]} />
              <Field id={`product-${p.id}-price`} name={`stripe.products.${i}.priceId`} label="ID du prix" value={p.priceId} onChange={(e) => update(i, { priceId: e.target.value })} error={errors[`stripe.products.${i}.priceId`]} />
              <label className="inline-flex min-h-11 items-center gap-2">
                <input type="checkbox" role="switch" name={`stripe.products.${i}.active`} checked={p.active} onChange={(e) => update(i, { active: e.target.checked })} className="h-5 w-5" /> Actif
              </label>
              <button type="button" className={dangerButton} onClick={() => setProducts((ps) => ps.filter((_, n) => n !== i))} aria-label={`Supprimer le produit ${p.name || i + 1}`}>
                Supprimer
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className={`${secondaryButton} mt-3`} disabled={!stripeOn || !hydrated} onClick={() => setProducts((ps) => [...ps, { id: String(Date.now()), name: '', amount: '', priceId: '', active: true }])}>
          Ajouter un produit
        </button>
      </div>
    </Section>
  );
}

function PayPalSection({ s, errors }: Props) {
  const [paypalOn, setPaypalOn] = useState(s.paypal.enabled);
  return (
    <Section id="paypal" title="PayPal" enabled={paypalOn} setEnabled={setPaypalOn}>
      <Field name="paypal.clientId" label="Client ID" defaultValue={s.paypal.clientId} error={errors['paypal.clientId']} autoComplete="off" />
      <SecretField field="paypal.clientSecret" label="Client secret" isSet={s.paypal.clientSecretSet} />
      <Field name="paypal.webhookId" label="ID du webhook" defaultValue={s.paypal.webhookId} error={errors['paypal.webhookId']} autoComplete="off" hint="Point de terminaison : /webhooks/paypal." />
      <ModeSelect name="paypal.mode" value={s.paypal.mode} />
    </Section>
  );
}

function CoinGateSection({ s }: Props) {
  const [coingateOn, setCoingateOn] = useState(s.coingate.enabled);
  return (
    <Section id="coingate" title="CoinGate (crypto-monnaie)" enabled={coingateOn} setEnabled={setCoingateOn}>
      <SecretField field="coingate.authToken" label="Jeton d’authentification (auth token)" isSet={s.coingate.authTokenSet} />
      <ModeSelect name="coingate.mode" value={s.coingate.mode} />
    </Section>
  );
}

function MobileMoneySection({ s, errors }: Props) {
  const [mobileOn, setMobileOn] = useState(s.mobileMoney.enabled);
  const [integration, setIntegration] = useState(s.mobileMoney.integrationType);
  return (
    <Section id="mobileMoney" title="Mobile Money" enabled={mobileOn} setEnabled={setMobileOn}>
      <div role="radiogroup" aria-label="Type d’intégration" className="inline-flex rounded-md border border-gray-300 p-1">
        {(['api', 'link'] as const).map((v) => (
          <label key={v} className={`cursor-pointer rounded px-4 py-2 font-medium ${integration === v ? 'bg-brand-700 text-white' : 'text-gray-900'}`}>
            <input type="radio" name="mobileMoney.integrationType" value={v} checked={integration === v} onChange={() => setIntegration(v)} className="sr-only" />
            {v === 'api' ? 'Intégration API' : 'Lien de paiement'}
          </label>
        ))}
      </div>
      <div hidden={integration !== 'api'} className="space-y-4">
        <div>
          <label htmlFor="mobileMoney.provider" className="block text-sm font-medium text-gray-900">
            Fournisseur
          </label>
          <select id="mobileMoney.provider" name="mobileMoney.provider" defaultValue="flutterwave" className={inputClass(false)}>
            <option value="flutterwave">Flutterwave</option>
          </select>
        </div>
        <Field name="mobileMoney.publicKey" label="Clé publique" defaultValue={s.mobileMoney.publicKey} error={errors['mobileMoney.publicKey']} autoComplete="off" />
        <SecretField field="mobileMoney.secretKey" label="Clé secrète" isSet={s.mobileMoney.secretKeySet} hint="Utilisée pour vérifier chaque transaction." />
        <SecretField field="mobileMoney.secretHash" label="Hash secret du webhook (verif-hash)" isSet={s.mobileMoney.secretHashSet} hint="Point de terminaison : /webhooks/flutterwave." />
        <div>
          <label htmlFor="mobileMoney.currency" className="block text-sm font-medium text-gray-900">
            Devise débitée
          </label>
          <select id="mobileMoney.currency" name="mobileMoney.currency" defaultValue={s.mobileMoney.currency} className={inputClass(false)} aria-describedby="mobileMoney.currency-hint">
            {MOBILE_MONEY_CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <p id="mobileMoney.currency-hint" className="mt-1 text-sm text-gray-600">
            XOF et XAF : montant converti depuis l’euro à la parité fixe 1 € = 655,957.
          </p>
        </div>
      </div>
      <div hidden={integration !== 'link'}>
        <Field name="mobileMoney.paymentUrl" label="URL du lien de paiement" type="url" defaultValue={s.mobileMoney.paymentUrl} error={errors['mobileMoney.paymentUrl']} hint="Les donateurs sont redirigés vers ce lien pour faire leur don." />
      </div>
    </Section>
  );
}

/** The providers' sections, in the screen's order. */
export function ProviderSections(props: Props) {
  return (
    <>
      <StripeSection {...props} />
      <PayPalSection {...props} />
      <CoinGateSection {...props} />
      <MobileMoneySection {...props} />
    </>
  );
}

/** The donate form's card checkout: which payment method types Stripe Checkout offers (campaigns, #16). */
export function CheckoutMethods({ giving }: { giving: GivingSettings | undefined }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-gray-900">Moyens proposés par Stripe Checkout</legend>
      <p className="mt-1 text-sm text-gray-600">Aucun coché : Stripe propose les moyens activés dans votre tableau de bord.</p>
      <div className="mt-2 space-y-2">
        {STRIPE_METHOD_TYPES.map((m, i) => (
          <label key={m} className="flex items-center gap-2 text-gray-900">
            <input type="checkbox" name={`giving.stripeMethodTypes.${i}`} value={m} defaultChecked={giving?.stripeMethodTypes.includes(m)} className="h-4 w-4" /> {STRIPE_METHOD_LABELS[m]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
