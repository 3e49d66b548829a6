import type { Queryable } from './port.js';

/** The smallest statement: answers when the database does (the readiness probe). */
export async function ping(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
