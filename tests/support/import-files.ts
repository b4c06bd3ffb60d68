import iconv from 'iconv-lite';

/**
 * Files made as the tools write them (issue 43): HelloAsso's payments export (`;`, UTF-8 with a
 * BOM, or Windows-1252 once re-saved by Excel, dates `dd/mm/yyyy hh:mm`, amounts `85,00`), GiveWP's
 * donations export (`,`), and a spreadsheet of one's own.
 */
export const HELLOASSO_HEADER =
  'Référence commande;Référence paiement;Montant total;Date du paiement;Statut du paiement;Versé;Date du versement;Nom payeur;Prénom payeur;Email payeur;Campagne;Type de campagne;Montant du tarif;Montant des options;Don supplémentaire;Montant du code promo;Moyen de paiement';

export const helloassoLine = (o: { order: string; ref: string; amount: string; date: string; status: string; last: string; first: string; email: string; campaign?: string; means?: string }) =>
  [o.order, o.ref, o.amount, o.date, o.status, 'Oui', '', o.last, o.first, o.email, o.campaign ?? 'Dons libres', 'Donation', o.amount, '0,00', '0,00', '0,00', o.means ?? 'Carte bancaire']
    .map((c) => (/[;"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c))
    .join(';');

/** Seven lines: four gifts (one refunded, one refused), a quoted newline, an impossible date, an unreadable amount. */
export function helloassoPayments(eol = '\r\n'): string {
  return [
    HELLOASSO_HEADER,
    helloassoLine({ order: 'C1001', ref: 'P2001', amount: '85,00', date: '14/03/2024 10:12', status: 'Autorisé', last: 'Martin', first: 'Jeanne', email: 'jeanne.martin@example.org' }),
    helloassoLine({ order: 'C1002', ref: 'P2002', amount: '1 200,50', date: '02/04/2024 18:40', status: 'Autorisé', last: 'Diallo', first: 'Awa', email: 'awa@example.org', campaign: 'Puits\nau Sénégal', means: 'Chèque' }),
    helloassoLine({ order: 'C1003', ref: 'P2003', amount: '30,00', date: '05/05/2024 09:00', status: 'Remboursé', last: 'Lefèvre', first: 'Éloïse', email: 'eloise@example.org' }),
    helloassoLine({ order: 'C1004', ref: 'P2004', amount: '20,00', date: '06/05/2024 09:00', status: 'Refusé', last: 'Noël', first: 'Gaël', email: 'gael@example.org' }),
    helloassoLine({ order: 'C1005', ref: 'P2005', amount: '40,00', date: '31/02/2024 09:00', status: 'Autorisé', last: 'Faux', first: 'Jour', email: 'faux@example.org' }),
    helloassoLine({ order: 'C1006', ref: 'P2006', amount: '4O,00', date: '01/06/2024 09:00', status: 'Autorisé', last: 'Faux', first: 'Montant', email: 'faux2@example.org' }),
    '',
  ].join(eol);
}

export const utf8Bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
export const windows1252 = (text: string) => iconv.encode(text, 'windows-1252');

/** GiveWP's donations export (its documented columns), comma-separated, ISO dates. */
export function givewpDonations(): string {
  return [
    'Donation ID,First Name,Last Name,Email Address,Company Name,Address 1,Address 2,City,State,Zip,Country,Donation Total,Currency Code,Donation Status,Payment Gateway,Form Title,Donation Date,Donation Time',
    '501,Paul,Durand,paul@example.org,,"12 rue des Lilas","Bât. B",Lyon,,69003,FR,50.00,EUR,Complete,Stripe,Dons libres,2023-12-24,10:00',
    '502,Marie,Curie,marie@example.org,,"1 place du Panthéon",,Paris,,75005,FR,"1,000.00",EUR,Refunded,PayPal,Dons libres,2023-12-26,11:00',
    '503,Léa,Petit,,,"3 chemin vert",,Nantes,,44000,FR,25.00,EUR,Pending,Offline Donation,Dons libres,2024-01-02,09:30',
    '',
  ].join('\n');
}

/** A spreadsheet of one's own: a column mapping to choose, a consent date for the news. */
export function ownSpreadsheet(): string {
  return ['Nom;Prénom;Code postal;Ville;Courriel;Montant;Date;Nouvelles le', 'Bernard;Luc;13001;Marseille;;15;10/01/2024;', 'Garnier;Zoé;33000;Bordeaux;zoe@example.org;22,50;11/01/2024;11/01/2024 08:00', ''].join('\n');
}

/**
 * HelloAsso's memberships export, as scripts reading it name its columns (HelloAsso publishes no
 * list): the order, its date and status, the member's name, the payer's, the rate ("Tarif") and
 * its amount, then the organisation's custom fields (here an address and a phone).
 */
export const HELLOASSO_MEMBERSHIPS_HEADER =
  'Référence commande;Date de la commande;Statut de la commande;Nom adhérent;Prénom adhérent;Nom payeur;Prénom payeur;Email payeur;Tarif;Montant tarif;Code Promo;Montant code promo;Adresse;Code postal;Ville;Téléphone';

export const helloassoMemberLine = (o: { order: string; date: string; status?: string; last: string; first: string; email: string; rate: string; amount: string; city?: string }) =>
  [o.order, o.date, o.status ?? 'Validé', o.last, o.first, o.last, o.first, o.email, o.rate, o.amount, '', '', '3 rue des Tilleuls', '35000', o.city ?? 'Rennes', '0601020304']
    .map((c) => (/[;"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c))
    .join(';');

/** Six lines: two members of one order (a family), a renewal of one of them, a refused payment, a rate unknown here, an impossible date. */
export function helloassoMemberships(eol = '\r\n'): string {
  return [
    HELLOASSO_MEMBERSHIPS_HEADER,
    helloassoMemberLine({ order: 'A100', date: '15/01/2024 09:30', last: 'Moreau', first: 'Inès', email: 'famille.moreau@example.org', rate: 'Adhésion individuelle', amount: '20,00' }),
    helloassoMemberLine({ order: 'A100', date: '15/01/2024 09:30', last: 'Moreau', first: 'Hugo', email: 'famille.moreau@example.org', rate: 'Adhésion individuelle', amount: '20,00' }),
    helloassoMemberLine({ order: 'A101', date: '20/01/2025 11:00', last: 'Moreau', first: 'Inès', email: 'famille.moreau@example.org', rate: 'Adhésion individuelle', amount: '20,00' }),
    helloassoMemberLine({ order: 'A102', date: '02/02/2024 10:00', status: 'Refusé', last: 'Petit', first: 'Noé', email: 'noe@example.org', rate: 'Adhésion individuelle', amount: '20,00' }),
    helloassoMemberLine({ order: 'A103', date: '03/02/2024 10:00', last: 'Blanc', first: 'Lina', email: 'lina@example.org', rate: 'Membre bienfaiteur', amount: '100,00' }),
    helloassoMemberLine({ order: 'A104', date: '30/02/2024 10:00', last: 'Faux', first: 'Jour', email: 'faux@example.org', rate: 'Adhésion individuelle', amount: '20,00' }),
    '',
  ].join(eol);
}
