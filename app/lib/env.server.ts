import { z } from 'zod';

/**
 * The environment is read and validated once, at start. The variable names are part of the
 * product's interface (deployments, the container image and other tools set them by these names): keep them.
 */
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

/** Days contact messages and never-paid attempts are kept when DATA_RETENTION_DAYS is not set (two years). */
export const DEFAULT_RETENTION_DAYS = 730;

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'must start with postgres:// or postgresql://',
    }),
  APP_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 32, {
      message: 'must be at least 32 characters long',
    }),
  PUBLIC_URL: optionalUrl,
  TRUST_PROXY: z.string().optional(),
  ADMIN_EMAIL: z.string().trim().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  STRIPE_API_BASE: optionalUrl,
  PAYPAL_API_BASE: optionalUrl,
  FLUTTERWAVE_API_BASE: optionalUrl,
  COINGATE_API_BASE: optionalUrl,
  PAYPAL_SDK_URL: optionalUrl,
  FLUTTERWAVE_SCRIPT_URL: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Turns the in-memory HTML cache off (benchmarks compare both). */
  HTML_CACHE: z.enum(['on', 'off']).default('on'),
  /** On SIGTERM, keep serving this long with /readyz failing (so a load balancer stops sending) before closing. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Requests per window for the contact form, per client address. */
  CONTACT_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  // Editorial workflow (issue #17, ADR 015): revisions kept per item; how often scheduled items are looked for.
  REVISIONS_KEEP: z.coerce.number().int().min(1).max(10_000).default(50),
  SCHEDULE_INTERVAL_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  /** Days contact messages and abandoned (never paid) donation attempts are kept before the periodic job deletes them. */
  DATA_RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(DEFAULT_RETENTION_DAYS),
  /** Letters (ADR 022): a claim never settled for this long (its worker died) is marked unknown, never resent. */
  LETTERS_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  /** Mailgun's webhook signing key: bounce and complaint notifications at /webhooks/mail/mailgun (ADR 022). */
  MAILGUN_WEBHOOK_SIGNING_KEY: z.string().optional(),
  // Behind a CDN (ADR 025): the header naming a cached page's keys, and the purge sent when content changes.
  CACHE_TAG_HEADER: z.string().trim().regex(/^[A-Za-z0-9-]+$/).default('Surrogate-Key'),
  CACHE_PURGE_URL: optionalUrl,
  CACHE_PURGE_METHOD: z.string().trim().regex(/^[A-Za-z]+$/).transform((v) => v.toUpperCase()).default('POST'),
  /** `Name: value` pairs separated by `;` or newlines (the message never shows a value: it may be a token). */
  CACHE_PURGE_HEADERS: z
    .string()
    .optional()
    .refine((v) => !v || v.split(/[;\n]/).every((h) => !h.trim() || /^[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*:/.test(h.trim())), {
      message: 'each header must be "Name: value", separated by ";" or newlines',
    }),
  /** The request's body: `{keys}` becomes the JSON array of keys; `{key}`, one request per key. */
  CACHE_PURGE_BODY: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** For tests that start the app with another environment in the same process. */
export function resetEnv(): void {
  cached = undefined;
}
