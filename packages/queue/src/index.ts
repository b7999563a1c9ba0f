export { RedisEventBus } from "./redis/redis-event-bus";
export { RedisJobQueue } from "./redis/redis-job-queue";
