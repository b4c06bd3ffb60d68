/**
 * Table types, shared by both dialects. Conventions (ADR 002): text ids, booleans as 0/1 integers,
 * timestamps as ISO-8601 text, structured values as JSON text.
 */
import type { ColumnType } from 'kysely';

export interface PageContentTable {
  page_id: string;
  /** JSON: { [fieldId]: url } */
  images: string;
  /** JSON: { fr: {...}, en: {...}, es: {...} } */
  texts: string;
  version: number;
  updated_at: string;
}

export interface ProjectTable {
  id: string;
  image: string;
  date: string;
  location: string;
  status: string;
  active: number;
  /** JSON: { fr: { title, description }, en: …, es: … } */
  translations: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface BlogPostTable {
  id: string;
  image: string;
  author: string;
  date: string;
  status: string;
  /** JSON: { fr: { category, title, excerpt, content }, en: …, es: … } */
  translations: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface PartnerTable {
  id: string;
  name: string;
  logo_url: string;
  website: string;
  position: number;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Single documents (site settings, payment settings): one JSON value per key. */
export interface SettingTable {
  key: string;
  value: string;
  version: number;
  updated_at: string;
}

export interface MessageTable {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  message: string;
  language: string;
  read_at: string | null;
  created_at: string;
}

export interface MediaTable {
  id: string;
  name: string;
  storage_key: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  /** JSON: [{ width, height, key, size }] resized WebP variants */
  variants: string;
  uploaded_at: string;
}

/** Fixed-window counters shared by every instance (rate limits). */
export interface RateLimitTable {
  key: string;
  count: number;
  reset_at: number;
}

/** One row: bumped on every content change, read by every instance to drop stale cached HTML. */
export interface ContentStateTable {
  id: number;
  version: number;
}

/** An admin account (migration 002). Email is stored trimmed and lowercased. */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  /** 'Admin' | 'Éditeur' */
  role: string;
  /** argon2id PHC string; null until the invitation is accepted. */
  password_hash: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A signed-in browser. `id` is the sha256 of the cookie's token, never the token itself. */
export interface SessionTable {
  id: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  /** Absolute end of life. */
  expires_at: string;
}

/** One-time links (invitation, password reset). `id` is the sha256 of the mailed token. */
export interface AuthTokenTable {
  id: string;
  user_id: string;
  kind: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Who did what, when. `details` is JSON and never holds a password, token or secret. */
export interface AuditLogTable {
  id: string;
  at: string;
  user_id: string | null;
  user_name: string;
  action: string;
  target: string;
  details: string;
}

/** Every outgoing mail; `sent_at` is set only once an SMTP server accepted it. */
export interface MailOutboxTable {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

/** One payment attempt (migration 005). Amounts are integers in minor units. */
export interface DonationTable {
  id: string;
  provider: string;
  provider_ref: string;
  amount_minor: number;
  currency: string;
  eur_cents: number | null;
  secondary_ref: string | null;
  frequency: string;
  status: string;
  verifiable: number;
  donor_name: string | null;
  donor_email: string | null;
  language: string;
  callback_token_hash: string | null;
  error: string | null;
  receipt_sent_at: string | null;
  succeeded_at: string | null;
  created_at: string;
  updated_at: string;
  /** Migration 007: JSON of what a tax receipt needs; null when none is wanted. */
  tax_details: string | null;
  /** Migration 009 (campaigns): the designated campaign, fees covered, dedication. */
  campaign_id: string | null;
  fee_eur_cents: number;
  dedication_kind: string | null;
  dedication_name: string | null;
  dedication_message: string | null;
  dedication_email: string | null;
  dedication_sent_at: string | null;
  /** Migration 013: what the payment is for ('gift'; ADR 019). */
  purpose: string;
  /** Migration 023 (ADR 029): the provider's payment method type ('card', 'sepa_debit'); null when the provider has one means. */
  method: string | null;
  /** Migration 023: a direct debit's account (IBAN's last four digits), its mandate's reference and when the donor signed it. */
  account_last4: string | null;
  mandate_ref: string | null;
  mandate_signed_at: string | null;
  /** Migration 028 (ADR 036): the import that wrote it, its source and reference there, the receipt number it had there. */
  import_id: string | null;
  source: string | null;
  source_ref: string | null;
  external_receipt_number: string | null;
}

/** Migration 028 (ADR 036): one file imported. */
export interface ImportTable {
  id: string;
  file_name: string;
  file_key: string;
  file_size: number;
  source: string;
  mapping: string;
  status: string;
  report: string | null;
  total_lines: number;
  cursor: number;
  imported_count: number;
  lease_until: string | null;
  error: string | null;
  created_by: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  undone_at: string | null;
}

/** Migration 028: a column mapping saved for the next file. */
export interface ImportPresetTable {
  id: string;
  name: string;
  mapping: string;
  created_by: string;
  created_at: string;
}

/** Migration 029 (ADR 036): a campaign or a member an import created, by its source and reference there. */
export interface ImportRecordTable {
  import_id: string;
  kind: string;
  source: string;
  source_ref: string;
  record_id: string;
  created_at: string;
}

/** Migration 007: the last receipt number used in a calendar year. */
export interface ReceiptCounterTable {
  year: number;
  last: number;
}

/** Migration 007: one tax receipt, a snapshot of everything it prints. */
export interface ReceiptTable {
  id: string;
  number: string;
  year: number;
  seq: number;
  kind: string;
  donation_id: string | null;
  donation_ids: string;
  donor_email: string | null;
  language: string;
  donor: string;
  organisation: string;
  amount_cents: number;
  paid_at: string;
  method: string;
  issued_at: string;
  status: string;
  cancelled_at: string | null;
  cancel_reason: string | null;
  replaces_id: string | null;
  sent_at: string | null;
  /** Migration 024 (ADR 030): 'numeraire' | 'nature' | 'abandon_frais', and what was given, as printed. */
  nature: string;
  nature_description: string | null;
  /** Migration 027 (ADR 035): '200' | '238bis' | '978', the CGI article the receipt opens a reduction under. */
  regime: string;
}

/** Migration 027 (ADR 035): the 222 bis declaration of a fiscal year, marked as made by an Admin. */
export interface ReceiptDeclarationTable {
  year: number;
  done_at: string;
  done_by: string;
}

/** Editorial workflow (issue #17): one saved state of an item's editable fields (JSON snapshot). */
export interface RevisionTable {
  id: string;
  entity_type: string;
  entity_id: string;
  number: number;
  /** create | save | publish | schedule | restore */
  kind: string;
  snapshot: string;
  author_id: string | null;
  author_name: string;
  created_at: string;
}

/** The pending draft of a published item; `publish_at` (UTC ISO) when scheduled. */
export interface DraftTable {
  entity_type: string;
  entity_id: string;
  snapshot: string;
  base_version: number;
  publish_at: string | null;
  saved_by_id: string | null;
  saved_by_name: string;
  saved_at: string;
}

/** One editor's autosaved copy of an item (snapshot null until they type) and when they opened it. */
export interface AutosaveTable {
  entity_type: string;
  entity_id: string;
  user_id: string;
  user_name: string;
  snapshot: string | null;
  base_version: number;
  /** The `saved_at` of the draft the copy was typed on, '' when there was none (migration 012). */
  draft_saved_at: string;
  seq: number;
  opened_at: string;
  saved_at: string | null;
}

/** Donor space (migration 008): one-time sign-in links, by sha256 of the mailed token. */
export interface DonorLinkTable {
  id: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A donor's signed-in browser, by sha256 of the cookie's token. */
export interface DonorSessionTable {
  id: string;
  email: string;
  created_at: string;
  expires_at: string;
}

/** A monthly gift's current state, by the provider's subscription id. */
export interface MonthlyGiftTable {
  id: string;
  provider: string;
  first_donation_id: string;
  amount_minor: number;
  currency: string;
  status: string;
  updated_at: string;
}

/** Every change of a monthly gift: who asked, what Stripe confirmed. */
export interface MonthlyGiftEventTable {
  id: string;
  gift_id: string;
  kind: string;
  amount_minor: number | null;
  previous_amount_minor: number | null;
  source: string;
  provider_ref: string | null;
  at: string;
}

/** A dispute's news, once per dispute and outcome (migration 021, ADR 027). */
export interface PaymentDisputeTable {
  id: string;
  donation_id: string;
  provider: string;
  dispute_ref: string;
  /** 'open' | 'won' | 'lost' */
  outcome: string;
  reason: string | null;
  amount_minor: number;
  currency: string;
  at: string;
}

/** A movement of a provider's balance for one of our payments (ADR 033): gross, fee, net, payout. */
export interface ProviderBalanceMoveTable {
  id: string;
  provider: string;
  move_ref: string;
  donation_id: string | null;
  /** 'payment' | 'refund' | 'dispute' | 'other' */
  kind: string;
  gross_minor: number;
  fee_minor: number;
  net_minor: number;
  currency: string;
  occurred_at: string;
  available_at: string | null;
  payout_ref: string | null;
  fetched_at: string;
}

/** A transfer from a provider's balance to the foundation's bank account (ADR 033). */
export interface ProviderPayoutTable {
  id: string;
  provider: string;
  payout_ref: string;
  amount_minor: number;
  currency: string;
  status: string;
  created_at: string;
  arrival_at: string | null;
  fetched_at: string;
}

/** A consent given with a donation (newsletter), dated; withdrawn_at once taken back. */
export interface DonorConsentTable {
  id: string;
  donation_id: string;
  kind: string;
  given_at: string;
  withdrawn_at: string | null;
}

/** A fundraising campaign (migration 009). */
export interface CampaignTable {
  id: string;
  slug: string;
  status: string;
  image: string;
  goal_cents: number | null;
  starts_on: string | null;
  ends_on: string | null;
  project_id: string | null;
  /** JSON: { fr: { title, summary, story }, en: …, es: … } */
  translations: string;
  /** JSON: [{ cents, impact: { fr, en, es } }] */
  amounts: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A type of membership (migration 014). */
export interface MembershipTypeTable {
  id: string;
  /** JSON: { fr: { name, description }, en: …, es: … } */
  translations: string;
  dues_cents: number;
  period_model: string;
  rollover: string;
  tax_deductible: number;
  position: number;
  created_at: string;
  updated_at: string;
}

/** A member of the register (migration 014). */
export interface MembershipTable {
  id: string;
  number: number;
  type_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address: string;
  postal_code: string;
  city: string;
  country: string;
  language: string;
  exempt: number;
  ends_on: string | null;
  state_override: string | null;
  override_reason: string;
  override_by: string | null;
  override_at: string | null;
  /** When the member consented to the foundation's news (null: no consent). */
  news_consent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A person who asked for the foundation's news (migration 015, ADR 022). Email lowercased. */
export interface SubscriberTable {
  id: string;
  email: string;
  language: string;
  source: string;
  status: string;
  suppressed_reason: string | null;
  soft_bounces: number;
  created_at: string;
  updated_at: string;
}

/** One payment of dues (migration 014). */
export interface MembershipDuesTable {
  id: string;
  membership_id: string;
  payment_id: string | null;
  method: string;
  amount_cents: number;
  paid_at: string;
  period_start: string | null;
  period_end: string | null;
  status: string;
  revoked_at: string | null;
  recorded_by: string | null;
  created_at: string;
}

/** A renewal reminder claimed (and sent) once per member, period end and step (migration 014). */
export interface MembershipReminderTable {
  membership_id: string;
  period_end: string;
  step: number;
  channel: string;
  claimed_at: string;
  sent_at: string | null;
}

/** The membership a payment of purpose 'dues' pays for (migration 016). */
export interface MembershipPaymentTable {
  payment_id: string;
  membership_id: string;
  /** 'join' | 'renewal' (paid online) | 'manual' (recorded by an Admin, migration 018). */
  kind: string;
  created_at: string;
  /** The Admin who recorded a manual payment; null for one paid online. */
  recorded_by: string | null;
}

/** Migration 025: one year of the figures "where the money goes" (ADR 032). */
export interface TransparencyYearTable {
  year: number;
  /** JSON (app/domain/transparency/figures.ts: YearFigures). */
  figures: string;
  published: number;
  version: number;
  updated_at: string;
  updated_by: string;
}

/** Migration 021: a deposit of cheques at the bank (ADR 028). */
export interface GiftBatchTable {
  id: string;
  number: number;
  /** 'open' | 'deposited' | 'reconciled' */
  status: string;
  opened_on: string;
  opened_by: string;
  deposited_on: string | null;
  deposited_by: string | null;
  reconciled_on: string | null;
  reconciled_by: string | null;
  credited_cents: number | null;
  created_at: string;
}

/** Migration 021: a gift received by hand, beside its ledger row (ADR 028). */
export interface OfflineGiftTable {
  payment_id: string;
  batch_id: string | null;
  /** 'numeraire' | 'nature' | 'abandon_frais' (ADR 030). */
  nature: string;
  bank: string | null;
  drawer: string | null;
  recorded_by: string;
  created_at: string;
  /** Migration 024, a gift not in money: what it is, how it was valued (basis and detail), the mileage scale's inputs, the written waiver. */
  description: string | null;
  valuation_basis: string | null;
  basis_detail: string | null;
  km: number | null;
  horsepower: number | null;
  electric: number | null;
  waiver_signed: number | null;
}

/** Migration 024: the evidence of a gift not in money (base64), private to the back office. */
export interface GiftEvidenceTable {
  payment_id: string;
  file_name: string;
  mime: string;
  bytes: number;
  data_base64: string;
  created_at: string;
}

/** Bounce and complaint notifications already applied (provider:event id). */
export interface MailEventTable {
  id: string;
  received_at: string;
}

/** The proof of consent and its history: one row per request, confirmation, departure… */
export interface SubscriberEventTable {
  id: string;
  subscriber_id: string;
  kind: string;
  at: string;
  source: string;
  wording_version: string | null;
  detail: string | null;
}

/** Double opt-in links: sha256 of the mailed token, single use, 48 h. */
export interface SubscriberTokenTable {
  id: string;
  subscriber_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface LetterTable {
  id: string;
  versions: string;
  post_id: string | null;
  audience_language: string;
  audience_source: string;
  status: string;
  scheduled_at: string | null;
  pause_reason: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  /** Raised by each save of the content (versions, audience): the editorial workflow's check. */
  version: number;
  /** Migration 031 (ADR 040): the donors' segment the letter goes to ('' for none): its subscribed members only. */
  audience_segment: ColumnType<string, string | undefined, string>;
}

/** One recipient of one letter: claimed by one worker at a time (letters/queue.server.ts). */
export interface LetterQueueTable {
  id: string;
  letter_id: string;
  subscriber_id: string;
  status: string;
  claimed_by: string | null;
  claimed_at: string | null;
  done_at: string | null;
  error: string | null;
}

/** Migration 031 (ADR 040): a saved segment of the donors register (its rules as JSON, people/segments.ts). */
export interface SegmentTable {
  id: string;
  name: string;
  rules: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Migration 030 (ADR 038): one person of the donors register, with the figures kept in step with the ledger. */
export interface PersonTable {
  id: string;
  display_name: string;
  sort_name: string;
  search_text: string;
  /** The survivor this record was merged into; null for a live record. */
  merged_into: string | null;
  gifts: number;
  total_cents: number;
  largest_cents: number;
  first_gift_at: string | null;
  last_gift_at: string | null;
  last_monthly_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Migration 030: euros a person gave in one calendar year (UTC). */
export interface PersonYearTable {
  person_id: string;
  year: number;
  gifts: number;
  cents: number;
}

/** Migration 030: one lowercased email → its person, with what was last seen with it (for the duplicate rules). */
export interface PersonEmailTable {
  email: string;
  person_id: string;
  name: string;
  name_key: string;
  postal_code: string;
  phone: string;
  seen_at: string;
}

/** Migration 030: a merge of two records, what it moved (JSON), and whether it was taken back. */
export interface PersonMergeTable {
  id: string;
  survivor_id: string;
  merged_id: string;
  moved: string;
  by_name: string;
  at: string;
  undone_at: string | null;
  undone_by: string | null;
}

export interface PersonNoteTable {
  id: string;
  person_id: string;
  body: string;
  author_id: string | null;
  author_name: string;
  created_at: string;
}

export interface TagTable {
  id: string;
  name: string;
  name_key: string;
  created_at: string;
}

export interface PersonTagTable {
  person_id: string;
  tag_id: string;
}

export interface PersonPairDismissalTable {
  a_id: string;
  b_id: string;
  by_name: string;
  at: string;
}

export interface PeopleSyncTable {
  source: string;
  mark: string;
}

export interface Database {
  page_content: PageContentTable;
  projects: ProjectTable;
  blog_posts: BlogPostTable;
  partners: PartnerTable;
  settings: SettingTable;
  messages: MessageTable;
  media: MediaTable;
  rate_limits: RateLimitTable;
  content_state: ContentStateTable;
  users: UserTable;
  sessions: SessionTable;
  auth_tokens: AuthTokenTable;
  audit_log: AuditLogTable;
  mail_outbox: MailOutboxTable;
  donations: DonationTable;
  receipt_counters: ReceiptCounterTable;
  receipts: ReceiptTable;
  receipt_declarations: ReceiptDeclarationTable;
  // Editorial workflow (issue #17)
  revisions: RevisionTable;
  drafts: DraftTable;
  autosaves: AutosaveTable;
  donor_links: DonorLinkTable;
  donor_sessions: DonorSessionTable;
  monthly_gifts: MonthlyGiftTable;
  monthly_gift_events: MonthlyGiftEventTable;
  payment_disputes: PaymentDisputeTable;
  provider_balance_moves: ProviderBalanceMoveTable;
  provider_payouts: ProviderPayoutTable;
  donor_consents: DonorConsentTable;
  campaigns: CampaignTable;
  // Membership (issue 32)
  membership_types: MembershipTypeTable;
  memberships: MembershipTable;
  membership_dues: MembershipDuesTable;
  membership_reminders: MembershipReminderTable;
  membership_payments: MembershipPaymentTable;
  gift_batches: GiftBatchTable;
  offline_gifts: OfflineGiftTable;
  gift_evidence: GiftEvidenceTable;
  transparency_years: TransparencyYearTable;
  subscribers: SubscriberTable;
  subscriber_events: SubscriberEventTable;
  subscriber_tokens: SubscriberTokenTable;
  letters: LetterTable;
  letter_queue: LetterQueueTable;
  mail_events: MailEventTable;
  imports: ImportTable;
  import_presets: ImportPresetTable;
  import_records: ImportRecordTable;
  // Donors register (issue 44, ADR 038)
  people: PersonTable;
  segments: SegmentTable;
  person_years: PersonYearTable;
  person_emails: PersonEmailTable;
  person_merges: PersonMergeTable;
  person_notes: PersonNoteTable;
  tags: TagTable;
  person_tags: PersonTagTable;
  person_pair_dismissals: PersonPairDismissalTable;
  people_sync: PeopleSyncTable;
}
