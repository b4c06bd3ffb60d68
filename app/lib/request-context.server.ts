import { createContext } from 'react-router';

export interface RequestInfo {
  nonce: string;
  /** Socket address, or the proxy's client address when TRUST_PROXY is configured. */
  clientIp: string;
  requestId: string;
  /** Whether the visitor reached us over HTTPS (directly or through a trusted proxy). */
  secure: boolean;
}

export const requestInfoContext = createContext<RequestInfo>();
