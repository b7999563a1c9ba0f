import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { dropSchema, TEST_DATABASE_URL } from "../../../../packages/db/test/support/postgres-test-database";

/** The real Redis of this machine (override with REDIS_URL; PostgreSQL with RAAS_TEST_DATABASE_URL). */
const TEST_REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * A fresh PostgreSQL schema and Redis key prefix for one distributed-mode test: `databaseUrl`
 * selects the schema (every process migrates it at start), `prefix` keeps the queues and bus
 * apart. `remove()` drops the schema and deletes the keys.
 */
export function freshDistributedServices(): {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  remove(): Promise<void>;
} {
  const id = randomBytes(6).toString("hex");
  const schema = `raas_test_${id}`;
  const prefix = `raas-test-${id}`;
  return {
    databaseUrl: `${TEST_DATABASE_URL}?schema=${schema}`,
    redisUrl: TEST_REDIS_URL,
    prefix,
    async remove() {
      await dropSchema(schema);
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 2 });
      try {
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        await redis.quit();
      }
    },
  };
}
