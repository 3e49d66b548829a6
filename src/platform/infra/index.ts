export { EventLoopMonitor } from './event-loop-monitor.js';
export { Metrics, scrape, relayScrapesTo, gatherThreadScrapes } from './metrics.js';
export { answerPort, askPort } from './port-requests.js';
export { MemoryRateLimitStore, type RateLimitDecision, type RateLimitStore } from './rate-limit-store.js';
export { createRedisClient, RedisRateLimitStore } from './redis-rate-limit-store.js';
export { ResilientRateLimitStore, type FallbackLogger } from './resilient-rate-limit-store.js';
export { open, seal, secretKey, keyringOf, SecretBoxError, sealedPrefix, type Keyring } from './secret-box.js';
