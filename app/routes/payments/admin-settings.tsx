import { useState } from 'react';
import { Form, data } from 'react-router';
import type { Route } from './+types/admin-settings';
import { MOBILE_MONEY_CURRENCIES } from '~/domain/donations/money';
import { PAYMENT_SETTINGS_SAVED, type DonationProduct, type PublicPaymentSettings } from '~/domain/donations/payment-settings';
import { getPaymentSettings, readPostedPaymentSettings, toPublic, updatePaymentSettings } from '~/domain/donations/payment-settings.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { fixFieldsToast, formError } from '~/lib/form-errors.server';
import { runtime } from '~/lib/runtime.server';
import { Field, Notice, inputClass, secondaryButton, dangerButton } from '~/ui/admin/Field';
import { useHydrated, useToast } from '~/ui/admin/hooks';
import { GivingSection, ModeSelect, SaveButton, SecretField, Section } from '~/ui/admin/payments';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'payments' });
  const s = await getPaymentSettings(runtime().db, runtime().secret);
  return { settings: toPublic(s), version: s.version };
}

const CONFLICT = 'Ces paramètres ont été modifiés entre-temps par quelqu’un d’autre. Rechargez la page pour voir la dernière version.';

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'payments' });
  const rt = runtime();
  const form = await request.formData();
  // The merge over what is saved and the secrets' rules: readPostedPaymentSettings (the donations area).
  const posted = readPostedPaymentSettings(form, await getPaymentSettings(rt.db, rt.secret));
  if (!posted.ok) return formError({ errors: posted.errors, toast: posted.refused === 'fields' ? fixFieldsToast('Paramètres non enregistrés') : null });
  const saved = await updatePaymentSettings(rt.db, rt.secret, actorOf(me), posted, Number(form.get('version')));
  if (!saved.ok) return data({ errors: { form: CONFLICT }, toast: null }, { status: 409 });
  return { errors: {} as Record<string, string>, toast: PAYMENT_SETTINGS_SAVED };
}

export const meta: Route.MetaFunction = () => [{ title: 'Paramètres de Paiement | Administration' }, { name: 'robots', content: 'noindex' }];

export default function PaymentSettingsScreen({ loaderData, actionData }: Route.ComponentProps) {
  const s: PublicPaymentSettings = loaderData.settings;
  const hydrated = useHydrated();
  useToast(actionData?.toast);
  const errors: Record<string, string> = actionData?.errors ?? {};
  const [stripeOn, setStripeOn] = useState(s.stripe.enabled);
  const [paypalOn, setPaypalOn] = useState(s.paypal.enabled);
  const [coingateOn, setCoingateOn] = useState(s.coingate.enabled);
  const [mobileOn, setMobileOn] = useState(s.mobileMoney.enabled);
  const [integration, setIntegration] = useState(s.mobileMoney.integrationType);
  const [products, setProducts] = useState<DonationProduct[]>(s.stripe.products);
  const update = (i: number, patch: Partial<DonationProduct>) => setProducts((ps) => ps.map((p, n) => (n === i ? { ...p, ...patch } : p)));

  return (
    <Form method="post" key={loaderData.version} className="space-y-6">
      <input type="hidden" name="version" value={loaderData.version} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Paramètres de Paiement</h1>
        <SaveButton />
      </div>
      {!hydrated && actionData?.toast && (
        <Notice tone={actionData.toast.variant === 'success' ? 'success' : 'error'} title={actionData.toast.title}>
          {actionData.toast.description}
        </Notice>
      )}
      {errors.form && <Notice tone="error">{errors.form}</Notice>}

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

      <Section id="paypal" title="PayPal" enabled={paypalOn} setEnabled={setPaypalOn}>
        <Field name="paypal.clientId" label="Client ID" defaultValue={s.paypal.clientId} error={errors['paypal.clientId']} autoComplete="off" />
        <SecretField field="paypal.clientSecret" label="Client secret" isSet={s.paypal.clientSecretSet} />
        <Field name="paypal.webhookId" label="ID du webhook" defaultValue={s.paypal.webhookId} error={errors['paypal.webhookId']} autoComplete="off" hint="Point de terminaison : /webhooks/paypal." />
        <ModeSelect name="paypal.mode" value={s.paypal.mode} />
      </Section>

      <Section id="coingate" title="CoinGate (crypto-monnaie)" enabled={coingateOn} setEnabled={setCoingateOn}>
        <SecretField field="coingate.authToken" label="Jeton d’authentification (auth token)" isSet={s.coingate.authTokenSet} />
        <ModeSelect name="coingate.mode" value={s.coingate.mode} />
      </Section>

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

      <GivingSection giving={s.giving} errors={errors} />

      <div className="flex justify-end">
        <SaveButton />
      </div>
    </Form>
  );
}
