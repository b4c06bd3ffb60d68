type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
let threshold = order.info;

export function setLogLevel(level: Level | 'silent'): void {
  threshold = order[level];
}

export const REDACTED = '[redacted]';

/** Fields whose value never reaches the log, whatever a caller passes. */
export const SECRET_KEYS = /pass(word|phrase)?|token|secret|hash|cookie|authori[sz]ation|api[-_]?key|private[-_]?key|signature|credential|^key$|^session/i;

/**
 * Secrets recognised inside any string (messages, paths, error texts): single-use links, bearer
 * and basic credentials, cookies, passwords in URLs, provider keys, and anything shaped like one
 * of our random tokens (32 bytes in base64url).
 */
export const SECRET_PATTERNS: [RegExp, string][] = [
  [/(\/admin\/(?:invitation|reinitialiser)\/)[^/?#\s"]+/gi, `$1${REDACTED}`],
  [/([?&](?:token|key|secret|password|code|signature|sig)=)[^&#\s"]+/gi, `$1${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`],
  [/(__session=)[^;\s"]+/g, `$1${REDACTED}`],
  [/(\/\/[^:/@\s"]+:)[^@/\s"]+@/g, `$1${REDACTED}@`],
  [/\b(?:sk|rk|whsec)_(?:live|test)?_?[A-Za-z0-9]{8,}/g, REDACTED],
  [/\bFLW(?:SECK|PUBK)(?:_TEST)?-[A-Za-z0-9-]+/g, REDACTED],
  [/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, REDACTED],
];

function redactString(s: string): string {
  let out = s;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A copy of `value` with secret fields and secret-looking strings replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: redactString(value.message) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) && v != null && v !== '' ? REDACTED : redact(v, depth + 1)]));
}

/** Where lines go (stdout/stderr); tests may capture them. */
let sink = (level: Level, line: string): void => {
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

/** Sets where lines go; returns the sink it replaces, for a test to put it back. */
export function setLogSink(next: (level: Level, line: string) => void): (level: Level, line: string) => void {
  const previous = sink;
  sink = next;
  return previous;
}

/** One JSON object per line, every field passed through `redact` first. */
function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (order[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: redactString(msg), ...(fields ? (redact(fields) as Record<string, unknown>) : {}) });
  sink(level, line);
}

/** Whether a line at this level would be written (callers skip building fields, or a listener, otherwise). */
export function logs(level: Level): boolean {
  return order[level] >= threshold;
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
