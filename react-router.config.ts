import type { Config } from '@react-router/dev/config';

export default {
  ssr: true,
  // Every public page is complete HTML from the server (ADR 001).
} satisfies Config;
