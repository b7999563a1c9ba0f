export { RedisEventBus, type RedisEventBusOptions } from "./redis/redis-event-bus";
export { RedisJobQueue } from "./redis/redis-job-queue";
export type { RedisJobQueueOptions } from "./redis/redis-queue-options";
