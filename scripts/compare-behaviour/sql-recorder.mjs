// Preloaded into a server by scripts/compare-behaviour.ts (node --import): counts the text of every
// SQL statement the process sends, through pg (PostgreSQL) and PGlite (the embedded store), and
// writes the counts as JSON ({text: count}) to COMPARE_SQL_LOG when the process exits. Values are
// not recorded: only the statement texts are compared.
//
// It patches the very module instances the server loads: the compared builds share this
// checkout's node_modules (a symbolic link), and Node resolves both to the same real files.
import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const target = process.env.COMPARE_SQL_LOG;
const counts = new Map();

function record(text) {
  if (typeof text !== 'string') return;
  counts.set(text, (counts.get(text) ?? 0) + 1);
}

if (target) {
  const clientQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    record(typeof config === 'string' ? config : config?.text);
    return clientQuery.call(this, config, ...rest);
  };

  const recordingQueries = (queryable) => {
    const { query, exec } = queryable;
    queryable.query = function (text, ...rest) {
      record(text);
      return query.call(this, text, ...rest);
    };
    queryable.exec = function (text, ...rest) {
      record(text);
      return exec.call(this, text, ...rest);
    };
  };
  recordingQueries(PGlite.prototype);
  // A transaction's statements go through the object PGlite hands its callback, not the prototype.
  const transaction = PGlite.prototype.transaction;
  PGlite.prototype.transaction = function (callback, ...rest) {
    return transaction.call(
      this,
      (tx) => {
        recordingQueries(tx);
        return callback(tx);
      },
      ...rest,
    );
  };

  process.on('exit', () => {
    writeFileSync(target, JSON.stringify(Object.fromEntries(counts)));
  });
}
