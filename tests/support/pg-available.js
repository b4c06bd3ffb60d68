// Prints the TEST_DATABASE_URL to use when a PostgreSQL server answers on 127.0.0.1:5432, else nothing.
import pg from 'pg';

const url = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test';
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
  await client.query('select 1');
  process.stdout.write(url);
} catch {
  // no server: data-layer tests run on SQLite only
} finally {
  await client.end().catch(() => {});
}
