import { PAGE_TYPE } from '~/domain/content/pages.server';
import type { DB } from './index';

/**
 * The privacy page's default text (issue #15). PRIVACY_V1 is what sites seeded before the donor
 * space received, PRIVACY_V2 what they received with it; the current text (`privacyTexts`) adds
 * receipt details and dedications and says the configured retention period. At each start,
 * `upgradePrivacyDefault` puts the current text where the page still holds one of these defaults
 * and nobody edited it, so an admin's change is never overwritten.
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

type Lang = 'fr' | 'en' | 'es';

/**
 * The pieces of the default text, per language: the second default (PRIVACY_V2, kept to recognise
 * it on a site) and the current one share every piece they have in common, so the second stays
 * exactly as sites received it.
 */
const PARTS: Record<Lang, {
  title: string;
  intro: string;
  collect: string;
  giftsV2: string;
  gifts: string;
  receipt: string;
  dedication: string;
  messages: string;
  consent: string;
  newsletter: string;
  cookies: string;
  payments: string;
  howLong: string;
  keptV2: string;
  kept: string;
  purged: (period: string) => string;
  units: [months: string, days: string];
  links: string;
  newsletterKept: string;
  /** The donors register's notes and tags (ADR 038): personal data, in the donor's export. */
  staffNotes: string;
  consentKept: string;
  rights: string;
  erasureV2: string;
  erasure: string;
  cnil: string;
}> = {
  fr: {
    title: 'Politique de confidentialité',
    intro: '<p>La Fondation THV (12 rue de la Paix, 75002 Paris, France) est responsable des données personnelles traitées par ce site. Elle ne les vend ni ne les cède jamais.</p>',
    collect: '<h2>Ce que nous collectons, et pourquoi</h2><ul>',
    giftsV2: '<li><strong>Vos dons</strong> : nom, adresse email, montant, devise, moyen de paiement, date, langue, et pour un don mensuel son état. Pour encaisser le don, vous envoyer le reçu, gérer le don mensuel et tenir la comptabilité (obligation légale).</li>',
    gifts: '<li><strong>Vos dons</strong> : nom, adresse email, montant, devise, moyen de paiement, date, langue, campagne choisie, et pour un don mensuel son état. Pour encaisser le don, vous envoyer le reçu, gérer le don mensuel et tenir la comptabilité (obligation légale).</li>',
    receipt: '<li><strong>Votre reçu fiscal</strong>, si vous en demandez un : nom, adresse postale, et pour une entreprise sa raison sociale et son numéro SIREN. Pour établir le reçu (obligation légale).</li>',
    dedication: '<li><strong>Votre dédicace</strong>, si vous dédiez votre don : le nom de la personne honorée ou à la mémoire de qui vous donnez, votre message et, si vous la donnez, son adresse email, pour la prévenir de votre geste (sans le montant).</li>',
    messages: '<li><strong>Vos messages</strong> envoyés par le formulaire de contact : prénom, nom, email, message. Pour vous répondre.</li>',
    consent: '<li><strong>Votre consentement</strong> à recevoir des nouvelles de la fondation, avec sa date, seulement si vous avez coché la case.</li>',
    newsletter: '<li><strong>Votre abonnement aux lettres d’information</strong>, si vous vous inscrivez (ou cochez la case en donnant) : adresse email, langue, et la preuve de votre consentement (date, page du formulaire, version du texte accepté ; aucune adresse IP). Pour vous envoyer nos lettres, sans aucun suivi d’ouverture ni de clic.</li>',
    cookies: '<li><strong>Les cookies</strong> strictement nécessaires : la langue choisie, et pendant une heure au plus la session de votre espace donateur. Aucun traceur publicitaire ni mesure d’audience.</li></ul>',
    payments: '<p>Les données de paiement (carte, compte) sont saisies chez nos prestataires (Stripe, PayPal, CoinGate, Flutterwave) et ne passent jamais par nos serveurs.</p>',
    howLong: '<h2>Combien de temps</h2><ul>',
    keptV2: '<li>Dons : montants et dates le temps exigé par la loi comptable (10 ans) ; les reçus fiscaux émis sont conservés comme la loi l’exige.</li>',
    kept: '<li>Dons : montants et dates le temps exigé par la loi comptable (10 ans) ; les reçus fiscaux émis sont conservés comme la loi l’exige, avec le nom et l’adresse qu’ils portent, même après un effacement.</li>',
    purged: (period) => `<li>Messages du formulaire de contact et tentatives de don jamais payées : effacés automatiquement au bout de ${period}.</li>`,
    units: ['mois', 'jours'],
    links: '<li>Liens de connexion à l’espace donateur : 30 minutes, une seule utilisation.</li>',
    newsletterKept: '<li>Abonnement aux lettres : jusqu’à votre désabonnement, d’un clic, par le lien de chaque lettre ; la preuve de votre consentement est gardée avec lui.</li>',
    staffNotes: '<p>Notre équipe peut noter sur votre fiche de donateur ce que vous nous avez dit (une préférence, une rencontre) et la classer par étiquettes. Ces notes et étiquettes sont vos données : elles figurent dans votre export et sont effacées avec votre fiche.</p>',
    consentKept: '<li>Consentement aux nouvelles : jusqu’à ce que vous le retiriez.</li></ul>',
    rights:
      '<h2>Vos droits</h2><p>Vous pouvez consulter, télécharger (JSON ou CSV), corriger ou effacer vos données, retirer votre consentement et vous opposer à un traitement. Le plus simple : <a href="/mon-espace">votre espace donateur</a>, où vous vous connectez avec l’email de vos dons, sans mot de passe. Vous pouvez aussi nous écrire via la page <a href="/contact">Contact</a>. ',
    erasureV2: 'À l’effacement, votre nom et votre email sont retirés partout ; les montants et dates des dons restent, anonymes, pour la comptabilité.</p>',
    erasure:
      'À l’effacement, votre nom, votre email, votre adresse postale et vos dédicaces sont retirés partout ; les montants et dates des dons restent, anonymes, pour la comptabilité, et les reçus fiscaux déjà émis sont conservés comme la loi l’exige.</p>',
    cnil: '<p>Si vous estimez que vos droits ne sont pas respectés, vous pouvez saisir la CNIL (www.cnil.fr).</p>',
  },
  en: {
    title: 'Privacy policy',
    intro: '<p>The THV Foundation (12 rue de la Paix, 75002 Paris, France) is responsible for the personal data this site processes. It never sells or transfers it.</p>',
    collect: '<h2>What we collect, and why</h2><ul>',
    giftsV2: '<li><strong>Your gifts</strong>: name, email address, amount, currency, payment method, date, language, and for a monthly gift its state. To collect the gift, send you the receipt, manage the monthly gift and keep the accounts (a legal obligation).</li>',
    gifts: '<li><strong>Your gifts</strong>: name, email address, amount, currency, payment method, date, language, the campaign chosen, and for a monthly gift its state. To collect the gift, send you the receipt, manage the monthly gift and keep the accounts (a legal obligation).</li>',
    receipt: '<li><strong>Your tax receipt</strong>, if you ask for one: name, postal address, and for a company its name and SIREN number. To issue the receipt (a legal obligation).</li>',
    dedication: '<li><strong>Your dedication</strong>, if you dedicate your gift: the name of the person honoured or remembered, your message and, if you give it, their email address, to tell them of your gift (without the amount).</li>',
    messages: '<li><strong>Your messages</strong> sent through the contact form: first name, last name, email, message. To answer you.</li>',
    consent: '<li><strong>Your consent</strong> to receive the foundation’s news, with its date, only if you ticked the box.</li>',
    newsletter: '<li><strong>Your subscription to our letters</strong>, if you subscribe (or tick the box when giving): email address, language, and the proof of your consent (date, page of the form, version of the wording accepted; no IP address). To send you our letters, without any tracking of opens or clicks.</li>',
    cookies: '<li><strong>Strictly necessary cookies</strong>: the chosen language, and for one hour at most the session of your donor space. No advertising tracker or audience measurement.</li></ul>',
    payments: '<p>Payment details (card, account) are entered at our payment providers (Stripe, PayPal, CoinGate, Flutterwave) and never pass through our servers.</p>',
    howLong: '<h2>For how long</h2><ul>',
    keptV2: '<li>Gifts: amounts and dates for as long as accounting law requires (10 years); tax receipts issued are kept as the law requires.</li>',
    kept: '<li>Gifts: amounts and dates for as long as accounting law requires (10 years); tax receipts issued are kept as the law requires, with the name and address they bear, even after an erasure.</li>',
    purged: (period) => `<li>Contact form messages and donation attempts never paid: deleted automatically after ${period}.</li>`,
    units: ['months', 'days'],
    links: '<li>Donor space sign-in links: 30 minutes, single use.</li>',
    newsletterKept: '<li>Subscription to our letters: until you unsubscribe, in one click, with the link in every letter; the proof of your consent is kept with it.</li>',
    staffNotes: '<p>Our team may note on your donor record what you told us (a preference, a meeting) and file it under tags. These notes and tags are your data: they are in your export and are erased with your record.</p>',
    consentKept: '<li>Consent to news: until you withdraw it.</li></ul>',
    rights:
      '<h2>Your rights</h2><p>You may see, download (JSON or CSV), correct or erase your data, withdraw your consent and object to processing. The simplest way: <a href="/mon-espace">your donor space</a>, where you sign in with the email of your gifts, without a password. You may also write to us through the <a href="/contact">Contact</a> page. ',
    erasureV2: 'On erasure, your name and email are removed everywhere; the amounts and dates of gifts stay, anonymous, for the accounts.</p>',
    erasure: 'On erasure, your name, email, postal address and dedications are removed everywhere; the amounts and dates of gifts stay, anonymous, for the accounts, and tax receipts already issued are kept as the law requires.</p>',
    cnil: '<p>If you believe your rights are not respected, you may complain to the CNIL (www.cnil.fr).</p>',
  },
  es: {
    title: 'Política de privacidad',
    intro: '<p>La Fundación THV (12 rue de la Paix, 75002 París, Francia) es responsable de los datos personales que trata este sitio. Nunca los vende ni los cede.</p>',
    collect: '<h2>Qué recogemos y por qué</h2><ul>',
    giftsV2: '<li><strong>Sus donativos</strong>: nombre, correo electrónico, importe, moneda, medio de pago, fecha, idioma y, para un donativo mensual, su estado. Para cobrar el donativo, enviarle el recibo, gestionar el donativo mensual y llevar la contabilidad (obligación legal).</li>',
    gifts: '<li><strong>Sus donativos</strong>: nombre, correo electrónico, importe, moneda, medio de pago, fecha, idioma, campaña elegida y, para un donativo mensual, su estado. Para cobrar el donativo, enviarle el recibo, gestionar el donativo mensual y llevar la contabilidad (obligación legal).</li>',
    receipt: '<li><strong>Su recibo fiscal</strong>, si lo solicita: nombre, dirección postal y, para una empresa, su razón social y su número SIREN. Para emitir el recibo (obligación legal).</li>',
    dedication: '<li><strong>Su dedicatoria</strong>, si dedica su donativo: el nombre de la persona homenajeada o recordada, su mensaje y, si lo indica, su correo electrónico, para avisarle de su gesto (sin el importe).</li>',
    messages: '<li><strong>Sus mensajes</strong> enviados por el formulario de contacto: nombre, apellidos, correo electrónico, mensaje. Para responderle.</li>',
    consent: '<li><strong>Su consentimiento</strong> para recibir noticias de la fundación, con su fecha, solo si marcó la casilla.</li>',
    newsletter: '<li><strong>Su suscripción a nuestras cartas</strong>, si se suscribe (o marca la casilla al donar): correo electrónico, idioma y la prueba de su consentimiento (fecha, página del formulario, versión del texto aceptado; ninguna dirección IP). Para enviarle nuestras cartas, sin ningún seguimiento de aperturas ni de clics.</li>',
    cookies: '<li><strong>Las cookies</strong> estrictamente necesarias: el idioma elegido y, durante una hora como máximo, la sesión de su espacio de donante. Ningún rastreador publicitario ni medición de audiencia.</li></ul>',
    payments: '<p>Los datos de pago (tarjeta, cuenta) se introducen en nuestros proveedores (Stripe, PayPal, CoinGate, Flutterwave) y nunca pasan por nuestros servidores.</p>',
    howLong: '<h2>Durante cuánto tiempo</h2><ul>',
    keptV2: '<li>Donativos: importes y fechas el tiempo que exige la ley contable (10 años); los recibos fiscales emitidos se conservan como exige la ley.</li>',
    kept: '<li>Donativos: importes y fechas el tiempo que exige la ley contable (10 años); los recibos fiscales emitidos se conservan como exige la ley, con el nombre y la dirección que figuran en ellos, incluso tras un borrado.</li>',
    purged: (period) => `<li>Mensajes del formulario de contacto e intentos de donativo nunca pagados: se borran automáticamente a los ${period}.</li>`,
    units: ['meses', 'días'],
    links: '<li>Enlaces de acceso al espacio de donante: 30 minutos, un solo uso.</li>',
    newsletterKept: '<li>Suscripción a nuestras cartas: hasta que se dé de baja, con un clic, mediante el enlace de cada carta; la prueba de su consentimiento se guarda con ella.</li>',
    staffNotes: '<p>Nuestro equipo puede anotar en su ficha de donante lo que nos ha dicho (una preferencia, un encuentro) y clasificarla con etiquetas. Estas notas y etiquetas son sus datos: figuran en su exportación y se suprimen con su ficha.</p>',
    consentKept: '<li>Consentimiento a las noticias: hasta que lo retire.</li></ul>',
    rights:
      '<h2>Sus derechos</h2><p>Puede consultar, descargar (JSON o CSV), rectificar o borrar sus datos, retirar su consentimiento y oponerse a un tratamiento. Lo más sencillo: <a href="/mon-espace">su espacio de donante</a>, donde accede con el correo de sus donativos, sin contraseña. También puede escribirnos desde la página de <a href="/contact">Contacto</a>. ',
    erasureV2: 'Al borrarlos, su nombre y su correo se suprimen en todas partes; los importes y fechas de los donativos permanecen, anónimos, para la contabilidad.</p>',
    erasure:
      'Al borrarlos, su nombre, su correo, su dirección postal y sus dedicatorias se suprimen en todas partes; los importes y fechas de los donativos permanecen, anónimos, para la contabilidad, y los recibos fiscales ya emitidos se conservan como exige la ley.</p>',
    cnil: '<p>Si considera que no se respetan sus derechos, puede reclamar ante la CNIL (www.cnil.fr).</p>',
  },
};

