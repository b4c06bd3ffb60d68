import type { DB } from './index';

/**
 * The privacy page's default text (issue #15). PRIVACY_V1 is what sites seeded before it received;
 * `upgradePrivacyDefault` replaces V1 by the current text only where nobody edited the page (the
 * stored texts are still exactly V1 at version 1), so an admin's change is never overwritten.
 */
export const PRIVACY_V1 = {
  fr: {
    title: 'Politique de confidentialité',
    content:
      '<p>La Fondation THV ne collecte que les données nécessaires pour répondre à vos messages et traiter vos dons : nom, email, téléphone et montant du don.</p><p>Ces données ne sont jamais vendues ni cédées. Vous pouvez demander à les consulter, les corriger ou les supprimer en nous écrivant.</p><p>Le site n’utilise aucun traceur publicitaire ; un seul cookie mémorise la langue choisie.</p>',
  },
  en: {
    title: 'Privacy policy',
    content:
      '<p>The THV Foundation only collects the data needed to answer your messages and process your donations: name, email, phone and donation amount.</p><p>This data is never sold or transferred. You may ask to see, correct or delete it by writing to us.</p><p>The site uses no advertising tracker; a single cookie remembers the chosen language.</p>',
  },
  es: {
    title: 'Política de privacidad',
    content:
      '<p>La Fundación THV solo recoge los datos necesarios para responder a sus mensajes y tramitar sus donativos: nombre, correo electrónico, teléfono e importe del donativo.</p><p>Estos datos nunca se venden ni se ceden. Puede solicitar consultarlos, corregirlos o suprimirlos escribiéndonos.</p><p>El sitio no utiliza ningún rastreador publicitario; una única cookie recuerda el idioma elegido.</p>',
  },
};

const html = (parts: string[]) => parts.join('');

