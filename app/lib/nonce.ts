import { createContext, useContext } from 'react';

/** The request's CSP nonce, provided by entry.server; empty in the browser (nonces are hidden there). */
export const NonceContext = createContext('');
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