const LANGS = Object.keys(PARTS) as Lang[];
/** The retention period before this text rendered it (DATA_RETENTION_DAYS' default). */
const V2_RETENTION_DAYS = 730;

/** The retention period as the page says it: in months for whole years (730 days: "24 mois"), in days otherwise. */
export function retentionPeriod(days: number, lang: Lang): string {
  const [months, daysWord] = PARTS[lang].units;
  return days % 365 === 0 ? `${(days / 365) * 12} ${months}` : `${days} ${daysWord}`;
}

const byLang = (content: (lang: Lang) => string[]) => Object.fromEntries(LANGS.map((l) => [l, { title: PARTS[l].title, content: content(l).join('') }])) as Record<Lang, { title: string; content: string }>;

/** The second default (the donor space's), as sites received it. */
export const PRIVACY_V2 = byLang((l) => {
  const p = PARTS[l];
  return [p.intro, p.collect, p.giftsV2, p.messages, p.consent, p.cookies, p.payments, p.howLong, p.keptV2, p.purged(retentionPeriod(V2_RETENTION_DAYS, l)), p.links, p.consentKept, p.rights, p.erasureV2, p.cnil];
});

/**
 * The current default for a site that keeps contact messages and unpaid attempts `retentionDays`
 * (DATA_RETENTION_DAYS): what they give for a receipt and a dedication, what erasure removes and what
 * the law keeps.
 */