export const PRIVACY_TEXTS = {
  fr: {
    title: 'Politique de confidentialité',
    content: html([
      '<p>La Fondation THV (12 rue de la Paix, 75002 Paris, France) est responsable des données personnelles traitées par ce site. Elle ne les vend ni ne les cède jamais.</p>',
      '<h2>Ce que nous collectons, et pourquoi</h2><ul>',
      '<li><strong>Vos dons</strong> : nom, adresse email, montant, devise, moyen de paiement, date, langue, et pour un don mensuel son état. Pour encaisser le don, vous envoyer le reçu, gérer le don mensuel et tenir la comptabilité (obligation légale).</li>',
      '<li><strong>Vos messages</strong> envoyés par le formulaire de contact : prénom, nom, email, message. Pour vous répondre.</li>',
      '<li><strong>Votre consentement</strong> à recevoir des nouvelles de la fondation, avec sa date, seulement si vous avez coché la case.</li>',
      '<li><strong>Les cookies</strong> strictement nécessaires : la langue choisie, et pendant une heure au plus la session de votre espace donateur. Aucun traceur publicitaire ni mesure d’audience.</li></ul>',
      '<p>Les données de paiement (carte, compte) sont saisies chez nos prestataires (Stripe, PayPal, CoinGate, Flutterwave) et ne passent jamais par nos serveurs.</p>',
      '<h2>Combien de temps</h2><ul>',
      '<li>Dons : montants et dates le temps exigé par la loi comptable (10 ans) ; les reçus fiscaux émis sont conservés comme la loi l’exige.</li>',
      '<li>Messages du formulaire de contact et tentatives de don jamais payées : effacés automatiquement au bout de 24 mois.</li>',
      '<li>Liens de connexion à l’espace donateur : 30 minutes, une seule utilisation.</li>',
      '<li>Consentement aux nouvelles : jusqu’à ce que vous le retiriez.</li></ul>',
      '<h2>Vos droits</h2>',
      '<p>Vous pouvez consulter, télécharger (JSON ou CSV), corriger ou effacer vos données, retirer votre consentement et vous opposer à un traitement. Le plus simple : <a href="/mon-espace">votre espace donateur</a>, où vous vous connectez avec l’email de vos dons, sans mot de passe. Vous pouvez aussi nous écrire via la page <a href="/contact">Contact</a>. À l’effacement, votre nom et votre email sont retirés partout ; les montants et dates des dons restent, anonymes, pour la comptabilité.</p>',
      '<p>Si vous estimez que vos droits ne sont pas respectés, vous pouvez saisir la CNIL (www.cnil.fr).</p>',
    ]),
  },
  en: {
    title: 'Privacy policy',
    content: html([
      '<p>The THV Foundation (12 rue de la Paix, 75002 Paris, France) is responsible for the personal data this site processes. It never sells or transfers it.</p>',
      '<h2>What we collect, and why</h2><ul>',
      '<li><strong>Your gifts</strong>: name, email address, amount, currency, payment method, date, language, and for a monthly gift its state. To collect the gift, send you the receipt, manage the monthly gift and keep the accounts (a legal obligation).</li>',
      '<li><strong>Your messages</strong> sent through the contact form: first name, last name, email, message. To answer you.</li>',
      '<li><strong>Your consent</strong> to receive the foundation’s news, with its date, only if you ticked the box.</li>',
      '<li><strong>Strictly necessary cookies</strong>: the chosen language, and for one hour at most the session of your donor space. No advertising tracker or audience measurement.</li></ul>',
      '<p>Payment details (card, account) are entered at our payment providers (Stripe, PayPal, CoinGate, Flutterwave) and never pass through our servers.</p>',
      '<h2>For how long</h2><ul>',
      '<li>Gifts: amounts and dates for as long as accounting law requires (10 years); tax receipts issued are kept as the law requires.</li>',
      '<li>Contact form messages and donation attempts never paid: deleted automatically after 24 months.</li>',
      '<li>Donor space sign-in links: 30 minutes, single use.</li>',
      '<li>Consent to news: until you withdraw it.</li></ul>',
      '<h2>Your rights</h2>',
      '<p>You may see, download (JSON or CSV), correct or erase your data, withdraw your consent and object to processing. The simplest way: <a href="/mon-espace">your donor space</a>, where you sign in with the email of your gifts, without a password. You may also write to us through the <a href="/contact">Contact</a> page. On erasure, your name and email are removed everywhere; the amounts and dates of gifts stay, anonymous, for the accounts.</p>',
      '<p>If you believe your rights are not respected, you may complain to the CNIL (www.cnil.fr).</p>',
    ]),
  },
  es: {
    title: 'Política de privacidad',
    content: html([
      '<p>La Fundación THV (12 rue de la Paix, 75002 París, Francia) es responsable de los datos personales que trata este sitio. Nunca los vende ni los cede.</p>',
      '<h2>Qué recogemos y por qué</h2><ul>',
      '<li><strong>Sus donativos</strong>: nombre, correo electrónico, importe, moneda, medio de pago, fecha, idioma y, para un donativo mensual, su estado. Para cobrar el donativo, enviarle el recibo, gestionar el donativo mensual y llevar la contabilidad (obligación legal).</li>',
      '<li><strong>Sus mensajes</strong> enviados por el formulario de contacto: nombre, apellidos, correo electrónico, mensaje. Para responderle.</li>',
      '<li><strong>Su consentimiento</strong> para recibir noticias de la fundación, con su fecha, solo si marcó la casilla.</li>',
      '<li><strong>Las cookies</strong> estrictamente necesarias: el idioma elegido y, durante una hora como máximo, la sesión de su espacio de donante. Ningún rastreador publicitario ni medición de audiencia.</li></ul>',
      '<p>Los datos de pago (tarjeta, cuenta) se introducen en nuestros proveedores (Stripe, PayPal, CoinGate, Flutterwave) y nunca pasan por nuestros servidores.</p>',
      '<h2>Durante cuánto tiempo</h2><ul>',
      '<li>Donativos: importes y fechas el tiempo que exige la ley contable (10 años); los recibos fiscales emitidos se conservan como exige la ley.</li>',
      '<li>Mensajes del formulario de contacto e intentos de donativo nunca pagados: se borran automáticamente a los 24 meses.</li>',
      '<li>Enlaces de acceso al espacio de donante: 30 minutos, un solo uso.</li>',
      '<li>Consentimiento a las noticias: hasta que lo retire.</li></ul>',
      '<h2>Sus derechos</h2>',
      '<p>Puede consultar, descargar (JSON o CSV), rectificar o borrar sus datos, retirar su consentimiento y oponerse a un tratamiento. Lo más sencillo: <a href="/mon-espace">su espacio de donante</a>, donde accede con el correo de sus donativos, sin contraseña. También puede escribirnos desde la página de <a href="/contact">Contacto</a>. Al borrarlos, su nombre y su correo se suprimen en todas partes; los importes y fechas de los donativos permanecen, anónimos, para la contabilidad.</p>',
      '<p>Si considera que no se respetan sus derechos, puede reclamar ante la CNIL (www.cnil.fr).</p>',
    ]),
  },
};

type Texts = Record<string, Record<string, string>>;

const same = (a: Texts, b: Texts) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.keys(b).every((l) => a[l] && Object.keys(a[l]).length === Object.keys(b[l]).length && Object.keys(b[l]).every((k) => a[l][k] === b[l][k]));

/** Replaces the privacy page's first default by the current one, where nobody edited it. */
export async function upgradePrivacyDefault(db: DB): Promise<boolean> {
  const row = await db.selectFrom('page_content').select(['texts', 'version']).where('page_id', '=', 'privacy').executeTakeFirst();
  if (!row || row.version !== 1) return false;
  let texts: Texts;
  try {
    texts = JSON.parse(row.texts);
  } catch {
    return false;
  }
  if (!same(texts, PRIVACY_V1)) return false;
  const r = await db
    .updateTable('page_content')
    .set({ texts: JSON.stringify(PRIVACY_TEXTS), version: 2, updated_at: new Date().toISOString() })
    .where('page_id', '=', 'privacy')
    .where('version', '=', 1)
    .where('texts', '=', row.texts)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
