/** Types of build-state.js (plain JavaScript: server.js and scripts/start.js import it untranspiled). */
export function buildState(root: string): 'missing' | 'stale' | 'fresh';