export function privacyTexts(retentionDays: number) {
  return byLang((l) => {
    const p = PARTS[l];
    return [p.intro, p.collect, p.gifts, p.receipt, p.dedication, p.messages, p.consent, p.newsletter, p.cookies, p.payments, p.howLong, p.kept, p.purged(retentionPeriod(retentionDays, l)), p.links, p.newsletterKept, p.consentKept, p.rights, p.staffNotes, p.erasure, p.cnil];
  });
}

/** The default before the donors register's notes (ADR 038) added their paragraph, kept to recognise it on a site. */
export function privacyTextsBeforeNotes(retentionDays: number) {
  return byLang((l) => {
    const p = PARTS[l];
    return [p.intro, p.collect, p.gifts, p.receipt, p.dedication, p.messages, p.consent, p.newsletter, p.cookies, p.payments, p.howLong, p.kept, p.purged(retentionPeriod(retentionDays, l)), p.links, p.newsletterKept, p.consentKept, p.rights, p.erasure, p.cnil];
  });
}

/** The default before the news letters (ADR 022) added their paragraphs, kept to recognise it on a site. */
export function privacyTextsBeforeLetters(retentionDays: number) {
  return byLang((l) => {
    const p = PARTS[l];
    return [p.intro, p.collect, p.gifts, p.receipt, p.dedication, p.messages, p.consent, p.cookies, p.payments, p.howLong, p.kept, p.purged(retentionPeriod(retentionDays, l)), p.links, p.consentKept, p.rights, p.erasure, p.cnil];
  });
}

