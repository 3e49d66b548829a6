import type { Config } from '../config.js';

/** `embedded store ./data` or `PostgreSQL host:port/db`: which store a command works on (never the password). */
export function describeStore(config: Config): string {
  if (!config.databaseUrl) return `embedded store ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL ${url.host || 'localhost'}${url.pathname || '/'}`;
}
