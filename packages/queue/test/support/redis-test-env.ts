import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/** The Redis on this machine (CI and development have one on 127.0.0.1:6379). */
export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export function freshPrefix(): string {
  return `raas-test-${randomUUID().slice(0, 8)}`;
}

/** Deletes every key under `prefix:` (the queues a test created). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit();
  }
}

export async function countKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    return (await redis.keys(`${prefix}:*`)).length;
  } finally {
    await redis.quit();
  }
}