type Texts = Record<string, Record<string, string>>;

const same = (a: Texts, b: Texts) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.keys(b).every((l) => a[l] && Object.keys(a[l]).length === Object.keys(b[l]).length && Object.keys(b[l]).every((k) => a[l][k] === b[l][k]));

/** The retention period a page holding the current default was rendered for, or null when it holds something else. */
function renderedFor(texts: Texts): number | null {
  const m = /au bout de (\d+) (mois|jours)\.<\/li>/.exec(texts.fr?.content ?? '');
  if (!m) return null;
  const days = m[2] === 'mois' ? (Number(m[1]) / 12) * 365 : Number(m[1]);
  return [privacyTexts, privacyTextsBeforeNotes, privacyTextsBeforeLetters].some((v) => same(texts, v(days))) ? days : null;
}

/**
 * Whether the page holds a default this code wrote, at a version only the seed or this upgrade
 * gives it: the first at 1; the second as seeded (1) or upgraded from the first (2); the current
 * one for another retention period at any version.
 */
function holdsFormerDefault(texts: Texts, version: number): boolean {
  if (same(texts, PRIVACY_V1)) return version === 1;
  if (same(texts, PRIVACY_V2)) return version <= 2;
  return renderedFor(texts) !== null;
}

/**
 * Replaces an earlier default of the privacy page by the current one for `retentionDays`, where
 * nobody edited it: the page still holds a default exactly, and has no revision (every save,
 * publication or restore in the back office records one). An admin's text is never touched.
 */
export async function upgradePrivacyDefault(db: DB, retentionDays: number): Promise<boolean> {
  const row = await db.selectFrom('page_content').select(['texts', 'version']).where('page_id', '=', 'privacy').executeTakeFirst();
  if (!row) return false;
  let texts: Texts;
  try {
    texts = JSON.parse(row.texts);
  } catch {
    return false;
  }
  const wanted = privacyTexts(retentionDays);
  if (same(texts, wanted) || !holdsFormerDefault(texts, row.version)) return false;
  const saved = await db.selectFrom('revisions').select('id').where('entity_type', '=', PAGE_TYPE).where('entity_id', '=', 'privacy').limit(1).executeTakeFirst();
  if (saved) return false;
  const r = await db
    .updateTable('page_content')
    .set({ texts: JSON.stringify(wanted), version: row.version + 1, updated_at: new Date().toISOString() })
    .where('page_id', '=', 'privacy')
    .where('version', '=', row.version)
    .where('texts', '=', row.texts)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
